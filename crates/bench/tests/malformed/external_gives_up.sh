#!/bin/sh
# An outside program that gives up at once: `unknown` to every puzzle.
while read -r line; do echo unknown; done
