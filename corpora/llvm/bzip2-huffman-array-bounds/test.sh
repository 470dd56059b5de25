#!/bin/sh
# hdd oracle: LLVM 14's loop vectorizer (opt -O2, Debian's llvm-14) gives up
# on a loop of BZ2_hbCreateDecodeTables with "loop not vectorized: cannot
# identify array bounds" (remark CantIdentifyArrayBounds), the candidate
# being valid IR (llvm-as accepts it, which runs the verifier).
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
case "$(opt --version 2>/dev/null)" in *"LLVM version 14.0.6"*) ;; *) exit 2 ;; esac
timeout 60 llvm-as "$f" -o ./hdd.bc >/dev/null 2>&1 || exit 1
timeout 60 opt -O2 -pass-remarks-output=./hdd-remarks.yaml -o ./hdd-opt.bc ./hdd.bc \
  >/dev/null 2>&1 || exit 1
# the remark's name, then its function, on the lines right after it
grep -A1 '^Name: *CantIdentifyArrayBounds$' ./hdd-remarks.yaml |
  grep -q '^Function: *BZ2_hbCreateDecodeTables$'
