#!/bin/sh
# gcc warns that zz is unused. The function around it is needed, and with
# it the type it returns, size_t, which comes from a header: alone, neither
# the include nor the type may go. The type made int at every use, the
# include goes too.
export LC_ALL=C
gcc -c -Wunused-variable -o ./bug.o "$1" > ./log 2>&1 || exit 1
grep -qF "unused variable 'zz'" ./log
