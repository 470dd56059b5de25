#!/bin/sh
# the body and the condition must stay, but not their contents
export LC_ALL=C
grep -q while "$1" || exit 1
gcc -fsyntax-only -Werror=return-type "$1" > ./log 2>&1
