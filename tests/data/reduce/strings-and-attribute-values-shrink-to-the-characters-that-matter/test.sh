#!/bin/sh
export LC_ALL=C
grep -q 'title="[^"]*<' "$1"
