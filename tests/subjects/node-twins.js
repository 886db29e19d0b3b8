// node-twins: a Node.js program under test whose functions share names
// (tests/cli/scripts/run-node-same-names.sh).  Two objects have a start()
// each: a '+' in the input runs adder.start (line 10), a '*' runs
// multiplier.start (line 14); every input runs main and adder.end (line 11).
// Another end() (line 20) is nested in a function that never runs: V8
// reports it in no run, yet adder.end is not the only end of the program.
'use strict';
const adder = {
  count: 0,
  start() { this.count++; },
  end() { return this.count; },
};
const multiplier = {
  start() { return 2; },
};
function neverCalled() {
  const inner = {
    // no run reaches this
    begin() { return 4; },
    end() { return 5; },
  };
  return inner.begin() + inner.end();
}
function main() {
  const text = require('fs').readFileSync(0, 'utf8');
  if (text.includes('+')) adder.start();
  if (text.includes('*')) multiplier.start();
  console.log(adder.end());
}
main();
