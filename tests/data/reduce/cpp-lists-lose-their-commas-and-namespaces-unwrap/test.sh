#!/bin/sh
export LC_ALL=C
grep -q 'second(b), tag' "$1" || exit 1
g++ -std=c++17 -fsyntax-only -Werror=return-type "$1" > ./log 2>&1
