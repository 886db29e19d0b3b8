# kpath graph: golden cases, run by tests/cli/run.sh, which
# describes this format.
#
# graph-dot-by-hand: picture.ebnf's graph drawn by hand (see the grammar's
# comment): every node once, tree edges solid, the back edges T_3 -> "x"_6
# and E_5 -> |_0 dashed.
#
# graph-svg-by-hand: the layout by hand.  Widths (units) |_0 4, ~_1 4, T_2 3,
# T_3 3, "+"_4 5, E_5 3, "x"_6 5; gap 2.  Subtrees: ~_1 3+2+5+2+3 = 15, T_2
# 5, |_0 15+2+5 = 22.  Left edges: |_0 (22-4)/2 = 9, ~_1 (15-4)/2 = 5, T_2
# 17+(5-3)/2 = 18, T_3 0, "+"_4 5, E_5 12, "x"_6 17.  In px (8 a unit,
# margin 16, 56 a layer, radius 8): a label's centre 16+8*(x+w/2), a
# circle's 16+8*x+8, a layer's centre 24+56*layer; 208 x 160 in all.  Tree
# edges from 8 px below the parent's centre to 8 px above the child's; back
# edges from 8 px right of the reference's centre to 8 px right of the
# target's, bending 24 px right and 28 px up and down.

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

=== graph-dot-by-hand
$ kpath graph --dot tests/grammars/ok/picture.ebnf
stdout:
| digraph grammar {
|   node [fontname="Helvetica", fontsize=12];
|   edge [arrowsize=0.6];
|   n0 [label="|", shape=circle, width=0.25, fixedsize=true, fontsize=9];
|   n1 [label="~", shape=circle, width=0.25, fixedsize=true, fontsize=9];
|   n2 [label="T_2", shape=plaintext];
|   n3 [label="T_3", shape=plaintext];
|   n4 [label="\"+\"_4", shape=plaintext];
|   n5 [label="E_5", shape=plaintext];
|   n6 [label="\"x\"_6", shape=plaintext];
|   n0 -> n1;
|   n0 -> n2;
|   n1 -> n3;
|   n1 -> n4;
|   n1 -> n5;
|   n2 -> n6;
|   n3 -> n6 [style=dashed];
|   n5 -> n0 [style=dashed];
| }

=== graph-svg-by-hand
$ kpath graph --svg tests/grammars/ok/picture.ebnf
stdout:
| <svg xmlns="http://www.w3.org/2000/svg" width="208" height="160" viewBox="0 0 208 160" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13">
| <defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>
| <rect width="208" height="160" fill="#ffffff"/>
| <line class="tree" data-from="0" data-to="1" x1="96.0" y1="32.0" x2="64.0" y2="72.0" stroke="#555" marker-end="url(#arrow)"/>
| <line class="tree" data-from="0" data-to="2" x1="96.0" y1="32.0" x2="172.0" y2="72.0" stroke="#555" marker-end="url(#arrow)"/>
| <line class="tree" data-from="1" data-to="3" x1="64.0" y1="88.0" x2="28.0" y2="128.0" stroke="#555" marker-end="url(#arrow)"/>
| <line class="tree" data-from="1" data-to="4" x1="64.0" y1="88.0" x2="76.0" y2="128.0" stroke="#555" marker-end="url(#arrow)"/>
| <line class="tree" data-from="1" data-to="5" x1="64.0" y1="88.0" x2="124.0" y2="128.0" stroke="#555" marker-end="url(#arrow)"/>
| <line class="tree" data-from="2" data-to="6" x1="172.0" y1="88.0" x2="172.0" y2="128.0" stroke="#555" marker-end="url(#arrow)"/>
| <path class="back" data-from="3" data-to="6" d="M36.0,136.0 C60.0,108.0 204.0,164.0 180.0,136.0" fill="none" stroke="#888" stroke-dasharray="4 3" marker-end="url(#arrow)"/>
| <path class="back" data-from="5" data-to="0" d="M132.0,136.0 C156.0,108.0 128.0,52.0 104.0,24.0" fill="none" stroke="#888" stroke-dasharray="4 3" marker-end="url(#arrow)"/>
| <g class="node synthetic" data-id="0"><circle cx="96.0" cy="24.0" r="8" fill="#fff" stroke="#555"/><text x="96.0" y="27.5" text-anchor="middle" font-size="10" fill="#555">|</text><text x="106.0" y="27.5" font-size="10" fill="#555">0</text></g>
| <g class="node synthetic" data-id="1"><circle cx="64.0" cy="80.0" r="8" fill="#fff" stroke="#555"/><text x="64.0" y="83.5" text-anchor="middle" font-size="10" fill="#555">~</text><text x="74.0" y="83.5" font-size="10" fill="#555">1</text></g>
| <text class="node" data-id="2" x="172.0" y="84.0" text-anchor="middle" fill="#000">T_2</text>
| <text class="node" data-id="3" x="28.0" y="140.0" text-anchor="middle" fill="#000">T_3</text>
| <text class="node" data-id="4" x="76.0" y="140.0" text-anchor="middle" fill="#000">&quot;+&quot;_4</text>
| <text class="node" data-id="5" x="124.0" y="140.0" text-anchor="middle" fill="#000">E_5</text>
| <text class="node" data-id="6" x="172.0" y="140.0" text-anchor="middle" fill="#000">&quot;x&quot;_6</text>
| </svg>

=== graph-svg-and-dot
$ kpath graph --svg --dot tests/grammars/ok/picture.ebnf
stderr:
| kpath graph: --dot and --svg exclude each other
| Try 'kpath graph --help' for more information.
status: 2
