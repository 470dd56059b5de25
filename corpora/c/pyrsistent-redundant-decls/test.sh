#!/bin/sh
# hdd oracle: gcc -Wredundant-decls reports
# "redundant redeclaration of 'PVectorEvolver_persistent'" (in the original:
# the same static prototype appears at line 137 and again at line 1190).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
PYINC=/usr/include/python3.11        # Debian libpython3.11-dev
[ -f "$PYINC/Python.h" ] || exit 3
timeout 10 gcc -std=gnu11 -fsyntax-only -I"$PYINC" \
    -Werror=implicit-function-declaration -Werror=implicit-int \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types \
    -Wredundant-decls "$f" >./hdd-gcc.log 2>&1 || exit 1
grep -qF "redundant redeclaration of 'PVectorEvolver_persistent' [-Wredundant-decls]" ./hdd-gcc.log
