#!/bin/sh
# An outside program that lies: `infeasible` to every puzzle.
cat >/dev/null
echo infeasible
