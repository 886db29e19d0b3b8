# kpath dup: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== dup-alternative-out-of-range
$ kpath dup tests/grammars/contexts/numbers.ebnf '<factor>' 6
stderr:
| tests/grammars/contexts/numbers.ebnf:13:1: error: rule '<factor>' has 5 alternatives; there is no alternative 6
status: 2

=== dup-bad-alternative
$ kpath dup tests/grammars/contexts/numbers.ebnf '<factor>' 0
stderr:
| kpath dup: ALTERNATIVE must be a whole number from 1 to 4294967294, not '0'
| Try 'kpath dup --help' for more information.
status: 2

=== dup-bad-depth
$ kpath dup --depth 0 tests/grammars/contexts/numbers.ebnf '<factor>' 4
stderr:
| kpath dup: --depth must be a whole number from 1 to 4294967294, not '0'
| Try 'kpath dup --help' for more information.
status: 2

=== dup-every-alternative
$ kpath dup tests/grammars/contexts/numbers.ebnf '<integer>'
stdout:
| # numbers.ebnf: the arithmetic grammar of the `kpath dup` example.
| #
| # What it shows: <integer> is used in three places of <factor> (a whole
| # number, and the whole and fractional parts of a decimal), but the grammar
| # graph has one <integer> node, so k-path coverage cannot tell them apart.
| # `kpath dup numbers.ebnf '<factor>' 4` gives each place its own copy.
|
| <start> ::= <expr>;
| <expr> ::= <term> " + " <expr> | <term> " - " <expr> | <term>;
| <term> ::= <factor> " * " <term> | <factor> " / " <term> | <factor>;
|
| # Unary signs, parentheses, decimals and integers.
| <factor> ::= "+" <factor> | "-" <factor> | "(" <expr> ")" | <integer> "." <integer> | <integer>;
| <integer> ::= <digit-1> <integer-1> | <digit-4>;
| <integer-1> ::= <digit-2> <integer-1> | <digit-3>;
| <digit-1> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-2> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-3> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-4> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
status: 0

=== dup-expr-removes-rules
$ kpath dup grammars/expr.ebnf UnaryExpr 7
stdout:
| # expr.ebnf: arithmetic expressions, the running example of the k-path paper.
| #
| # What it shows: a small but realistic expression grammar with left
| # recursion, unary operators, parentheses and multi-digit numbers.  Its
| # grammar graph reproduces the node numbering of the paper, so 1-path and
| # 2-path counts can be compared with it directly (39 1-paths, 125 2-paths).
| # Do not add, remove or reorder rules: that would change the numbering.
|
| Expr := AddExpr;
| AddExpr := MultExpr | AddExpr ("+" | "-") MultExpr;
| MultExpr := UnaryExpr | MultExpr ("*" | "/" | "%") UnaryExpr;
| UnaryExpr := Identifier
|            | "+" UnaryExpr
|            | "-" UnaryExpr
|            | "++" UnaryExpr
|            | "--" UnaryExpr
|            | "(" AddExpr ")"
|            | DecDigits-1;
| DecDigits-1 := DecDigit-1+;
| DecDigit-1 := "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| Identifier := "x" | "y" | "z";
status: 0

=== dup-json
$ kpath dup --json --depth 1 tests/grammars/contexts/numbers.ebnf '<factor>' 4
stdout:
| {"rule": "<factor>", "alternative": 4, "new_rules": ["<integer-1>", "<integer-2>"], "removed_rules": [], "output": null, "grammar": "# numbers.ebnf: the arithmetic grammar of the `kpath dup` example.\n#\n# What it shows: <integer> is used in three places of <factor> (a whole\n# number, and the whole and fractional parts of a decimal), but the grammar\n# graph has one <integer> node, so k-path coverage cannot tell them apart.\n# `kpath dup numbers.ebnf '<factor>' 4` gives each place its own copy.\n\n<start> ::= <expr>;\n<expr> ::= <term> \" + \" <expr> | <term> \" - \" <expr> | <term>;\n<term> ::= <factor> \" * \" <term> | <factor> \" / \" <term> | <factor>;\n\n# Unary signs, parentheses, decimals and integers.\n<factor> ::= \"+\" <factor>\n           | \"-\" <factor>\n           | \"(\" <expr> \")\"\n           | <integer-1> \".\" <integer-2>\n           | <integer>;\n<integer> ::= <digit> <integer> | <digit>;\n<integer-1> ::= <digit> <integer-1> | <digit>;\n<integer-2> ::= <digit> <integer-2> | <digit>;\n<digit> ::= \"0\" | \"1\" | \"2\" | \"3\" | \"4\" | \"5\" | \"6\" | \"7\" | \"8\" | \"9\";\n"}
status: 0

=== dup-missing-rule
$ kpath dup tests/grammars/contexts/numbers.ebnf
stderr:
| kpath dup: missing RULE [ALTERNATIVE] after GRAMMAR
| Try 'kpath dup --help' for more information.
status: 2

=== dup-nothing-to-duplicate
$ kpath dup tests/grammars/contexts/numbers.ebnf '<digit>' 3
stderr:
| tests/grammars/contexts/numbers.ebnf:15:25: error: alternative 3 of rule '<digit>' has no references: nothing to duplicate
status: 2

=== dup-numbers-decimal
$ kpath dup tests/grammars/contexts/numbers.ebnf '<factor>' 4
stdout:
| # numbers.ebnf: the arithmetic grammar of the `kpath dup` example.
| #
| # What it shows: <integer> is used in three places of <factor> (a whole
| # number, and the whole and fractional parts of a decimal), but the grammar
| # graph has one <integer> node, so k-path coverage cannot tell them apart.
| # `kpath dup numbers.ebnf '<factor>' 4` gives each place its own copy.
|
| <start> ::= <expr>;
| <expr> ::= <term> " + " <expr> | <term> " - " <expr> | <term>;
| <term> ::= <factor> " * " <term> | <factor> " / " <term> | <factor>;
|
| # Unary signs, parentheses, decimals and integers.
| <factor> ::= "+" <factor>
|            | "-" <factor>
|            | "(" <expr> ")"
|            | <integer-1> "." <integer-2>
|            | <integer>;
| <integer> ::= <digit> <integer> | <digit>;
| <integer-1> ::= <digit-1> <integer-1> | <digit-2>;
| <integer-2> ::= <digit-3> <integer-2> | <digit-4>;
| <digit> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-1> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-2> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-3> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
| <digit-4> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
status: 0

=== dup-numbers-depth-1
$ kpath dup --depth 1 tests/grammars/contexts/numbers.ebnf '<factor>' 4
stdout:
| # numbers.ebnf: the arithmetic grammar of the `kpath dup` example.
| #
| # What it shows: <integer> is used in three places of <factor> (a whole
| # number, and the whole and fractional parts of a decimal), but the grammar
| # graph has one <integer> node, so k-path coverage cannot tell them apart.
| # `kpath dup numbers.ebnf '<factor>' 4` gives each place its own copy.
|
| <start> ::= <expr>;
| <expr> ::= <term> " + " <expr> | <term> " - " <expr> | <term>;
| <term> ::= <factor> " * " <term> | <factor> " / " <term> | <factor>;
|
| # Unary signs, parentheses, decimals and integers.
| <factor> ::= "+" <factor>
|            | "-" <factor>
|            | "(" <expr> ")"
|            | <integer-1> "." <integer-2>
|            | <integer>;
| <integer> ::= <digit> <integer> | <digit>;
| <integer-1> ::= <digit> <integer-1> | <digit>;
| <integer-2> ::= <digit> <integer-2> | <digit>;
| <digit> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
status: 0

=== dup-too-many
$ kpath dup --max-new-rules 5 tests/grammars/contexts/numbers.ebnf '<factor>' 4
stderr:
| tests/grammars/contexts/numbers.ebnf:13:1: error: duplicating rule '<factor>' would make more than 5 copies; limit the levels of copies with a depth
status: 2

=== dup-unknown-rule
$ kpath dup tests/grammars/contexts/numbers.ebnf '<number>' 1
stderr:
| tests/grammars/contexts/numbers.ebnf: error: no rule '<number>' in the grammar
status: 2

=== dup-write-failure
$ kpath dup -o tests/grammars/contexts/no-such-dir/out.ebnf tests/grammars/contexts/numbers.ebnf '<factor>' 4
stderr:
| tests/grammars/contexts/no-such-dir/out.ebnf: error: cannot write: No such file or directory
status: 1
