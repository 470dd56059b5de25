// Exit 0 iff
//  1. node (V8) compiles the candidate as a CommonJS module body, exactly as
//     node's CommonJS loader wraps it (vm.compileFunction with the wrapper's
//     parameters); and
//  2. esprima 4.0.1's parseScript rejects it, its FIRST error being
//     "Unexpected token ." at a '.' that directly follows a '?', i.e. at an
//     optional chain `a?.b` (ES2020), which esprima 4.0.1 predates.
// esprima is loaded from $HDD_NODE_MODULES (default: ../node_modules).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const nm = process.env.HDD_NODE_MODULES || path.join(__dirname, '..', 'node_modules');
const esprima = require(path.join(nm, 'esprima'));
if (esprima.version !== '4.0.1') {
  process.stdout.write('wrong esprima version ' + esprima.version + '\n');
  process.exit(3);
}
const file = process.argv[2];
const src = fs.readFileSync(file, 'utf8');
try {
  vm.compileFunction(src, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
} catch (e) {
  process.stdout.write('node: ' + e.message + '\n');
  process.exit(1);
}
try {
  esprima.parseScript(src);
} catch (e) {
  process.stdout.write('esprima: ' + e.message + ' (index ' + e.index + ')\n');
  const ok = e.description === 'Unexpected token .' && src[e.index] === '.' && src[e.index - 1] === '?';
  process.exit(ok ? 0 : 1);
}
process.stdout.write('esprima: parsed\n');
process.exit(1);
