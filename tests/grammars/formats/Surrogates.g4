// Java's and PostgreSQL's lexers (grammars-v4) write letters above U+FFFF as
// two UTF-16 halves.  In kpath's input, as in ANTLR 4's code-point input,
// surrogates are no characters: that alternative matches nothing.
grammar Surrogates;

words : WORD (',' WORD)* ;
WORD : Letter+ ;
fragment Letter
    : [a-c]
    | ~[\u0000-\u007F\uD800-\uDBFF]
    | [\uD800-\uDBFF] [\uDC00-\uDFFF]
    ;
