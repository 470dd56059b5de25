#!/bin/sh
# g++ warns that an unsigned value narrows to int. The namespaces of the
# input carry libstdc++'s visibility attribute, which tree-sitter-cpp cannot
# read: each is an error node and a block, which must go together.
export LC_ALL=C
g++ -std=c++17 -fsyntax-only -Werror=return-type -Wsign-conversion "$1" > ./log 2>&1 || exit 1
grep -qF "conversion to 'int' from 'unsigned int' may change the sign of the result [-Wsign-conversion]" ./log
