#!/bin/sh
# An SMT-LIB snippet (from z3's pattern database, MIT): z3 must read it
# without an error (so every symbol it uses is declared) and it must still
# say `(not (= (?PO t1 t2) 1))`. The `or` around that term is hoisted
# away, and each unused declaration goes.
export LC_ALL=C
z3 -smt2 "$1" >./z3.log 2>&1 || exit 1
if grep -q error ./z3.log; then exit 1; fi
grep -qF '(not (= (?PO t1 t2) 1))' "$1"
