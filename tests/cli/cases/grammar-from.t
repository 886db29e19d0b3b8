# kpath grammar-from: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== grammar-from-missing-sample
$ kpath grammar-from tests/lattices/missing.txt
stderr:
| tests/lattices/missing.txt: error: cannot read: No such file or directory
status: 2

=== grammar-from-no-sample
$ kpath grammar-from
stderr:
| kpath grammar-from: missing SAMPLE
| Try 'kpath grammar-from --help' for more information.
status: 2

=== grammar-from-not-utf8
$ kpath grammar-from tests/lattices/not-utf8.txt
stderr:
| tests/lattices/not-utf8.txt:2:3: error: invalid UTF-8 byte 0xFF
status: 2

=== grammar-from-stdin-twice
$ kpath grammar-from - -
stderr:
| kpath grammar-from: '-' (standard input) can be given only once
| Try 'kpath grammar-from --help' for more information.
status: 2
