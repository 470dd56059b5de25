#!/bin/sh
# hdd oracle: solc 0.8.37 (npm `solc`) warns that the `/// @solidity
# memory-safe-assembly` comment OpenZeppelin 4.9.6 writes before its
# assembly is deprecated, and the candidate compiles without an error
# (check.js). Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes nothing.
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
exec node "$(dirname "$0")/check.js" "$f" >/dev/null 2>&1
