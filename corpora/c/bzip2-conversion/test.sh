#!/bin/sh
# hdd oracle: gcc -Wconversion reports the narrowing of bzip2's UInt32 into a
# UChar (in the original: uInt64_qrm10(), "n->b[i] = tmp / 10;", where the
# typedefs, the UInt64 struct and the local 'tmp' are declared far apart).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 3
[ -f "$here/include/bzlib.h" ] || exit 3
timeout 10 gcc -std=gnu11 -fsyntax-only -I"$here/include" \
    -Werror=implicit-function-declaration -Werror=implicit-int \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types \
    -Wconversion "$f" >./hdd-gcc.log 2>&1 || exit 1
grep -qF "conversion from 'UInt32' {aka 'unsigned int'} to 'UChar' {aka 'unsigned char'} may change value [-Wconversion]" ./hdd-gcc.log
