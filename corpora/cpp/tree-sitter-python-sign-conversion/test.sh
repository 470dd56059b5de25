#!/bin/sh
# hdd oracle: g++ -Wsign-conversion reports the char pushed into the
# std::vector<uint16_t> of tree-sitter-python's scanner (in the original:
# Scanner::deserialize(), "indent_length_stack.push_back(buffer[i]);"), which
# needs the class, its member and libstdc++'s vector, far apart in the file.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
# valid C++ first: g++ must accept it (errors, and a missing return, fail)
timeout 20 g++ -std=c++17 -fsyntax-only -Werror=return-type \
    -Wsign-conversion "$f" >./hdd-g++.log 2>&1 || exit 1
grep -qF "conversion to 'std::vector<short unsigned int>::value_type' {aka 'short unsigned int'} from 'char' may change the sign of the result [-Wsign-conversion]" ./hdd-g++.log
