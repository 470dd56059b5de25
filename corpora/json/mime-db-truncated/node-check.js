// Exit 0 iff node's JSON.parse rejects the candidate with
// "Unterminated string in JSON at position N" where N is the length of the
// input (in UTF-16 code units), i.e. the input ends inside a string.
// (node 22+ appends " (line L column C)"; that suffix is accepted.)
'use strict';
const text = require('fs').readFileSync(process.argv[2], 'utf8');
try {
  JSON.parse(text);
} catch (e) {
  process.stdout.write('node: ' + e.message + '\n');
  const m = /^Unterminated string in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(e.message);
  process.exit(m && Number(m[1]) === text.length ? 0 : 1);
}
process.stdout.write('node: parsed\n');
process.exit(1);
