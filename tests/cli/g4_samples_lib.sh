# Sourced by the tests/cli/scripts/g4-*.sh scripts that check how kpath
# reads samples of an ANTLR grammar (run from the repository root).  Sets
# fail and $tmp (removed on exit), and defines
#   accepted TEXT...            each TEXT (printf format) parses with $g;
#   bad TEXT WHERE MESSAGE      TEXT is rejected with exactly
#                               FILE:WHERE: error: MESSAGE, WHERE line:col;
# both read the grammar named by $g, which the script sets (and may change
# between calls).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
accepted() {
    for text in "$@"; do
        printf "$text" >"$tmp/s"
        "$KPATH" parse "$g" "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'$text' rejected: $(cat "$tmp/err")"
    done
}
bad() {
    printf "$1" >"$tmp/s"
    if "$KPATH" parse "$g" "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'$1' accepted"; fi
    grep -qxF "$tmp/s:$2: error: $3" "$tmp/err" ||
        fail "'$1': expected '$2: error: $3', got: $(cat "$tmp/err")"
}
