#!/bin/sh
# gcc -Wconversion warns that an unsigned int is stored into an unsigned
# char. Every deletion of one node keeps the warning away or breaks the
# code: the index variable is needed where it is used, and the typedef of
# the return type by the function. Only together with their uses do they
# go: the index with its use made 0, the typedef with its uses made int,
# and the struct's typedef with its one use made the struct.
export LC_ALL=C
gcc -c -Wconversion -o ./bug.o "$1" > ./log 2>&1 || exit 1
grep -q "conversion from 'UInt32' {aka 'unsigned int'} to 'UChar' {aka 'unsigned char'} may change value" ./log
