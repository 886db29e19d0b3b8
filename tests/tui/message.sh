# Sourced by the .check scripts (`. tests/tui/message.sh`): the message
# line of a :dump, whole.  A message longer than the screen's width wraps
# into the row above the bottom one, over the status bar (draw.c); so the
# message is the bottom row, after the row above it when that row is not
# the status bar (which shows the grammar, then " │ k=").  Rows are joined
# by a blank (the message broke at one).
message() {
    grep -v '^-- ' "$1" | tail -2 | {
        IFS= read -r above
        IFS= read -r bottom
        case $above in
        *' │ k='* | *' | k='*) printf '%s\n' "$bottom" ;;
        *) printf '%s %s\n' "$above" "$bottom" ;;
        esac
    }
}
