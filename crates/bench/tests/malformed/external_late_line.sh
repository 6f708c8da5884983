#!/bin/sh
# A batch program that prints a line of its own after each answer, out of turn.
while read -r line; do echo unknown; echo "late stray line"; done
