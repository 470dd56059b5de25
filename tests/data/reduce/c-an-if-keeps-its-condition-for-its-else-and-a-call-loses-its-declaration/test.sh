#!/bin/sh
# gcc warns that nSelectors may be used uninitialized: only the loop of the
# `else` sets it. Deleting the `if` keeps the loop always, deleting the
# `else` never: the `if` keeps its condition and takes the `else`'s loop (a
# splice). The call that uses the value must stay, the declaration around
# it need not: `int d = use(...);` becomes `use(...);`.
export LC_ALL=C
gcc -O2 -c -Wuninitialized -Wmaybe-uninitialized -o ./bug.o "$1" > ./log 2>&1 || exit 1
grep -qF "'nSelectors' may be used uninitialized" ./log || exit 1
! grep -qF 'is used uninitialized' ./log
