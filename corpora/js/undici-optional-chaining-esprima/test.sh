#!/usr/bin/env bash
# Oracle: node compiles the candidate (as a CommonJS module) but esprima 4.0.1
# fails on it, first at an optional chain `?.` ("Unexpected token .").
# Needs esprima@4.0.1 in $HDD_NODE_MODULES (default: <corpora/js>/node_modules).
# Last argument: the candidate's path.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cand=${!#}
timeout 10 node "$here/check.js" "$cand" > check.out 2>&1 || exit 1
exit 0
