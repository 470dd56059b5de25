#!/bin/sh
export LC_ALL=C
grep -q 'title="[^"]*&gt;' "$1"
