#!/bin/bash
# Oracle for corpora/xml/gir-gdk-window-cursor (input: Gdk-3.0.gir).
# Interesting (exit 0) iff
#   1. libxml2 (xmllint) parses the candidate as well-formed, namespace-correct
#      XML with no diagnostic at all (exit 0, empty stderr), and
#   2. the GObject-introspection cross references of GdkWindow's "cursor"
#      property still resolve:
#        repository/namespace[@name=Gdk]/class[@name=Window] has
#          - a <property name="cursor" setter=S> whose <type name=T>, and
#          - a <method name=S glib:set-property="cursor"> with a
#            parameters/parameter whose <type name=T>,
#        and the same namespace defines <class name=T glib:type-name="GdkCursor">.
#      Elements are matched in the GIR core namespace, glib:* attributes in
#      the GIR glib namespace, so the xmlns declarations must survive too.
# Contract: candidate path is the last argument; cwd is a private temp dir;
# prints nothing.
export LC_ALL=C
f="${!#}"
[ -f "$f" ] || exit 1

C='http://www.gtk.org/introspection/core/1.0'
G='http://www.gtk.org/introspection/glib/1.0'
e() { printf "*[local-name()='%s' and namespace-uri()='%s']" "$1" "$C"; }
g() { printf "@*[local-name()='%s' and namespace-uri()='%s']" "$1" "$G"; }

NS="/$(e repository)/$(e namespace)[@name='Gdk']"
WIN="$NS/$(e class)[@name='Window']"
CURSOR="$NS/$(e class)[$(g type-name)='GdkCursor']/@name"
PROP="$WIN/$(e property)[@name='cursor']"
METH="$WIN/$(e method)[$(g set-property)='cursor'][@name = ../$(e property)[@name='cursor']/@setter]"
XP="boolean($PROP/$(e type)/@name = $CURSOR and $METH/$(e parameters)/$(e parameter)/$(e type)/@name = $CURSOR)"

out=$(timeout 10 xmllint --nonet --xpath "$XP" "$f" 2>xmllint.err)
rc=$?
[ "$rc" -eq 0 ] || exit 1
[ -s xmllint.err ] && exit 1
[ "$out" = "true" ] || exit 1
exit 0
