#!/bin/sh
# libxml2 stops at the raw `<` of an XPath comparison in a test attribute;
# in recovery mode it still reads an XSLT stylesheet. The raw `<` is a
# syntax error the guard counts, and the smallest such file cuts through
# the tags: the start tag of the `xsl:if` goes (its attribute then belongs
# to the stylesheet's own start tag), and everything after the `<`.
export LC_ALL=C
xmllint --nonet --recover --xpath 'concat(namespace-uri(/*), " ", local-name(/*))' "$1" > ./out 2> ./err
head -n 1 ./err | grep -q "parser error : Unescaped '<' not allowed in attributes values$" &&
  [ "$(cat ./out)" = "http://www.w3.org/1999/XSL/Transform stylesheet" ]
