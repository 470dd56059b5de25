#!/bin/sh
# gcc -Wconversion warns that a UInt32 goes into a Bool, in the expansion
# of GET_BITS: the assignment must stay inside the macro's body, whose
# other lines may go one by one (its body is parsed as C), and its
# parameter nnn with the argument 1 of its use. A continuation
# left wrong would end the macro early (a stray statement outside any
# function) or take the next line into it (no function left to expand it
# in): either way no warning.
export LC_ALL=C
gcc -fsyntax-only -Wconversion "$1" > ./log 2>&1 || exit 1
grep -q "conversion from 'UInt32'.* to 'Bool'" ./log || exit 1
grep -q "in expansion of macro 'GET_BITS'" ./log
