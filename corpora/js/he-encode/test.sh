#!/usr/bin/env bash
# Oracle: loaded in a node vm context, the candidate still exports he.encode,
# and he.encode('a < b & "c" \u00A9 \uD834\uDF06') returns exactly
# 'a &#x3C; b &#x26; &#x22;c&#x22; &#xA9; &#x1D306;'.
# Last argument: the candidate's path.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cand=${!#}
timeout 10 node "$here/check.js" "$cand" > check.out 2>&1 || exit 1
exit 0
