include("no-such.fan")
<start> ::= "a"
