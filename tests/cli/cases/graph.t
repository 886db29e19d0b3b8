# kpath graph: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== graph-expr
$ kpath graph grammars/expr.ebnf
stdout:
| 0	ref	AddExpr	1
| 1	alt	|	2,3
| 2	ref	MultExpr	4
| 3	cat	~	5,6,7
| 4	alt	|	8,9
| 5	ref	AddExpr	1
| 6	alt	|	10,11
| 7	ref	MultExpr	4
| 8	ref	UnaryExpr	12
| 9	cat	~	13,14,15
| 10	lit	"+"	
| 11	lit	"-"	
| 12	alt	|	16,17,18,19,20,21,22
| 13	ref	MultExpr	4
| 14	alt	|	23,24,25
| 15	ref	UnaryExpr	12
| 16	ref	Identifier	26
| 17	cat	~	27,28
| 18	cat	~	29,30
| 19	cat	~	31,32
| 20	cat	~	33,34
| 21	cat	~	35,36,37
| 22	ref	DecDigits	38
| 23	lit	"*"	
| 24	lit	"/"	
| 25	lit	"%"	
| 26	alt	|	39,40,41
| 27	lit	"+"	
| 28	ref	UnaryExpr	12
| 29	lit	"-"	
| 30	ref	UnaryExpr	12
| 31	lit	"++"	
| 32	ref	UnaryExpr	12
| 33	lit	"--"	
| 34	ref	UnaryExpr	12
| 35	lit	"("	
| 36	ref	AddExpr	1
| 37	lit	")"	
| 38	quant	+	42
| 39	lit	"x"	
| 40	lit	"y"	
| 41	lit	"z"	
| 42	ref	DecDigit	43
| 43	alt	|	44,45,46,47,48,49,50,51,52,53
| 44	lit	"0"	
| 45	lit	"1"	
| 46	lit	"2"	
| 47	lit	"3"	
| 48	lit	"4"	
| 49	lit	"5"	
| 50	lit	"6"	
| 51	lit	"7"	
| 52	lit	"8"	
| 53	lit	"9"	
status: 0

=== usage-two-grammars
$ kpath graph grammars/expr.ebnf grammars/fsm.ebnf
stderr:
| kpath graph: expected one GRAMMAR, got 'grammars/fsm.ebnf' too
| Try 'kpath graph --help' for more information.
status: 2
