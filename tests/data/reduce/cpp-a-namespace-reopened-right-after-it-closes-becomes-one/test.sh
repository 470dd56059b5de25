#!/bin/sh
# g++ warns that a Chunk (unsigned) goes where an int is expected. The two
# parts of the namespace become one.
export LC_ALL=C
g++ -std=c++17 -fsyntax-only -Werror=return-type -Wsign-conversion "$1" > ./log 2>&1 || exit 1
grep -qF "conversion to 'int' from 'lib::Chunk'" ./log
