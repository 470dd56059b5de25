#!/bin/sh
# hdd oracle: pyflakes 3.2.0 reports the name a `with ... as` binds and
# nothing reads (in the original: `with self.assertRaises(AttributeError)
# as excinfo:` in testProxyNoContextManager), and the candidate still
# compiles (py_compile), so it is valid Python. One interpreter does both.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
timeout 10 python3 - "$f" >./hdd-pyflakes.log 2>&1 <<'PY' || exit 1
import sys, py_compile
import pyflakes, pyflakes.api
if pyflakes.__version__ != "3.2.0":
    sys.exit(3)
# the .pyc goes into the cwd, never beside the candidate
py_compile.compile(sys.argv[1], cfile="./hdd.pyc", doraise=True)
pyflakes.api.checkPath(sys.argv[1])
PY
grep -qF "local variable 'excinfo' is assigned to but never used" ./hdd-pyflakes.log
