// Loads the candidate as jsonparse's module and feeds it `[01]`, which
// JSON.parse refuses (a number has no leading zero): interesting iff the
// parser's one top-level value is the array holding the string "01" (its
// number path gives back the text of a number that does not read back).
'use strict';
const Parser = require(process.argv[2]);
const parser = new Parser();
const values = [];
parser.onValue = function (value) {
  if (this.stack.length === 0) values.push(value);
};
parser.onError = function (err) {
  throw err;
};
parser.write('[01]');
process.exit(JSON.stringify(values) === '[["01"]]' ? 0 : 1);
