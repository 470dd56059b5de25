#!/bin/sh
export LC_ALL=C
# The input is go-difflib 1.0.0's own code (difflib.go, BSD-3-Clause,
# Debian's golang-github-pmezard-go-difflib-dev). gofmt must still parse the
# result: a body becomes `{}`, a result type goes, struct fields and
# parameters go one by one, a conversion is hoisted out of its expression.
gofmt -e "$1" >formatted 2>&1 || exit 1
grep -q 'float64(matches)' "$1" && grep -q 'J1' "$1" && grep -q 'max(a, b int)' "$1"
