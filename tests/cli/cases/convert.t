# kpath convert: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== convert-fandango
$ kpath convert tests/grammars/formats/calc.fan
stdout:
| <start> := <expr> ("\n" <expr>)*;
| <expr> := <term> ([*+\-] <term>)* | "-" <expr>;
| <term> := <num> | "(" <expr> ")";
| <num> := <digit>+ ("." <digit>{1,3})?;
| <digit> := [0-9];
stderr:
| tests/grammars/formats/calc.fan:7:1: warning: 1 constraint is ignored: kpath reads the grammar only
status: 0

=== convert-fandango-include
$ kpath convert tests/grammars/formats/fan-main.fan
stdout:
| <start> := <number> ("," <number>)*;
| <number> := "-"? <digit>+;
| <digit> := [0-9];
stderr:
| tests/grammars/formats/fan-main.fan:4:1: warning: rule '<number>' is defined again: this definition replaces the one at tests/grammars/formats/fan-lib.fan:3:1, as in Fandango
status: 0

=== convert-fuzzingbook-error-in-lexer-file
$ kpath convert --to fuzzingbook tests/grammars/formats/CalcParser.g4
stderr:
| tests/grammars/formats/CalcLexer.g4:12:16: error: class [\u{0}-\u{10FFFF}] of rule 'COMMENT' has 1112064 characters: fuzzingbook lists each expansion, and kpath writes at most 256
status: 2

=== convert-fuzzingbook-huge-repetition
$ kpath convert --to fuzzingbook tests/grammars/ok/huge-repetition.ebnf
stderr:
| tests/grammars/ok/huge-repetition.ebnf:2:9: error: fuzzingbook has no counted repetition, and {4294967294} in rule 'Body' written out is 4294967294 copies of its item: kpath writes at most 100000
status: 2

=== convert-g4-copies
$ kpath convert --to g4 tests/grammars/ok/copies.ebnf
stdout:
| grammar Copies;
|
| start
|     : A B C
|     ;
|
| A
|     : 'a' 'a' ('a')? 'b' 'b'+
|     ;
|
| B
|     : (('b' | 'c') (('b' | 'c'))?)? '_'?
|     ;
|
| C
|     : 'x'
|     | ('y' 'z') (('y' 'z'))?
|     ;
stderr:
| tests/grammars/ok/copies.ebnf:2:6: warning: ANTLR has no counted repetition: rule 'A' writes it out, which changes its graph
| tests/grammars/ok/copies.ebnf:5:1: warning: ANTLR has no probabilities: the weights of rule 'C' and any other are left out
status: 0

=== convert-g4-empty-literal
$ kpath convert --to g4 tests/grammars/ok/empty-literal.ebnf
stdout:
| grammar Empty_literal_ebnf;
|
| list
|     : '[' item ']'
|     | 
|     ;
|
| item
|     : 'a'
|     | 'b'
|     ;
stderr:
| tests/grammars/ok/empty-literal.ebnf:3:18: warning: ANTLR has no empty literal: rule 'list' leaves "" out, which changes its graph
status: 0

=== convert-g4-huge-repetition
$ kpath convert --to g4 tests/grammars/ok/huge-repetition.ebnf
stderr:
| tests/grammars/ok/huge-repetition.ebnf:2:9: error: ANTLR has no counted repetition, and {4294967294} in rule 'Body' written out is 4294967294 copies of its item: kpath writes at most 100000
status: 2

=== convert-g4-lexer-modes
$ kpath convert --to g4 tests/grammars/formats/TagParser.g4
stdout:
| grammar TagParser;
|
| doc
|     : (WORD | TAB | tag)*
|     ;
|
| tag
|     : OPEN r_skip_TAG (NAME r_skip_TAG)* CLOSE
|     ;
|
| r_skip_TAG
|     : TAG_WS*
|     ;
|
| WORD
|     : [a-z]+
|     ;
|
| TAB
|     : '\t'
|     ;
|
| OPEN
|     : '<'
|     ;
|
| WS
|     : ' ' -> skip
|     ;
|
| NAME
|     : [a-z]+
|     ;
|
| CLOSE
|     : '>'
|     ;
|
| TAG_WS
|     : '\t'
|     ;
stderr:
| tests/grammars/formats/TagLexer.g4:9:1: warning: lexer mode 'TAG': its tokens are read like the others (each a rule the parser rules name, whatever the mode there); between two tokens the skip tokens of the mode after the first are allowed; `more` is joined to the token it leads to
| tests/grammars/formats/TagLexer.g4:12:1: warning: ANTLR has no lexer modes in a combined grammar: rule '_skip_TAG' (the skip tokens of a mode) is written as a parser rule, where the other skip tokens are skipped too, which changes its graph
status: 0

=== convert-g4-split
$ kpath convert tests/grammars/formats/CalcParser.g4
stdout:
| calc := _skip stmt+;
| stmt := NAME _skip ASSIGN _skip sum SEMI _skip;
| atom := NUMBER _skip | NAME _skip | LPAREN _skip sum RPAREN _skip;
| ASSIGN := "=";
| SEMI := ";";
| PLUS := "+";
| LPAREN := "(";
| RPAREN := ")";
| NUMBER := DIGIT+;
| NAME := [a-z]+;
| DIGIT := [0-9];
| WS := [\t\n\r ];
| COMMENT := "/*" [\u{0}-\u{10FFFF}]* "*/";
| sum := atom (PLUS _skip atom)*;
| _skip := (WS | COMMENT)*;
status: 0

=== convert-output-write-error
$ kpath convert --to g4 -o /dev/full grammars/expr.ebnf
stderr:
| /dev/full: error: cannot write: No space left on device
status: 1

=== convert-to-fandango
$ kpath convert --to fandango grammars/expr.ebnf
stdout:
| # The start symbol: fandango fuzz --start-symbol='<Expr>'
| <Expr> ::= <AddExpr>
| <AddExpr> ::= <MultExpr> | <AddExpr> ("+" | "-") <MultExpr>
| <MultExpr> ::= <UnaryExpr> | <MultExpr> ("*" | "/" | "%") <UnaryExpr>
| <UnaryExpr> ::= <Identifier> | "+" <UnaryExpr> | "-" <UnaryExpr> | "++" <UnaryExpr> | "--" <UnaryExpr> | "(" <AddExpr> ")" | <DecDigits>
| <DecDigits> ::= <DecDigit>+
| <DecDigit> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"
| <Identifier> ::= "x" | "y" | "z"
stderr:
| grammars/expr.ebnf: warning: Fandango starts at <start>, and this grammar starts at <Expr>: run Fandango with --start-symbol='<Expr>' (kpath reads the file back starting at its first rule, <Expr>)
status: 0

=== convert-to-unknown
$ kpath convert --to yaml grammars/expr.ebnf
stderr:
| kpath convert: unknown grammar format 'yaml' for --to (expected ebnf, g4, fuzzingbook, tribble or fandango)
| Try 'kpath convert --help' for more information.
status: 2

=== convert-tribble
$ kpath convert --to tribble tests/grammars/formats/calc.tribble
stdout:
| calc =
|     expr ("\n" expr)*;
|
| expr =
|     term (/[\\*-\\+\\-]/ term)* @@0.8
|     | "-" expr @@0.2;
|
| term =
|     num
|     | "(" expr ")";
|
| num =
|     /[0-9]/+ ("." /[0-9]/{1,3})?;
status: 0
