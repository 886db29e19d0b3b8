# kpath before any command (--version, a command that does not exist):
# golden cases, run by tests/cli/run.sh, which describes this format.

=== usage-unknown-command
$ kpath frobnicate grammars/expr.ebnf
stderr:
| kpath: unknown command 'frobnicate'
| Try 'kpath --help' for the list of commands.
status: 2

=== version
$ kpath --version
stdout:
| kpath 0.1.0
status: 0
