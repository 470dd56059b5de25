#!/bin/bash
# Oracle for corpora/xml/svg-htop-gradient-href (input: htop.svg).
# Interesting (exit 0) iff xmllint (libxml2) parses the candidate with no
# diagnostic at all (exit 0, empty stderr) and this paint-server chain of
# references still resolves (elements in the SVG namespace, href in XLink's):
#   an svg:path with fill="url(#A)",
#   an svg:linearGradient id="A" with xlink:href="#B",
#   an svg:linearGradient id="B" with at least two svg:stop children,
#   all below a root svg:svg element.
# Contract: candidate path is the last argument; cwd is a private temp dir;
# prints nothing.
export LC_ALL=C
f="${!#}"
[ -f "$f" ] || exit 1

S='http://www.w3.org/2000/svg'
X='http://www.w3.org/1999/xlink'
e() { printf "*[local-name()='%s' and namespace-uri()='%s']" "$1" "$S"; }
HREF="@*[local-name()='href' and namespace-uri()='$X']"
ROOT="/$(e svg)"
# gradients A referenced by a path's fill
A="$ROOT//$(e linearGradient)[concat('url(#', @id, ')') = $ROOT//$(e path)/@fill]"
# gradient B that some such A points to, having >= 2 stops
XP="boolean($ROOT//$(e linearGradient)[count($(e stop)) >= 2][concat('#', @id) = $A/$HREF])"

out=$(timeout 10 xmllint --nonet --xpath "$XP" "$f" 2>xmllint.err)
[ $? -eq 0 ] || exit 1
[ -s xmllint.err ] && exit 1
[ "$out" = "true" ] || exit 1
exit 0
