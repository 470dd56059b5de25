#!/bin/sh
# Regression: on this input HDD+ looped forever (before coordinated
# deletion, too): a hoist whose candidate read as the current best counted
# as interesting, so every hoisting round "found" something and the
# hoist/1-minimal loop never ended. Interesting while running it prints
# "hi needle" and throws nothing.
export LC_ALL=C
node "$1" > ./out 2>&1 || exit 1
grep -q '^hi needle$' ./out
