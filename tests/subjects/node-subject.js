// node-subject: a Node.js program under test for `kpath run --node-coverage`
// (tests/cli/scripts/run-node-coverage.sh).  It reads an arithmetic
// expression on standard input; sum() runs only when it has a '+', product()
// only when it has a '*', and neverCalled() never.
'use strict';
function sum(text) { return text.split('+').length - 1; }
function product(text) { return text.split('*').length - 1; }
function neverCalled() { return 0; }
function main() {
  const text = require('fs').readFileSync(0, 'utf8');
  let n = 0;
  if (text.includes('+')) n += sum(text);
  if (text.includes('*')) n += product(text);
  console.log(n);
}
main();
