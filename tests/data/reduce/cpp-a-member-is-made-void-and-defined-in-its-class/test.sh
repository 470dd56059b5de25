#!/bin/sh
# g++ warns that a Chunk (unsigned) goes where an int is expected; a
# function that may fall off its end without a value is an error. The
# member function is made void (its return and its call of fail() go) and
# then defined in its class.
export LC_ALL=C
g++ -std=c++17 -fsyntax-only -Werror=return-type -Wsign-conversion "$1" > ./log 2>&1 || exit 1
grep -qF "conversion to 'int' from 'lib::Chunk'" ./log
