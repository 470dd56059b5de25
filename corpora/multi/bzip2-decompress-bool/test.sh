#!/bin/sh
# hdd oracle (multi-file): gcc -Wconversion reports bzip2's UInt32 stored
# into a Bool. In the original the assignment "vvv = v;" sits in the
# GET_BITS macro of decompress.c, expanded in BZ2_decompress() as
# GET_BITS(BZ_X_RANDBIT, s->blockRandomised, 1); Bool, UInt32 and the DState
# struct with its Bool field are declared in bzlib_private.h, and DState's
# bz_stream in bzlib.h.
# Contract: candidate = a copy of the input directory, given as the last
# argument and also the cwd; exit 0 = interesting. Prints nothing and
# writes no file (gcc -fsyntax-only, the log stays in a variable), so the
# candidate directory is left as it was.
export LC_ALL=C
for d; do :; done
[ -n "$d" ] && [ -d "$d" ] || exit 2
cd -- "$d" || exit 2
# The reducer may empty or delete any file: a missing file is not
# interesting. This matters for bzlib.h: without the copy's file,
# '#include "bzlib.h"' would find a system /usr/include/bzlib.h (Debian
# libbz2-dev), and the result would depend on the machine.
for f in decompress.c bzlib_private.h bzlib.h; do
    [ -f "$f" ] || exit 1
done
log=$(timeout 10 gcc -std=gnu11 -fsyntax-only -I. \
    -Werror=implicit-function-declaration -Werror=implicit-int \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types \
    -Wconversion decompress.c 2>&1) || exit 1
printf '%s\n' "$log" |
    grep -qF "conversion from 'UInt32' {aka 'unsigned int'} to 'Bool' {aka 'unsigned char'} may change value [-Wconversion]"
