#!/bin/sh
# the same input as json-members-and-elements-go-with-their-commas, with the
# shrinking pass: it squeezes the layout (JSON's layout means nothing)
export LC_ALL=C
grep -q needle "$1" && grep -q '"b"' "$1" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"
