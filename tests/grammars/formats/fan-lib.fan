# Included by fan-main.fan (kpath's tests): a list of numbers.
<start> ::= <number> ("," <number>)*
<number> ::= <digit>+
