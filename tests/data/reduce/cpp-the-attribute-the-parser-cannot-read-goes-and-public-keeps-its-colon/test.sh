#!/bin/sh
# g++ warns that a char goes into a vector of unsigned short. The vector
# comes from a system header (the line marker's flag 3) whose namespace
# carries the visibility attribute tree-sitter-cpp cannot read, and whose
# class has `public:` and `private:`.
export LC_ALL=C
g++ -std=c++17 -fsyntax-only -Werror=return-type -Wsign-conversion "$1" > ./log 2>&1 || exit 1
grep -qF "from 'char' may change the sign of the result [-Wsign-conversion]" ./log
