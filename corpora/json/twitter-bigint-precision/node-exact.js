// Parse the candidate with node's JSON.parse and print the parsed value back
// as JSON, writing every integer-valued number whose magnitude is above 2^53
// with its EXACT decimal value (BigInt), so that the double node actually
// holds is visible. Exit 1 if JSON.parse rejects the input.
'use strict';
const fs = require('fs');
let value;
try {
  value = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
} catch (e) {
  process.stdout.write('node: ' + e.message + '\n');
  process.exit(1);
}
const LIMIT = 2 ** 53;
function ser(v) {
  if (typeof v === 'number') {
    return Number.isInteger(v) && Math.abs(v) > LIMIT ? BigInt(v).toString() : JSON.stringify(v);
  }
  if (Array.isArray(v)) return '[' + v.map(ser).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ':' + ser(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}
fs.writeFileSync(process.argv[3], ser(value));
