#!/bin/sh
# hdd oracle: the one of ../bzip2-huffman-array-bounds (LLVM 14's loop
# vectorizer: "cannot identify array bounds" in BZ2_hbCreateDecodeTables,
# the candidate valid IR).
exec "$(dirname "$0")/../bzip2-huffman-array-bounds/test.sh" "$@"
