#!/bin/sh
# hdd oracle: rustc's allow-by-default lint `unused_results` (-W unused-results)
# reports the HashMap `Entry` that `sorensen_dice` drops (in the original:
# `a_bigrams.entry(bigram).and_modify(|bi| { ... });`, whose value is the
# entry again), and the candidate still compiles as a library without errors.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
timeout 20 rustc --edition 2021 --crate-type lib --crate-name c --emit=metadata \
    --out-dir . -W unused-results "$f" >./hdd-rustc.log 2>&1 || exit 1
grep -qF "warning: unused result of type \`std::collections::hash_map::Entry<'_, (char, char), usize>\`" ./hdd-rustc.log
