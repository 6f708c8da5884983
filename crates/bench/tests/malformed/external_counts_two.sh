#!/bin/sh
# An outside program that claims a complete count of 2 for any 4x4 puzzle, listing two true
# solutions of the empty grid (which has 288): the count is a lie, each solution is not.
cat >/dev/null
echo "count 2"
echo "1234341221434321"
echo "1243431221343421"
