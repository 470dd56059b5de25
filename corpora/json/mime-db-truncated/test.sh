#!/usr/bin/env bash
# Oracle: the candidate ends inside a JSON string: python3's json reports
# "Unterminated string starting at" and node's JSON.parse reports
# "Unterminated string in JSON at position <length of input>".
# Last argument: the candidate's path.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cand=${!#}
# python3: $HDD_PYTHON if set, else Debian's /usr/bin/python3 when present
# (a pyenv shim "python3" costs ~150 ms per start), else python3 on PATH.
py=${HDD_PYTHON:-python3}
[ -z "$HDD_PYTHON" ] && [ -x /usr/bin/python3 ] && py=/usr/bin/python3
timeout 10 "$py" -I -S "$here/python-check.py" "$cand" > python.out 2>&1 || exit 1
timeout 10 node "$here/node-check.js" "$cand" > node.out 2>&1 || exit 1
exit 0
