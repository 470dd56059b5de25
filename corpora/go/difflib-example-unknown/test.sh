#!/bin/sh
# hdd oracle: go vet (Debian's golang-go, Go 1.19) reports that the example
# function ExampleGetUnifiedDiffCode names no function of the package
# (vet's `tests` check), which needs the package, the candidate test file
# with go-difflib's difflib.go beside it, to type check.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
here=$(cd "$(dirname "$0")" && pwd)
case "$(go version 2>/dev/null)" in "go version go1.19."*) ;; *) exit 2 ;; esac
# the package: the candidate (difflib_test.go, in cwd) and its library
[ "$f" -ef ./difflib_test.go ] || cp "$f" ./difflib_test.go
cp "$here/difflib.go" ./difflib.go
export GO111MODULE=off GOFLAGS= GOCACHE="$PWD/.gocache" GOPATH="$PWD/.gopath"
timeout 60 go vet . >./hdd-vet.log 2>&1
grep -q '^vet: ' ./hdd-vet.log && exit 1
grep -qF 'ExampleGetUnifiedDiffCode refers to unknown identifier: GetUnifiedDiffCode' ./hdd-vet.log
