#!/bin/sh
# hdd oracle: the one of ../swingset2-static-via-instance (javac -Xlint:static
# on `anim.sleep(500)`, the candidate compiling otherwise).
exec "$(dirname "$0")/../swingset2-static-via-instance/test.sh" "$@"
