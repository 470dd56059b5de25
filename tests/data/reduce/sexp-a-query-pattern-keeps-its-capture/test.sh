#!/bin/sh
# A few patterns of tree-sitter-c 0.24.2's highlighting queries (MIT), read
# as generic S-expressions: the pattern that captures a field called as a
# function must stay. Every other pattern goes, and so do the field names
# and the list around the capture.
export LC_ALL=C
grep -qF '(field_identifier) @function' "$1"
