#!/bin/sh
# hdd oracle: wabt 1.0.32 (Debian 12) assembles and validates the candidate
# (wat2wasm), and its decompiler (wasm-decompile) writes a `goto B_a` for
# it: a branch out of a block that it does not write as structured code
# (in the original, rot13's `br $exit` out of its loop).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
wat2wasm --version | grep -qxF 1.0.32 || exit 3
timeout 10 wat2wasm "$f" --output=./hdd.wasm >./hdd-wat2wasm.log 2>&1 || exit 1
timeout 10 wasm-decompile ./hdd.wasm --output=./hdd.dcmp >./hdd-decompile.log 2>&1 || exit 1
grep -qF 'goto B_a' ./hdd.dcmp
