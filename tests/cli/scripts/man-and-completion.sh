#!/bin/sh
# The manual page and the shell completion come from the tables of --help:
# every command, every option of every command and every explorer key is in
# the man page; groff finds nothing to warn about; the bash completion
# completes commands, a command's options and rule names after --start.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$KPATH" --man >"$tmp/kpath.1" || fail "--man: exit status $?"
head -2 "$tmp/kpath.1" | grep -q '^\.TH KPATH 1 ' || fail "no .TH line"
commands=$("$KPATH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$commands" ] || fail "no commands in --help"
for c in $commands; do
    # roff writes a name's dashes as \- (check-oracle: check\-oracle)
    cm=$(printf '%s' "$c" | sed 's/-/\\\\-/g')
    grep -q "^\.SS \"kpath $cm " "$tmp/kpath.1" || fail "man: no section for $c"
    # every option of the command's --help, as the man page writes it
    "$KPATH" "$c" --help | sed -n 's/^  *\(-[a-zA-Z0-9], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p' | while read -r o; do
        [ "$o" = help ] && continue
        m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -- "\\\\-\\\\-$m" "$tmp/kpath.1" || fail "man: $c: no --$o"
    done || exit 1
done
# the explorer's keys: each help text of the key table
"$KPATH" --list-keys | cut -f3 | head -5 | while read -r text; do
    w=$(printf '%s' "$text" | awk '{ print $1, $2 }')
    grep -qF -- "$w" "$tmp/kpath.1" || fail "man: no key '$text'"
done || exit 1
grep -q '^\.SS "Commands (type : first)"' "$tmp/kpath.1" || fail "man: no : commands"
# every section heading is one line, its quotes closed (run's usage has three
# forms: the first heads the section, the other two follow, one a line)
grep '^\.SS "' "$tmp/kpath.1" | grep -v '"$' | head -1 | grep -q . &&
    fail "man: a heading is cut: $(grep '^\.SS "' "$tmp/kpath.1" | grep -v '"$' | head -1)"
grep -qx '\.SS "kpath run \[options\] GRAMMAR INPUT|DIR\.\.\. \\-\\- COMMAND \[ARG\.\.\.\]"' "$tmp/kpath.1" ||
    fail "man: no heading for run's first form"
grep -qxF '\fBkpath run \-\-report RESULTS [\-k K] [GRAMMAR]\fR' "$tmp/kpath.1" ||
    fail "man: no line for kpath run --report"
grep -qxF '\fBkpath run \-\-merge \-\-results OUT RESULTS...\fR' "$tmp/kpath.1" ||
    fail "man: no line for kpath run --merge"
if command -v groff >/dev/null 2>&1; then
    groff -ww -z -man "$tmp/kpath.1" 2>"$tmp/groff" || fail "groff failed"
    [ -s "$tmp/groff" ] && { cat "$tmp/groff"; fail "groff warnings"; }
fi

"$KPATH" --completion fish >/dev/null 2>"$tmp/err" && fail "--completion fish accepted"
grep -q 'takes bash or zsh' "$tmp/err" || fail "--completion fish: no message"
"$KPATH" --completion zsh >"$tmp/_kpath" || fail "--completion zsh"
head -1 "$tmp/_kpath" | grep -qx '#compdef kpath' || fail "zsh: no #compdef"
if command -v zsh >/dev/null 2>&1; then zsh -n "$tmp/_kpath" || fail "zsh -n"; fi
"$KPATH" --completion bash >"$tmp/kpath.bash" || fail "--completion bash"
command -v bash >/dev/null 2>&1 || exit 0
bash -n "$tmp/kpath.bash" || fail "bash -n"
# complete WORDS...: what the bash completion offers for the last word
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kpath; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$tmp/kpath.bash" "$@"
}
complete_words kpath co | grep -qx coverage || fail "bash: 'co' does not offer coverage"
complete_words kpath co | grep -qx cover || fail "bash: 'co' does not offer cover"
complete_words kpath gen --max-d | grep -qx -- --max-depth || fail "bash: gen --max-d"
complete_words kpath info --start Mu grammars/expr.ebnf >/dev/null
complete_words kpath info grammars/expr.ebnf --start Mu | grep -qx MultExpr ||
    fail "bash: rule names after --start"
complete_words kpath grammars/ex | grep -qx grammars/expr.ebnf || fail "bash: grammar files"
exit 0
