#!/usr/bin/env python3
"""Test latencies one after the other in a run: the waves of its trace.

    bench/waves.py TRACE

TRACE is what `hdd --trace` wrote: one JSON line per answered candidate.
A wave is a run of used answers from a test (`how` test, timeout, or
ahead: a test run before its pass began, on a guess of its text) that
were settled together: each starts a new wave when it was settled more
than half the median test time after the first answer of the current
one. (The trace writes a used answer when it is settled, after every
candidate before it: its `at` is that time, not when its test ended.)
With many workers, the waves are what the run could not do at once (the
critical path, in test latencies); `-j 1` has one wave per test.

Prints the number of waves, then a markdown table of waves per phase (a
wave shared by several phases counts for each in part) with the used
tests of each phase.
"""
import json
import sys
from collections import Counter, defaultdict


def waves(lines):
    """The used tests' answers grouped into waves, in time order."""
    used = sorted(
        (a for a in lines if a["used"] and a["how"] in ("test", "timeout", "ahead")),
        key=lambda a: a["at"],
    )
    if not used:
        return []
    secs = sorted(a["test_secs"] for a in used)
    gap = secs[len(secs) // 2] / 2
    out = []
    for a in used:
        if not out or a["at"] - out[-1][0]["at"] > gap:
            out.append([])
        out[-1].append(a)
    return out


def main(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f]
    ws = waves(lines)
    share = defaultdict(float)  # in the order the phases first come
    tests = Counter()
    for w in ws:
        phases = sorted({a["phase"] for a in w})
        for p in phases:
            share[p] += 1 / len(phases)
        tests.update(a["phase"] for a in w)
    print(f"{len(ws)} waves")
    print()
    print("| phase | waves | tests |")
    print("|---|---:|---:|")
    for p in share:
        print(f"| {p} | {share[p]:.1f} | {tests[p]} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    main(sys.argv[1])
