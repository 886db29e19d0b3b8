#!/bin/sh
# kpath generalize as a robust command (issue #35): how a run that is not an
# answer is told apart from a "no", what is said about a sample the program
# does not accept, the --log streamed (kept on a rejected sample and on an
# interruption), the determinism check, long inputs logged as edits.
#
# The lattice tests/lattices/two-items.ebnf keeps the queries fixed: with
# the grammar S := "n=" "42" and the sample "n=42", by hand:
#   #1 n=42 (the sample); "n=" is in no item (nothing asked);
#   "42": digits #2 n=0, #3 n=1234567890; alnum #4 n=a1, #5 n=9Z, #6 n=x;
#   then, S := "n=" digits: omit both #7 "", omit "n=" #8 "42" (and, with
#   digits given another of its examples, "n=0" asked before as #2 and
#   #9 "0"), omit digits #10 "n=".
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(cd "$(dirname "$KPATH")" && pwd)/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
lat=tests/lattices/two-items.ebnf
g=tests/lattices/digits.ebnf
s=tests/lattices/digits.txt

# 1. Timeouts and crashes are not "no": the digits language, except that an
# input holding "a" hangs and one holding "Z" kills itself with SIGSEGV.
cat >"$tmp/wrap.sh" <<WRAP
#!/bin/sh
in=\$(cat)
case \$in in *a*) sleep 20;; *Z*) kill -SEGV \$\$;; esac
printf '%s' "\$in" | "$lang" digits
WRAP
chmod +x "$tmp/wrap.sh"
"$KPATH" generalize --lattice "$lat" "$g" "$s" -o "$tmp/1.ebnf" --timeout 400ms -j 2 \
    -- "$tmp/wrap.sh" >"$tmp/1.out" 2>"$tmp/1.err" || { cat "$tmp/1.err"; fail "1: exit status"; }
grep -qxF '    #4    timeout  "n=a1"' "$tmp/1.out" || fail "1: no timeout in the log"
grep -qxF '    #5    crash  "n=9Z"' "$tmp/1.out" || fail "1: no crash in the log"
grep -qxF '    #6    no   "n=x"' "$tmp/1.out" || fail "1: no rejection in the log"
tail -1 "$tmp/1.out" | grep -qxF \
    '10 queries (3 accepted, 1 timed out, 1 crashed), 1 asked again from memory, 1 change' ||
    fail "1: summary: $(tail -1 "$tmp/1.out")"
grep -qxF '#: string "42" -> digits (digits accepted, alnum rejected): queries accepted #2-#3; rejected #6; no answer #4-#5' \
    "$tmp/1.ebnf" || fail "1: the note does not tell the runs without answer apart"

# 2. An attempt whose only non-yes answers are timeouts is undecided: every
# input outside the language hangs.  alnum (#4-#6) and the three omissions
# (#7-#10; "n=0" is yes) are undecided: 4 attempts, 7 timeouts, and still
# not taken.
cat >"$tmp/hang.sh" <<WRAP
#!/bin/sh
in=\$(cat)
printf '%s' "\$in" | "$lang" digits || sleep 20
WRAP
chmod +x "$tmp/hang.sh"
"$KPATH" generalize --lattice "$lat" "$g" "$s" -o "$tmp/2.ebnf" --timeout 300ms -j 2 \
    -- "$tmp/hang.sh" >"$tmp/2.out" 2>"$tmp/2.err" || { cat "$tmp/2.err"; fail "2: exit status"; }
tail -1 "$tmp/2.out" | grep -qxF \
    '10 queries (3 accepted, 7 timed out), 1 asked again from memory, 1 change, 4 attempts undecided (timeouts or crashes only)' ||
    fail "2: summary: $(tail -1 "$tmp/2.out")"
[ "$(grep -c 'no answer; not taken' "$tmp/2.out")" = 4 ] || fail "2: not 4 undecided attempts"
printf '%s\n' 'S := "n=" digits;' 'digits := [0-9]+;' >"$tmp/want"
grep -v '^#' "$tmp/2.ebnf" | diff "$tmp/want" - || fail "2: grammar differs"

# 3. A sample the program does not accept: the outcome and stderr's first
# line, for a rejection, a timeout and a crash; the --log is written.
"$KPATH" generalize "$g" "$s" --log "$tmp/3.log" \
    -- sh -c 'echo "line 1: bad" >&2; echo second >&2; exit 3' >/dev/null 2>"$tmp/3.err"
[ $? = 2 ] || fail "3: a rejected sample is not exit status 2"
grep -qxF "$s: error: the program rejects this sample (exit:3; stderr: line 1: bad); every sample must be valid" \
    "$tmp/3.err" || { cat "$tmp/3.err"; fail "3: rejection without outcome or stderr"; }
grep -qxF '    #1    no   "n=42"' "$tmp/3.log" || fail "3: --log not written on a rejected sample"
"$KPATH" generalize "$g" "$s" --timeout 300ms -- sh -c 'sleep 20' >/dev/null 2>"$tmp/3t.err"
grep -qxF "$s: error: the program timed out on this sample (timeout); every sample must be valid" \
    "$tmp/3t.err" || { cat "$tmp/3t.err"; fail "3: a timed-out sample"; }
"$KPATH" generalize "$g" "$s" -- sh -c 'kill -SEGV $$' >/dev/null 2>"$tmp/3c.err"
grep -qxF "$s: error: the program crashed on this sample (signal:SIGSEGV); every sample must be valid" \
    "$tmp/3c.err" || { cat "$tmp/3c.err"; fail "3: a crashed sample"; }

# 4. Interrupted: what was logged so far stays in --log, no grammar.
cat >"$tmp/slow.sh" <<WRAP
#!/bin/sh
in=\$(cat)
sleep 0.3
printf '%s' "\$in" | "$lang" digits
WRAP
chmod +x "$tmp/slow.sh"
"$KPATH" generalize --lattice "$lat" "$g" "$s" -o "$tmp/4.ebnf" --log "$tmp/4.log" -j 1 \
    -- "$tmp/slow.sh" >/dev/null 2>"$tmp/4.err" &
pid=$!
i=0
while ! grep -q '=> all accepted' "$tmp/4.log" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -INT $pid
wait $pid
st=$?
[ $st = 130 ] || fail "4: interrupted, exit status $st"
grep -qxF '    #1    yes  "n=42"' "$tmp/4.log" || fail "4: the log was not kept"
[ ! -e "$tmp/4.ebnf" ] || fail "4: a grammar was written"

# 5. The determinism check: an oracle that says yes to its first run and no
# to its second (the sample asked again) is reported.
cat >"$tmp/flaky.sh" <<WRAP
#!/bin/sh
n=\$(cat "$tmp/count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$tmp/count"
[ \$n = 2 ] && exit 1
"$lang" digits
WRAP
chmod +x "$tmp/flaky.sh"
"$KPATH" generalize --lattice "$lat" "$g" "$s" -o "$tmp/5.ebnf" -j 1 -- "$tmp/flaky.sh" \
    >/dev/null 2>"$tmp/5.err" || { cat "$tmp/5.err"; fail "5: exit status"; }
grep -qF 'warning: the program is not deterministic: asked twice about "n=42", it answered yes, then no' \
    "$tmp/5.err" || { cat "$tmp/5.err"; fail "5: no determinism warning"; }
# a deterministic oracle: no warning
"$KPATH" generalize --lattice "$lat" "$g" "$s" -o "$tmp/5b.ebnf" -- "$lang" digits \
    >/dev/null 2>"$tmp/5b.err" || fail "5b: exit status"
! grep -q 'deterministic' "$tmp/5b.err" || fail "5b: a deterministic oracle was warned about"

# 6. A long input is logged as its edit of the sample, not whole: a sample
# of "n=" and 300 digits; with --no-strings, the single items go first
# (parts delimited by literals): #2 omits "n=" (300 bytes: logged as the
# edit), #3 the digits, #4 everything ("").
d=1234567890
printf 'n=%s' "$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d$d" >"$tmp/big.txt"
printf 'S := "n=" "%s";\n' "$(cut -c3- "$tmp/big.txt")" >"$tmp/big.ebnf"
"$KPATH" generalize --no-strings "$tmp/big.ebnf" "$tmp/big.txt" -o "$tmp/6.ebnf" \
    --log "$tmp/6.log" -- "$lang" digits >/dev/null 2>&1 || fail "6: exit status"
grep -qxF "    #2    no   $tmp/big.txt at 0: \"n=\" -> \"\"" "$tmp/6.log" ||
    { cat "$tmp/6.log"; fail "6: the long input is not logged as its edit"; }
grep -qxF "    #1    yes  $tmp/big.txt unchanged" "$tmp/6.log" || fail "6: the sample itself"
[ "$(wc -c <"$tmp/6.log")" -lt 1000 ] || fail "6: the log repeats the sample"
exit 0
