#!/bin/sh
export LC_ALL=C
grep -q needle "$1" || exit 1
node --check "$1" > ./log 2>&1
