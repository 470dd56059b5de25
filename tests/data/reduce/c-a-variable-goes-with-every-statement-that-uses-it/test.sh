#!/bin/sh
# gcc -Wall -Werror rejects a variable that is set but not used: `extra`
# and its uses can only go together, in one candidate (coordinated
# deletion); so can `scaled` and its call, and its parameters and their
# arguments.
export LC_ALL=C
grep -q 'return keep' "$1" || exit 1
gcc -fsyntax-only -Wall -Werror "$1" > ./log 2>&1
