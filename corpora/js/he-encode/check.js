// Behavioural oracle. Runs the candidate (he.js, or what is left of it) in a
// fresh node vm context that provides CommonJS `module`/`exports` and nothing
// else (no require, no process), takes the library from module.exports (or the
// global `he` the library falls back to), calls
//     he.encode('a < b & "c" \u00A9 \uD834\uDF06')
// and exits 0 iff the result is exactly
//     'a &#x3C; b &#x26; &#x22;c&#x22; &#xA9; &#x1D306;'
// (he's default encoding: unsafe ASCII, non-ASCII BMP and astral symbols all
// as hexadecimal character references).
'use strict';
const fs = require('fs');
const vm = require('vm');

const file = process.argv[2];
const src = fs.readFileSync(file, 'utf8');
const INPUT = 'a < b & "c" \u00A9 \uD834\uDF06';
const EXPECTED = 'a &#x3C; b &#x26; &#x22;c&#x22; &#xA9; &#x1D306;';
const ctx = { module: { exports: {} }, __input: INPUT };
ctx.exports = ctx.module.exports;
vm.createContext(ctx);
let result;
try {
  new vm.Script(src, { filename: file }).runInContext(ctx, { timeout: 2000 });
  result = vm.runInContext(
    "var __he = module.exports && typeof module.exports.encode == 'function' ? module.exports : this.he;" +
      ' __he.encode(__input)',
    ctx,
    { timeout: 2000 },
  );
} catch (e) {
  process.stdout.write('threw: ' + String(e && e.message) + '\n');
  process.exit(1);
}
process.stdout.write('result: ' + JSON.stringify(result) + '\n');
process.exit(result === EXPECTED ? 0 : 1);
