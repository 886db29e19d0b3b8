// The URL oracle of tests/bench/generalize_oracles.sh (issue #35): Node's
// WHATWG URL parser, strict and lower-case.
//   node url_oracle.js             one input on stdin: exit 0 valid, 1 not
//   node url_oracle.js --count F.. print how many of the files are valid
//   node url_oracle.js --valid F.. print the valid files' names
// Valid: new URL(input) succeeds, the URL has a host, and the input is one the
// parser takes as written, without repairs: printable ASCII only (no spaces,
// tabs or newlines, which the parser strips or drops), no backslash (read as
// "/" in special schemes) and no upper-case letter (scheme and host would be
// folded to lower case).
'use strict';
const fs = require('fs');

function valid(text) {
    if (!/^[\x21-\x7e]+$/.test(text) || /[A-Z\\]/.test(text))
        return false;
    try {
        return new URL(text).host !== '';
    } catch (e) {
        return false;
    }
}

function read(path) {
    const buf = fs.readFileSync(path);
    const text = buf.toString('utf8');
    return Buffer.from(text, 'utf8').equals(buf) ? text : null;
}

const args = process.argv.slice(2);
if (args[0] === '--count' || args[0] === '--valid') {
    let n = 0;
    for (const path of args.slice(1)) {
        const text = read(path);
        if (text !== null && valid(text)) {
            n++;
            if (args[0] === '--valid')
                console.log(path);
        }
    }
    if (args[0] === '--count')
        console.log(n);
    process.exit(0);
}
const text = read(0);
process.exit(text !== null && valid(text) ? 0 : 1);
