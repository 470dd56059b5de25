#!/usr/bin/env bash
# Oracle: python3's json and node's JSON.parse both accept the candidate and
# disagree only on the value of integers above 2^53 (node rounds them to a
# double, python keeps them exact). Last argument: the candidate's path.
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
cand=${!#}
# python3: $HDD_PYTHON if set, else Debian's /usr/bin/python3 when present
# (a pyenv shim "python3" costs ~150 ms per start), else python3 on PATH.
py=${HDD_PYTHON:-python3}
[ -z "$HDD_PYTHON" ] && [ -x /usr/bin/python3 ] && py=/usr/bin/python3
timeout 10 node "$here/node-exact.js" "$cand" node-exact.json > node.out 2>&1 || exit 1
timeout 10 "$py" -I -S "$here/compare.py" "$cand" node-exact.json > python.out 2>&1 || exit 1
exit 0
