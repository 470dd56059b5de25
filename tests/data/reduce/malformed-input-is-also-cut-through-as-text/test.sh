#!/bin/sh
# the tree keeps the object around the broken string; lines and words do not
export LC_ALL=C
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>&1 | grep -q 'Unterminated string'
