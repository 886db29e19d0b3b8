# kpath check: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== check-bad-escape
$ kpath check tests/grammars/bad/bad-escape.ebnf
stderr:
| tests/grammars/bad/bad-escape.ebnf:2:9: error: unknown escape '\q'
| tests/grammars/bad/bad-escape.ebnf:3:9: error: invalid escape '\x': write two hex digits, as in \x41
| tests/grammars/bad/bad-escape.ebnf:4:9: error: invalid code point U+110000 in escape
status: 2

=== check-defined-twice
$ kpath check tests/grammars/bad/defined-twice.ebnf
stderr:
| tests/grammars/bad/defined-twice.ebnf:4:1: error: rule 'Bit' is defined twice (first at 2:1)
status: 2

=== check-dev-zero
$ kpath check /dev/zero
stderr:
| /dev/zero: error: cannot read: a character device, not a regular file (--any-file reads it)
status: 2

=== check-directory
$ kpath check tests/grammars
stderr:
| tests/grammars: error: cannot read: Is a directory
status: 2

=== check-empty-alternative
$ kpath check tests/grammars/bad/empty-alternative.ebnf
stderr:
| tests/grammars/bad/empty-alternative.ebnf:2:21: error: empty alternative; write "" for the empty string
| tests/grammars/bad/empty-alternative.ebnf:3:10: error: empty alternative; write "" for the empty string
| tests/grammars/bad/empty-alternative.ebnf:4:23: error: empty alternative; write "" for the empty string
status: 2

=== check-empty-class
$ kpath check tests/grammars/bad/empty-class.ebnf
stderr:
| tests/grammars/bad/empty-class.ebnf:2:12: error: empty class '[]'
status: 2

=== check-fandango-include-missing
$ kpath check tests/grammars/formats/fan-missing.fan
stderr:
| tests/grammars/formats/fan-missing.fan:1:1: note: included here
| tests/grammars/formats/no-such.fan: error: cannot read: No such file or directory
status: 2

=== check-format-fandango-no-grammar
$ kpath check --format fandango tests/grammars/formats/calc-sample.txt
stderr:
| tests/grammars/formats/calc-sample.txt: error: no productions '<name> ::= ...' in this file
| tests/grammars/formats/calc-sample.txt:1:1: warning: 2 Python statements are ignored: kpath reads the grammar only
status: 2

=== check-format-g4-not-antlr
$ kpath check --format g4 tests/grammars/formats/calc-sample.txt
stderr:
| tests/grammars/formats/calc-sample.txt:1:1: error: expected 'grammar NAME;' (an ANTLR 4 grammar starts with it), found 'x'
status: 2

=== check-g4-alike-warnings
$ kpath check tests/grammars/formats/AlikeWarnings.g4
stderr:
| tests/grammars/formats/AlikeWarnings.g4:8:12: warning: 3 lexer rules use the lexer command 'type', which is not supported and is ignored (kpath reads one character-level grammar, without modes or token types): A, B, LB (the first is here)
| tests/grammars/formats/AlikeWarnings.g4:12:1: warning: skip token 'CMT' changes the lexer mode (IN) with no way back by skip tokens: kpath allows it between tokens like the other skip tokens of its mode, and does not follow the change
| tests/grammars/formats/AlikeWarnings.g4:13:1: warning: 3 lexer modes, whose tokens are read like the others (each a rule the parser rules name, whatever the mode there); between two tokens the skip tokens of the mode after the first are allowed; `more` is joined to the token it leads to: OTHER, IN, ORPHAN (the first is here)
| tests/grammars/formats/AlikeWarnings.g4:17:1: warning: 3 tokens pop the lexer mode back to 'DEFAULT_MODE' or 'OTHER', whichever pushed 'IN' (it depends on the input before them, which a context-free grammar cannot follow here): kpath allows the skip tokens of all of those modes after them: GT, SLASH_GT, BANG_GT (the first is here)
| tests/grammars/formats/AlikeWarnings.g4:22:1: warning: 2 tokens pop the lexer mode 'ORPHAN', which no token pushes: kpath allows the skip tokens of the default mode after them: RB, RP (the first is here)
status: 0

=== check-g4-missing-vocab
$ kpath check tests/grammars/formats/BadVocab.g4
stderr:
| tests/grammars/formats/BadVocab.g4:2:24: error: cannot read the grammar 'Missing' (tests/grammars/formats/Missing.g4): cannot read: No such file or directory
status: 2

=== check-g4-surrogates
$ kpath check tests/grammars/formats/Surrogates.g4
stderr:
| tests/grammars/formats/Surrogates.g4:11:7: warning: class [^\u{0}-\u{10FFFF}] in rule 'Letter' matches no character: nothing that holds it can be derived
| tests/grammars/formats/Surrogates.g4:11:23: warning: class [^\u{0}-\u{10FFFF}] in rule 'Letter' matches no character: nothing that holds it can be derived
status: 0

=== check-invalid-utf8
$ kpath check tests/grammars/bad/invalid-utf8.ebnf
stderr:
| tests/grammars/bad/invalid-utf8.ebnf:2:13: error: invalid UTF-8 byte 0xE9
status: 2

=== check-inverted-range
$ kpath check tests/grammars/bad/inverted-range.ebnf
stderr:
| tests/grammars/bad/inverted-range.ebnf:2:15: error: inverted range 'Z-A' in class
status: 2

=== check-missing-define
$ kpath check tests/grammars/bad/missing-define.ebnf
stderr:
| tests/grammars/bad/missing-define.ebnf:2:10: error: expected ':=', '::=' or '=' after the rule name 'Greeting', found string "hello"
status: 2

=== check-missing-file
$ kpath check tests/grammars/no-such-file.ebnf
stderr:
| tests/grammars/no-such-file.ebnf: error: cannot read: No such file or directory
status: 2

=== check-missing-semicolon
$ kpath check tests/grammars/bad/missing-semicolon.ebnf
stderr:
| tests/grammars/bad/missing-semicolon.ebnf:2:19: error: missing ';' at the end of rule 'Sum'
status: 2

=== check-no-rules
$ kpath check tests/grammars/bad/no-rules.ebnf
stderr:
| tests/grammars/bad/no-rules.ebnf:3:1: error: the grammar defines no rules
status: 2

=== check-ok-classes
$ kpath check tests/grammars/ok/classes.ebnf
status: 0

=== check-ok-comments
$ kpath check tests/grammars/ok/comments.ebnf
status: 0

=== check-ok-deep-nesting
$ kpath check tests/grammars/ok/deep-nesting.ebnf
stderr:
| tests/grammars/ok/deep-nesting.ebnf:4:11: warning: the repeated item in rule 'Quants' can produce no text (and in more quantifiers of the rule): a repetition past the minimum that produces none is in no tree kpath counts (the text has a tree without it), so k-paths only it could hold are never covered
status: 0

=== check-ok-escapes
$ kpath check tests/grammars/ok/escapes.ebnf
status: 0

=== check-ok-expr
$ kpath check grammars/expr.ebnf
status: 0

=== check-ok-names-and-defines
$ kpath check tests/grammars/ok/names-and-defines.ebnf
status: 0

=== check-ok-quantifiers
$ kpath check tests/grammars/ok/quantifiers.ebnf
status: 0

=== check-ok-several-unreferenced
$ kpath check tests/grammars/ok/several-unreferenced.ebnf
stderr:
| tests/grammars/ok/several-unreferenced.ebnf:2:1: warning: several rules are unreferenced (Greeting, Farewell); using the first rule 'Greeting' as start
| tests/grammars/ok/several-unreferenced.ebnf:4:1: warning: rule 'Farewell' is unreachable from the start rule 'Greeting'
status: 0

=== check-ok-start-guessed
$ kpath check tests/grammars/ok/start-guessed.ebnf
status: 0

=== check-ok-start-option
$ kpath check --start Ping tests/grammars/ok/unreachable.ebnf
stderr:
| tests/grammars/ok/unreachable.ebnf:2:1: warning: rule 'Start' is unreachable from the start rule 'Ping'
status: 0

=== check-ok-unreachable
$ kpath check tests/grammars/ok/unreachable.ebnf
stderr:
| tests/grammars/ok/unreachable.ebnf:3:1: warning: rule 'Ping' is unreachable from the start rule 'Start'
| tests/grammars/ok/unreachable.ebnf:4:1: warning: rule 'Pong' is unreachable from the start rule 'Start'
status: 0

=== check-ok-weights
$ kpath check tests/grammars/ok/weights.ebnf
status: 0

=== check-quantifier-bounds
$ kpath check tests/grammars/bad/quantifier-bounds.ebnf
stderr:
| tests/grammars/bad/quantifier-bounds.ebnf:2:9: error: empty quantifier; write {n}, {n,}, {,m} or {n,m}
| tests/grammars/bad/quantifier-bounds.ebnf:3:9: error: quantifier bound '4294967295' is too large (the limit is 4294967294)
| tests/grammars/bad/quantifier-bounds.ebnf:4:9: error: quantifier bound '1.5' is not a whole number
| tests/grammars/bad/quantifier-bounds.ebnf:5:9: error: inverted quantifier bounds {3,1}: the minimum is larger than the maximum
status: 2

=== check-several
$ kpath check tests/grammars/bad/several.ebnf
stderr:
| tests/grammars/bad/several.ebnf:2:26: error: unexpected character '$'
| tests/grammars/bad/several.ebnf:3:33: error: missing ';' at the end of rule 'Term'
| tests/grammars/bad/several.ebnf:4:26: error: undefined rule 'Numbr'
| tests/grammars/bad/several.ebnf:5:17: error: stacked quantifier; use parentheses to repeat a quantified item, as in (x*)+
status: 2

=== check-stacked-quantifier
$ kpath check tests/grammars/bad/stacked-quantifier.ebnf
stderr:
| tests/grammars/bad/stacked-quantifier.ebnf:2:17: error: stacked quantifier; use parentheses to repeat a quantified item, as in (x*)+
status: 2

=== check-start-undefined
$ kpath check --start Nope grammars/expr.ebnf
stderr:
| grammars/expr.ebnf: error: start rule 'Nope' is not defined
status: 2

=== check-tribble-bad
$ kpath check tests/grammars/formats/bad.tribble
stderr:
| tests/grammars/formats/bad.tribble:2:15: error: unterminated class '[' in a regex
status: 2

=== check-unclosed-group
$ kpath check tests/grammars/bad/unclosed-group.ebnf
stderr:
| tests/grammars/bad/unclosed-group.ebnf:2:37: error: expected ')' to close the '(' at 2:18, found ';'
status: 2

=== check-unclosed-group-at-end
$ kpath check tests/grammars/bad/unclosed-group-at-end.ebnf
stderr:
| tests/grammars/bad/unclosed-group-at-end.ebnf:2:33: error: missing ')' to close the '(' at 2:18
status: 2

=== check-undefined-rule
$ kpath check tests/grammars/bad/undefined-rule.ebnf
stderr:
| tests/grammars/bad/undefined-rule.ebnf:2:19: error: undefined rule 'Numbr'
status: 2

=== check-unexpected-character
$ kpath check tests/grammars/bad/unexpected-character.ebnf
stderr:
| tests/grammars/bad/unexpected-character.ebnf:2:26: error: unexpected character '$'
status: 2

=== check-unexpected-token
$ kpath check tests/grammars/bad/unexpected-token.ebnf
stderr:
| tests/grammars/bad/unexpected-token.ebnf:2:15: error: expected an item, found '*'
status: 2

=== check-unmatched-paren
$ kpath check tests/grammars/bad/unmatched-paren.ebnf
stderr:
| tests/grammars/bad/unmatched-paren.ebnf:2:24: error: unmatched ')'
status: 2

=== check-unproductive
$ kpath check tests/grammars/bad/unproductive.ebnf
stderr:
| tests/grammars/bad/unproductive.ebnf:3:1: error: rule 'Items' is unproductive: it can never derive a finite string
status: 2

=== check-unterminated-class
$ kpath check tests/grammars/bad/unterminated-class.ebnf
stderr:
| tests/grammars/bad/unterminated-class.ebnf:2:10: error: unterminated class
status: 2

=== check-unterminated-comment
$ kpath check tests/grammars/bad/unterminated-comment.ebnf
stderr:
| tests/grammars/bad/unterminated-comment.ebnf:3:1: error: unterminated comment
status: 2

=== check-unterminated-name
$ kpath check tests/grammars/bad/unterminated-name.ebnf
stderr:
| tests/grammars/bad/unterminated-name.ebnf:2:1: error: unterminated name: '<' needs a closing '>' before any whitespace
| tests/grammars/bad/unterminated-name.ebnf:2:9: error: unexpected character '>'
status: 2

=== check-unterminated-string
$ kpath check tests/grammars/bad/unterminated-string.ebnf
stderr:
| tests/grammars/bad/unterminated-string.ebnf:2:13: error: unterminated string
status: 2

=== check-weight-both
$ kpath check tests/grammars/bad/weight-both.ebnf
stderr:
| tests/grammars/bad/weight-both.ebnf:2:21: error: alternative has both a prefix weight and an '@@' weight
status: 2

=== check-weight-range
$ kpath check tests/grammars/bad/weight-range.ebnf
stderr:
| tests/grammars/bad/weight-range.ebnf:2:9: error: weight 120% is outside 0-100%
| tests/grammars/bad/weight-range.ebnf:3:12: error: weight @@ 1.5 is outside 0-1
status: 2

=== check-weight-single
$ kpath check tests/grammars/bad/weight-single.ebnf
stderr:
| tests/grammars/bad/weight-single.ebnf:2:9: error: weight on a single alternative; weights choose between two or more alternatives
| tests/grammars/bad/weight-single.ebnf:3:17: error: weight on a single alternative; weights choose between two or more alternatives
status: 2

=== check-weight-sum
$ kpath check tests/grammars/bad/weight-sum.ebnf
stderr:
| tests/grammars/bad/weight-sum.ebnf:2:9: error: weights of this alternation add up to 110%, more than 100%
status: 2

=== check-weight-sum-below
$ kpath check tests/grammars/bad/weight-sum-below.ebnf
stderr:
| tests/grammars/bad/weight-sum-below.ebnf:1:6: error: weights of this alternation add up to 90%, less than 100%; make them add up to 100%, or leave one alternative without a weight to take the rest
status: 2
