#!/usr/bin/env bash
# Oracle: jsonparse, loaded from the candidate, reads `[01]` (not JSON) as
# an array holding the string "01". Last argument: the candidate's path.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cand=${!#}
timeout 10 node --no-deprecation "$here/check.js" "$cand" > check.out 2>&1 || exit 1
exit 0
