#!/bin/bash
# Oracle for corpora/xml/iso2022jp-expat-vs-libxml2 (input: pr-xml-iso-2022-jp.xml).
# Parser disagreement on a document the W3C XML conformance suite lists as
# valid (japanese/pr-xml-iso-2022-jp.xml).  Interesting (exit 0) iff
#   A. libxml2 accepts it: `xmllint --nonet --noout` exits 0 and prints nothing
#      except (possibly) the benign "error : xmlAddEntity: invalid redeclaration
#      of predefined entity" line the original already produces, and
#   B. Python's expat (pyexpat, xml.parsers.expat) rejects it with
#      XML_ERROR_INVALID_TOKEN, "not well-formed (invalid token)", at an ESC
#      byte: pyexpat only supports single-byte encodings through Python codecs,
#      so the ISO-2022-JP escape sequences (ESC $ B ... ESC ( B) are invalid
#      characters to it, while libxml2 decodes ISO-2022-JP through iconv.
# Contract: candidate path is the last argument; cwd is a private temp dir;
# prints nothing.
export LC_ALL=C
f="${!#}"
[ -f "$f" ] || exit 1
here=$(cd "$(dirname "$0")" && pwd)

timeout 10 xmllint --nonet --noout "$f" >xmllint.out 2>xmllint.err
[ $? -eq 0 ] || exit 1
[ -s xmllint.out ] && exit 1
if grep -a -v -x 'error : xmlAddEntity: invalid redeclaration of predefined entity' xmllint.err >xmllint.other; then
    exit 1
fi

# Prefer a python3 binary directly: a pyenv shim costs ~100 ms per call.
# -I -S: isolated, no site import (only the standard library is needed).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
timeout 10 "$py" -I -S "$here/expat_esc.py" "$f" >python.out 2>&1
[ $? -eq 0 ] || exit 1
[ -s python.out ] && exit 1
exit 0
