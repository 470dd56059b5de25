// hdd oracle helper: compiles the file named by argv[2] with the solc of
// $HDD_NODE_MODULES (or ../node_modules) through the standard JSON
// interface, analysis only, and exits 0 when there is no error and a
// warning says the `memory-safe-assembly` special comment is deprecated;
// 1 otherwise, 2 when solc is not 0.8.37. Prints nothing.
'use strict';
const fs = require('fs');
const path = require('path');
const nm = process.env.HDD_NODE_MODULES || path.join(__dirname, '..', 'node_modules');
const solc = require(path.join(nm, 'solc'));
if (!solc.version().startsWith('0.8.37+')) process.exit(2);
const input = {
  language: 'Solidity',
  sources: { 'Base64.sol': { content: fs.readFileSync(process.argv[2], 'utf8') } },
  settings: { outputSelection: { '*': { '': ['ast'] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = out.errors || [];
const bad = errors.some((e) => e.severity === 'error');
const found = errors.some(
  (e) =>
    e.severity === 'warning' &&
    e.message.startsWith(
      'Natspec memory-safe-assembly special comment for inline assembly is deprecated',
    ),
);
process.exit(!bad && found ? 0 : 1);
