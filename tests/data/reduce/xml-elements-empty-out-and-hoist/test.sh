#!/bin/sh
export LC_ALL=C
grep -q needle "$1" && grep -q '<root' "$1"
