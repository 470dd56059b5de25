#!/bin/sh
# the bug needs the byte order mark: it must stay the first three bytes,
# and the document around the needle must stay well-formed
export LC_ALL=C
[ "$(head -c 3 "$1" | od -An -tx1 | tr -d ' \n')" = efbbbf ] &&
  grep -q needle "$1" && xmllint --noout "$1" 2>/dev/null
