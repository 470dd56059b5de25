#!/bin/sh
# gcc's errors for a parenthesis never closed, and for a name never
# declared in the function after it: both must stay. The layout pass ends
# the `(` with the block around it, so the function's `}` and the next
# function start lines of their own (not `(0; } int g() {`).
export LC_ALL=C
gcc -fsyntax-only "$1" > ./log 2>&1
grep -q "expected ')' before ';' token" ./log && grep -q "'y' undeclared" ./log
