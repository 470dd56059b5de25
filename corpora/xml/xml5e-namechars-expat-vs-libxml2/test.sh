#!/bin/bash
# Oracle for corpora/xml/xml5e-namechars-expat-vs-libxml2 (input: ibm04av01.xml).
# Parser disagreement on XML 1.0 Fifth Edition name characters.  The W3C XML
# conformance suite lists this document as valid (XML 1.0 5th edition,
# test x-ibm-1-0.5-valid-P04-ibm04av01.xml).  Interesting (exit 0) iff
#   A. libxml2 accepts it: `xmllint --nonet --noout` exits 0 and prints
#      nothing (libxml2 implements the 5th-edition NameStartChar/NameChar
#      ranges), and
#   B. Python's expat (pyexpat) rejects it with XML_ERROR_INVALID_TOKEN,
#      "not well-formed (invalid token)", at a non-ASCII character inside a
#      name (expat keeps the older, 4th-edition name character tables).
# Contract: candidate path is the last argument; cwd is a private temp dir;
# prints nothing.
export LC_ALL=C
f="${!#}"
[ -f "$f" ] || exit 1
here=$(cd "$(dirname "$0")" && pwd)

timeout 10 xmllint --nonet --noout "$f" >xmllint.out 2>xmllint.err
[ $? -eq 0 ] || exit 1
[ -s xmllint.out ] && exit 1
[ -s xmllint.err ] && exit 1

# Prefer a python3 binary directly: a pyenv shim costs ~100 ms per call.
# -I -S: isolated, no site import (only the standard library is needed).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
timeout 10 "$py" -I -S "$here/expat_namechar.py" "$f" >python.out 2>&1
[ $? -eq 0 ] || exit 1
[ -s python.out ] && exit 1
exit 0
