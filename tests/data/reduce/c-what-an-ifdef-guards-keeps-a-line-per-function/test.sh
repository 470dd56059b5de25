#!/bin/sh
# With WITH_HELPERS, gcc warns of a static function never used and of a
# variable never used; without it, of nothing: the #ifdef and both
# functions inside it stay, and the layout pass keeps each function on a
# line of its own, as at file level (not `static int a() {} int b() {`).
export LC_ALL=C
gcc -fsyntax-only -Wall "$1" > ./plain.log 2>&1 || exit 1
[ -s ./plain.log ] && exit 1
gcc -c -o ./out.o -Wall -DWITH_HELPERS "$1" > ./log 2>&1 || exit 1
grep -q "defined but not used" ./log && grep -q "unused variable" ./log
