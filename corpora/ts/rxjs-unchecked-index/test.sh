#!/usr/bin/env bash
# hdd oracle: tsc 5.9.3 under --strict --noUncheckedIndexedAccess reports
# that combineLatestInit passes `observables[i]`, possibly undefined, to
# `from` (TS2345), and nothing else: the candidate type checks otherwise,
# against rxjs 7.8.1's own declarations in place of the modules it imports.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
here=$(cd "$(dirname "$0")" && pwd)
nm=${HDD_NODE_MODULES:-$here/../node_modules}
grep -qx '  "version": "7.8.1",' "$nm/rxjs/package.json" 2>/dev/null || exit 2
[ "$(tsc --version 2>/dev/null)" = "Version 5.9.3" ] || exit 2
# The file's place in rxjs's tree, and rootDirs to read the directory it
# imports from (`../Observable`, `./from`) as rxjs's declaration files.
mkdir -p internal/observable
cp "$f" internal/observable/combineLatest.ts
cat >tsconfig.json <<JSON
{
  "compilerOptions": {
    "noEmit": true, "skipLibCheck": true, "strict": true,
    "noUncheckedIndexedAccess": true, "target": "es2022", "lib": ["es2022"],
    "types": [], "rootDirs": ["$PWD/internal", "$nm/rxjs/dist/types/internal"]
  },
  "files": ["internal/observable/combineLatest.ts"]
}
JSON
timeout 60 tsc -p . >./hdd-tsc.log 2>&1
[ $? -le 2 ] || exit 1
msg="error TS2345: Argument of type 'ObservableInput<any> | undefined' is not assignable to parameter of type 'ObservableInput<any>'."
grep -qF "$msg" ./hdd-tsc.log || exit 1
! grep 'error TS' ./hdd-tsc.log | grep -qvF "$msg"
