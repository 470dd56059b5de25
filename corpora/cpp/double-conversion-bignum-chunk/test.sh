#!/bin/sh
# hdd oracle: g++ -Wsign-conversion reports a Bignum::Chunk passed where an
# int is expected (in the original: Bignum::DivideModuloIntBignum(),
# "SubtractTimes(other, RawBigit(used_bigits_ - 1));"), which needs the class
# Bignum with its nested typedef, two of its member declarations and the
# uint32_t typedef of the C library, far apart in the file.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
# valid C++ first: g++ must accept it (errors, and a missing return, fail)
timeout 20 g++ -std=c++17 -fsyntax-only -Werror=return-type \
    -Wsign-conversion "$f" >./hdd-g++.log 2>&1 || exit 1
grep -qF "conversion to 'int' from 'double_conversion::Bignum::Chunk' {aka 'unsigned int'} may change the sign of the result [-Wsign-conversion]" ./hdd-g++.log
