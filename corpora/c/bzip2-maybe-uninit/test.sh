#!/bin/sh
# hdd oracle: gcc -Og -Wmaybe-uninitialized reports
# "'nSelectors' may be used uninitialized" and nothing else uninitialized,
# while the candidate still contains the assignment "nSelectors = 0".
# In the original, sendMTFValues() sets nSelectors only inside the
# BZ_N_ITERS refinement loop and checks it with AssertH() after the loop:
# -O1/-O2 stay quiet, -Og warns (a false positive).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 3
[ -f "$here/include/bzlib_private.h" ] || exit 3
# Keep the false-positive shape: the variable is still initialised somewhere.
grep -Eq 'nSelectors[[:space:]]*=[[:space:]]*0[[:space:]]*;' "$f" || exit 1
timeout 10 gcc -std=gnu11 -Og -S -o ./hdd-out.s -I"$here/include" \
    -Werror=implicit-function-declaration -Werror=implicit-int \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types \
    -Wuninitialized -Wmaybe-uninitialized "$f" >./hdd-gcc.log 2>&1 || exit 1
grep -qF "'nSelectors' may be used uninitialized [-Wmaybe-uninitialized]" ./hdd-gcc.log || exit 1
# No definite use of an uninitialised variable, and no other variable
# (maybe-)uninitialised: deleting initialisations or replacing the loop
# condition would otherwise manufacture true positives.
grep -qF 'is used uninitialized' ./hdd-gcc.log && exit 1
! grep -F 'uninitialized [-W' ./hdd-gcc.log | grep -qvF "'nSelectors'"
