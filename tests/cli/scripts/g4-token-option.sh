#!/bin/sh
# --token NAME=DEF: a token that an ANTLR grammar declares in tokens { }
# and its actions emit (Python's INDENT and DEDENT), or a token rule whose
# meaning is in an action (Lua's COMMENT with HandleComment), supplied by
# the user in ANTLR's lexer syntax.  An empty DEF is a token without text,
# read between any two tokens; a replaced rule keeps its place among the
# lexer rules (the earlier rule wins a tie, as in ANTLR).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/P.g4" <<'G'
grammar P;
tokens { INDENT, DEDENT }
file : stmt* EOF ;
stmt : 'pass' NL | 'if' ID ':' NL INDENT stmt+ DEDENT ;
ID : [a-z]+ ;
NL : '\n' ' '* ;
WS : ' '+ -> skip ;
G
# Without the option: the declared tokens are an error, said once.
"$KPATH" info "$tmp/P.g4" >/dev/null 2>"$tmp/err" && fail "P loads without --token"
grep -q "token 'INDENT' is declared in tokens" "$tmp/err" || fail "no tokens{} error: $(cat "$tmp/err")"
# With them: tokens if x : NL('\n  ') pass NL('\n') pass NL; INDENT after
# the first NL, DEDENT before the last pass.
printf 'if x:\n  pass\npass\n' >"$tmp/ok.py"
"$KPATH" parse --symbolic --token INDENT= --token DEDENT= "$tmp/P.g4" "$tmp/ok.py" \
    >"$tmp/out" 2>"$tmp/err" || fail "ok.py: $(cat "$tmp/err")"
[ "$(grep -c 'INDENT_' "$tmp/out")" = 1 ] || fail "INDENT: $(cat "$tmp/out")"
[ "$(grep -c 'DEDENT_' "$tmp/out")" = 1 ] || fail "DEDENT: $(cat "$tmp/out")"
[ "$(grep -c '"pass"_' "$tmp/out")" = 2 ] || fail "pass: $(cat "$tmp/out")"
# A block with no statement is still wrong.
printf 'if x:\n' >"$tmp/bad.py"
"$KPATH" parse --token INDENT= --token DEDENT= "$tmp/P.g4" "$tmp/bad.py" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "bad.py parses"
grep -q 'no parse' "$tmp/err" || fail "bad.py: $(cat "$tmp/err")"

# A rule whose meaning is in an action: COMMENT reads only '--' here, and
# '[[' is no token; replaced by a long comment, hidden.
cat >"$tmp/L.g4" <<'G'
grammar L;
s : ID* EOF ;
ID : [a-z]+ ;
COMMENT : '--' { this.HandleComment(); } -> channel(HIDDEN) ;
WS : [ \n]+ -> skip ;
G
printf 'a --[[ b\nc ]] d\n' >"$tmp/c.lua"
"$KPATH" parse "$tmp/L.g4" "$tmp/c.lua" >/dev/null 2>"$tmp/err" && fail "c.lua parses without --token"
grep -q "c.lua:1:5: error: no token matches here: '\[\[ b'" "$tmp/err" || fail "c.lua: $(cat "$tmp/err")"
"$KPATH" parse --symbolic --token "COMMENT='--[[' .*? ']]' -> channel(HIDDEN)" "$tmp/L.g4" \
    "$tmp/c.lua" >"$tmp/out" 2>"$tmp/err" || fail "c.lua with --token: $(cat "$tmp/err")"
[ "$(grep -c ' ID_' "$tmp/out")" = 2 ] || fail "IDs a, d: $(cat "$tmp/out")"

# The replaced rule keeps its place: before ID, it wins the tie on 'ab'
# (skipped, no ID); a new token comes after every rule (ID wins).
cat >"$tmp/K.g4" <<'G'
grammar K;
s : ID* EOF ;
X : '#' ;
ID : [a-z]+ ;
WS : ' '+ -> skip ;
G
printf 'ab cd' >"$tmp/k.txt"
"$KPATH" parse --symbolic --token 'X=[a-z]+ -> skip' "$tmp/K.g4" "$tmp/k.txt" >"$tmp/out" 2>"$tmp/err" ||
    fail "K, X replaced: $(cat "$tmp/err")"
[ "$(grep -c ' ID_' "$tmp/out")" = 0 ] || fail "X replaced is not before ID: $(cat "$tmp/out")"
"$KPATH" parse --symbolic --token 'Y=[a-z]+ -> skip' "$tmp/K.g4" "$tmp/k.txt" >"$tmp/out" 2>"$tmp/err" ||
    fail "K, Y new: $(cat "$tmp/err")"
[ "$(grep -c ' ID_' "$tmp/out")" = 2 ] || fail "Y new is not after ID: $(cat "$tmp/out")"

# Bad definitions: an error at the option, exit status 2 (a usage error).
"$KPATH" info --token 'lower=x' "$tmp/K.g4" >/dev/null 2>"$tmp/err" && fail "lower=x accepted"
grep -q "^--token:1:1: error: expected NAME=DEFINITION, NAME a token name (a capital first), not 'lower=x'$" "$tmp/err" ||
    fail "lower=x: $(cat "$tmp/err")"
"$KPATH" info --token "Z=( 'a'" "$tmp/K.g4" >/dev/null 2>"$tmp/err" && fail "unclosed ( accepted"
grep -q "^--token:" "$tmp/err" || fail "unclosed (: $(cat "$tmp/err")"
exit 0
