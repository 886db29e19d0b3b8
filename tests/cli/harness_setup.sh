# Sourced by the tests/cli/scripts/run-harness*.sh scripts (run from the
# repository root): what each needs before its first run of a libFuzzer
# harness.  Skips the script, saying so, without clang (make deps installs
# it); otherwise sets fail, $tmp (removed on exit), a build cache of its own
# under it (so a test never reuses a harness built by another) and
# $h, the test harness.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! command -v clang >/dev/null 2>&1; then
    echo "skipped: no clang (kpath run --harness builds with clang; make deps installs it)" >&2
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export KPATH_HARNESS_CACHE="$tmp/cache"
h=tests/subjects/harness_list.c
