#!/bin/sh
# A DIMACS program that lies: `s UNSATISFIABLE` to every formula (kissat's `--version` too, so
# that it can stand in for kissat through SUDOKU_KISSAT).
[ "$1" = --version ] && { echo 9.9.9-liar; exit 0; }
cat >/dev/null
echo "s UNSATISFIABLE"
