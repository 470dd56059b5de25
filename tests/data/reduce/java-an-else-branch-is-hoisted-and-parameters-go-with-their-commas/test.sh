#!/bin/sh
export LC_ALL=C
# The input is SwingSet2's own code (BezierAnimationPanel.java's animate,
# BSD-3-Clause, Debian's openjdk-17-demo). The `else if` branch is hoisted
# out of the first `if`, the parameters but `limit` go with their commas,
# a statement becomes the expression that matters. A grep is no compiler:
# the token pass also takes `void`, which javac would want back.
grep -q 'newpt >= (float) limit' "$1" && grep -q '2.0f \* limit' "$1" && grep -q 'int limit' "$1"
