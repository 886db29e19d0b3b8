# kpath learn: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== learn-arith
$ kpath learn grammars/arith.ebnf tests/samples/learn/arith-1.txt
stdout:
| # Probabilities learned by kpath from 1 sample.
| # arith.ebnf: the classic textbook grammar of arithmetic expressions.
| #
| # What it shows: operator precedence encoded in three levels (Expr for + and
| # -, Term for * and /, Factor for unary signs and parentheses), left
| # recursion, and numbers built by right recursion (Int := Digit Int).
| # Compare with expr.ebnf, which says the same with groups and a quantifier:
| # the graphs, and so the k-paths to cover, differ.
| #
| # Every rule here is referenced (Factor refers back to Expr), so there is no
| # unreferenced rule to serve as start: kpath uses the first rule, Expr, as
| # yacc and ANTLR do.  The rules are kept exactly as in the textbook.
|
| #: counts: 2 1 0 of 3
| Expr := 66.667% Term | 33.333% Expr "+" Term | 0% Expr "-" Term;
| #: counts: 3 1 0 of 4
| Term := 75% Factor | 25% Term "*" Factor | 0% Term "/" Factor;
| #: counts: 3 0 0 1 of 4
| Factor := 75% Int | 0% "+" Factor | 0% "-" Factor | 25% "(" Expr ")";
| #: counts: 0 3 of 3
| Int := 0% Digit Int | 100% Digit;
| #: counts: 0 1 1 1 0 0 0 0 0 0 of 3
| Digit := 0% "0"
|        | 33.333% "1"
|        | 33.333% "2"
|        | 33.333% "3"
|        | 0% "4"
|        | 0% "5"
|        | 0% "6"
|        | 0% "7"
|        | 0% "8"
|        | 0% "9";
status: 0

=== learn-bad-sample
$ kpath learn grammars/arith.ebnf tests/samples/learn/arith-1.txt tests/samples/learn/arith-bad.txt -o /dev/null
stderr:
| kpath learn: /dev/null not written: not every sample could be learned from
| kpath learn: 1 of 2 samples could not be learned from:
| tests/samples/learn/arith-bad.txt:1:3: error: no parse: unexpected end of input; expected one of '(', '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'
status: 2

=== learn-grammar-and-sample-stdin
$ kpath learn - -
stderr:
| kpath learn: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath learn --help' for more information.
status: 2

=== learn-trees-beyond-64-bits
$ kpath learn tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/catalan-37.txt tests/samples/ambiguous/catalan-38.txt
stdout:
| # Probabilities learned by kpath from 2 samples (ambiguous ones counted by their first tree).
| # S := S S | "a": n characters have Catalan(n-1) parse trees.
| #: counts: 73 75 of 148
| S := 49.324% S S | 50.676% "a";
stderr:
| tests/samples/ambiguous/catalan-37.txt: ambiguous (11959798385860453492 trees); counted its first tree
| tests/samples/ambiguous/catalan-38.txt: ambiguous (more than 2^64 trees); counted its first tree
status: 0
