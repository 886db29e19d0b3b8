#!/bin/sh
# The program under test of fractions.jsonl: exit status 1 when the JSON
# text on standard input has a number with a fraction (a digit, ".", a digit).
if grep -q '[0-9]\.[0-9]'; then exit 1; fi
exit 0
