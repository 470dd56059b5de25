#!/bin/sh
# gcc warns of a division by zero; with --format the result is laid out by
# clang-format (its LLVM style) as the last candidate, kept since the
# warning stays.
export LC_ALL=C
gcc -c -Wall -o ./bug.o "$1" > ./log 2>&1 || exit 1
grep -q 'division by zero' ./log
