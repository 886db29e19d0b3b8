# kpath's tests: include() reads fan-lib.fan from this directory; the
# definition of <number> here replaces the one there, as in Fandango.
include("fan-lib.fan")
<number> ::= "-"? <digit>+
