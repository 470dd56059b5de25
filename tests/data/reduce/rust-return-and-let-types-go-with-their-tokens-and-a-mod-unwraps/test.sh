#!/bin/sh
export LC_ALL=C
# rustc's unused_mut lint on `count`, in a file that still compiles: the
# return type goes with its `->` (the body diverges), the `let` loses its
# type with its `:`, the `mod` unwraps into its functions.
rustc --edition 2021 --crate-type lib --crate-name c --emit=metadata --out-dir . \
    "$1" >log 2>&1 || exit 1
grep -q 'variable does not need to be mutable' log
