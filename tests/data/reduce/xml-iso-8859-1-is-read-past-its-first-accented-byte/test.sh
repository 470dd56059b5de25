#!/bin/sh
# the bug needs the needle next to an ISO-8859-1 byte (0xE9) and a
# well-formed document, so the declaration of the encoding stays too
export LC_ALL=C
grep -q needle "$1" && grep -q "$(printf 'th\351')" "$1" && xmllint --noout "$1" 2>/dev/null
