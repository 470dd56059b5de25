#!/bin/sh
# malformed-input-is-also-cut-through-as-text without the token pass: the tree
# keeps the object around the broken string
export LC_ALL=C
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>&1 | grep -q 'Unterminated string'
