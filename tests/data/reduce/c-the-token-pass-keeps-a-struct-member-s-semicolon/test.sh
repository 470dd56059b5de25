#!/bin/sh
# gcc -Wconversion warns of bzip2's UInt32 narrowed into a UChar. The
# prototypes' NORETURN is a syntax error to tree-sitter, which lets the
# syntax guard pass candidates with as many errors; the token pass must
# still keep the struct member's `;`.
export LC_ALL=C
gcc -std=gnu11 -fsyntax-only -Werror=implicit-function-declaration \
    -Werror=implicit-int -Werror=return-type -Wconversion "$1" > ./log 2>&1 || exit 1
grep -qF "conversion from 'UInt32' {aka 'unsigned int'} to 'UChar' {aka 'unsigned char'} may change value" ./log
