#!/bin/sh
# gcc -O2 -Wnull-dereference sees that the table get_hooks() returns may be
# null where first_hook() dereferences it ("potential"; a literal null is
# "null pointer dereference", a different finding). get_hooks()'s local
# `state` is made global: a global starts as zero, so the statements that
# set it, and the calls they made, go.
export LC_ALL=C
gcc -std=gnu11 -O2 -S -o ./out.s -Werror=implicit-function-declaration \
    -Werror=implicit-int -Werror=return-type -Werror=int-conversion \
    -Wnull-dereference "$1" > ./log 2>&1 || exit 1
grep -qF 'potential null pointer dereference' ./log || exit 1
! grep -qF 'warning: null pointer dereference' ./log
