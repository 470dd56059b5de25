#!/bin/sh
# hdd oracle: the one of ../difflib-example-unknown (go vet's `tests` check
# on ExampleGetUnifiedDiffCode, the package type checking), with its
# difflib.go beside the candidate.
exec "$(dirname "$0")/../difflib-example-unknown/test.sh" "$@"
