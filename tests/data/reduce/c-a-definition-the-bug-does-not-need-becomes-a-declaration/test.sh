#!/bin/sh
# gcc warns of the cast of print_node to the type of a node's visit, and of
# nothing else: the cast needs print_node declared, not its body, so the
# definition becomes a prototype
export LC_ALL=C
gcc -c -Wall -Wextra "$1" -o ./out.o > ./log 2>&1 || exit 1
grep -q "cast between incompatible function types" ./log || exit 1
test "$(grep -c 'warning:' ./log)" = 1
