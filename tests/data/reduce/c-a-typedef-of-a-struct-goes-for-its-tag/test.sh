#!/bin/sh
# gcc warns of the comparison of an int with a node's unsigned depth and of
# the cast of print_node to the type of a node's visit, and of nothing
# else: the function uses the struct by its tag before the one use of the
# typedef, so the typedef goes for the tag (`struct nd g`), not into its use
export LC_ALL=C
gcc -c -Wall -Wextra "$1" -o ./out.o > ./log 2>&1 || exit 1
grep -q "comparison of integer expressions of different signedness" ./log || exit 1
grep -q "cast between incompatible function types" ./log || exit 1
test "$(grep -c 'warning:' ./log)" = 2
