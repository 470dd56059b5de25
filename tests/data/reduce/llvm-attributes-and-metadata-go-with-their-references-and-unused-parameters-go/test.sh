#!/bin/sh
# bzip2 1.0.8's BZ2_hbAssignCodes (huffman.c, bzip2-1.0.6 licence, from
# crates.io's bzip2-sys) as Debian's clang 14 writes it at -O1 with its
# values named: llvm-as must still accept it, and the code must still
# double a value (`shl`). The attribute group and the metadata go with
# every reference to them (`, !tbaa !5` with its comma), the unused
# parameters go, and the token pass makes `%0` the constant `0`, so the
# load that defined it and the arrays' pointers go too.
export LC_ALL=C
llvm-as "$1" -o ./codes.bc >./as.log 2>&1 || exit 1
grep -q 'shl i32' "$1"
