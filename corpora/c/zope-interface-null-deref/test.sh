#!/bin/sh
# hdd oracle: gcc -O2 -Wnull-dereference reports "potential null pointer
# dereference" in the candidate (in the original: _get_module() ->
# _get_adapter_hooks() can return NULL, both are inlined into IB__adapt__,
# whose PyList_GET_SIZE(adapter_hooks) then dereferences it).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
PYINC=/usr/include/python3.11        # Debian libpython3.11-dev
[ -f "$PYINC/Python.h" ] || exit 3
# One compile does both jobs: the -Werror=... flags reject invalid candidates,
# the log is searched for the warning.
timeout 10 gcc -std=gnu11 -O2 -S -o ./hdd-out.s -I"$PYINC" \
    -Werror=implicit-function-declaration -Werror=implicit-int \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types \
    -Wnull-dereference "$f" >./hdd-gcc.log 2>&1 || exit 1
grep -qF 'potential null pointer dereference [-Wnull-dereference]' ./hdd-gcc.log || exit 1
# A definite "null pointer dereference" means the reducer replaced the call
# chain by a literal NULL: a different (true-positive) behaviour.
! grep -qF 'warning: null pointer dereference [-Wnull-dereference]' ./hdd-gcc.log
