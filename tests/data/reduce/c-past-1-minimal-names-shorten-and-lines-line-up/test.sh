#!/bin/sh
# gcc warns of a division by zero. What is left after the tree's passes
# (1-tree-minimal) still has long names, the input's deep indentation and
# an argument list over two lines: the token pass, the renaming pass and
# the layout pass take it further.
export LC_ALL=C
gcc -c -Wall -o ./bug.o "$1" > ./log 2>&1 || exit 1
grep -q 'division by zero' ./log
