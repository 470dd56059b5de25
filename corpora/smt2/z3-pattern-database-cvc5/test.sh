#!/bin/sh
# hdd oracle: z3 4.8.12 reads the candidate without an error, and cvc5
# 1.0.3 refuses it: "Pattern must be a list of fully-applied terms" (a
# quantifier's `:pattern` written as one term, which z3 takes and the
# SMT-LIB standard does not). Both from Debian 12.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
z3 --version | grep -qF 'Z3 version 4.8.12' || exit 3
cvc5 --version | grep -qF 'cvc5 version 1.0.3' || exit 3
timeout 10 z3 -smt2 "$f" >./hdd-z3.log 2>&1 || exit 1
if grep -q 'error' ./hdd-z3.log; then exit 1; fi
timeout 10 cvc5 --lang smt2 --parse-only "$f" >./hdd-cvc5.log 2>&1
grep -qF 'Pattern must be a list of fully-applied terms' ./hdd-cvc5.log
