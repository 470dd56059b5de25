#!/bin/sh
# wabt's factorial example (Apache-2.0): wat2wasm must still assemble and
# validate it, and it must still call itself. The call is hoisted out of
# the `if`, its `else` and the multiplication around it, in the function's
# place for a result.
export LC_ALL=C
wat2wasm "$1" --output=./fac.wasm >./wat2wasm.log 2>&1 || exit 1
grep -qF '(call 0' "$1"
