#!/bin/bash
# Oracle for corpora/xml/html-libxml2-news-unclosed-li (input: xml.html).
# The libxml2 2.7.2 release notes in this page lack a </li>, so the list's
# </ul> is taken as the (mismatched) end of the <li> and the <ul> is left
# open until end of file.  Interesting (exit 0) iff xmllint (libxml2) rejects
# the candidate (exit 1) with exactly that cascade:
#   - its FIRST error is "Opening and ending tag mismatch: li line N and ul"
#   - its LAST error is  "Premature end of data in tag ul line N"
# (line numbers ignored).  Any other first error (truncation, broken DOCTYPE,
# a different mismatch, undefined entity...) or another element left open at
# end of file is not interesting.
# Contract: candidate path is the last argument; cwd is a private temp dir;
# prints nothing.
export LC_ALL=C
f="${!#}"
[ -f "$f" ] || exit 1

timeout 10 xmllint --nonet --noout "$f" 2>xmllint.err
rc=$?
[ "$rc" -eq 1 ] || exit 1
grep -a ': parser error : ' xmllint.err > errors.txt || exit 1
first=$(head -n 1 errors.txt)
last=$(tail -n 1 errors.txt)
# Strip "FILE:LINE: parser error : " (FILE may contain ':' - take the last match).
first=${first##*: parser error : }
last=${last##*: parser error : }
[[ "$first" =~ ^Opening\ and\ ending\ tag\ mismatch:\ li\ line\ [0-9]+\ and\ ul$ ]] || exit 1
[[ "$last" =~ ^Premature\ end\ of\ data\ in\ tag\ ul\ line\ [0-9]+$ ]] || exit 1
exit 0
