# A calculator in Fandango's .fan format, written for kpath's tests.
<start> ::= <expr> ("\n" <expr>)*
<expr>  ::= <term> (r"[-+*]" <term>)* | "-" <expr>
<term>  ::= <num> | "(" <expr> ")"
<num>   ::= <digit>+ ("." <digit>{1,3})?

where int(str(<num>)) < 1000
