#!/bin/sh
# no dangling commas; without the shrinking pass the layout of what stays is the input's
export LC_ALL=C
grep -q needle "$1" && grep -q '"b"' "$1" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"
