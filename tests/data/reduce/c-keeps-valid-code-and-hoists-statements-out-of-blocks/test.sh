#!/bin/sh
export LC_ALL=C
grep -q 'printf("big' "$1" || exit 1
gcc -fsyntax-only -Werror=implicit-function-declaration -Werror=return-type "$1" > ./log 2>&1
