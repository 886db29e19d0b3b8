#!/bin/sh
# A program under test that writes terminal controls: an OSC that would set
# the window title (ESC ] 0 ; ... BEL) on stderr, a C1 CSI (U+009B, "clear
# the screen" with 2J) and a BOM on stdout.  tests/tui/cases/detail-escape.
printf '\033]0;pwned\007 title\n' >&2
printf '\302\2332J\357\273\277 out\n'
