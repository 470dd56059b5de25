#!/bin/sh
# Interesting while the file, loaded as a module by node, still exports an
# encode that writes "<" and an astral character as hexadecimal references.
# Every `var` goes but one, and with it what declared the names: each is
# then an assignment to an undeclared name, written as its value at its
# uses (`root.exports` as `module.exports`, the regular expressions inline).
# The semicolons go at once, and the characters of the regular expressions
# that the check does not need one by one.
export LC_ALL=C
node -e 'var m = require(process.argv[1]);
if (m.encode("<\uD834\uDF06") !== "&#x3C;&#x1D306;") process.exit(1);' "$1" > ./out 2>&1
