#!/bin/sh
# A list item without its end tag: libxml2 takes the list's `</ul>` for the
# item's (a mismatch) and reaches the end with the list still open. The
# token pass without the guard cuts the tags after the list down to `<img>`
# and `</`, which only go in pairs; the tree's pass without the guard then
# takes the first `<img>`, an element that now runs to the end of the text.
export LC_ALL=C
xmllint --nonet --noout "$1" 2> ./err
grep ': parser error : ' ./err > ./errors
head -n 1 ./errors | grep -q 'Opening and ending tag mismatch: li line [0-9]* and ul$' &&
  tail -n 1 ./errors | grep -q 'Premature end of data in tag ul line [0-9]*$'
