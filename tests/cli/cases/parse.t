# kpath parse: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== parse-class-leaves
$ kpath parse grammars/url.ebnf tests/samples/url/valid/empty-host.txt
stdout:
| ~_0
|   scheme_1
|     ~_8
|       ALPHA_13
|         [A-Za-z]_23 'h'
|       *_14
|   ":"_2
|   "//"_3
|   authority_4
|     ~_9
|       ?_15
|       host_16
|         |_26
|           reg-name_41
|             *_51
|       ?_17
|   path-abempty_5
|     *_10
|   ?_6
|   ?_7
status: 0

=== parse-class-leaves-dot
$ kpath parse --dot grammars/url.ebnf tests/samples/url/valid/empty-host.txt
stdout:
| digraph tree {
|   node [fontname="Helvetica", fontsize=12];
|   edge [arrowsize=0.6];
|   n0 [label="~_0", shape=ellipse, fontsize=9];
|   n1 [label="scheme_1", shape=plaintext];
|   n0 -> n1;
|   n2 [label="~_8", shape=ellipse, fontsize=9];
|   n1 -> n2;
|   n3 [label="ALPHA_13", shape=plaintext];
|   n2 -> n3;
|   n4 [label="[A-Za-z]_23\n'h'", shape=plaintext];
|   n3 -> n4;
|   n5 [label="*_14", shape=ellipse, fontsize=9];
|   n2 -> n5;
|   n6 [label="\":\"_2", shape=plaintext];
|   n0 -> n6;
|   n7 [label="\"//\"_3", shape=plaintext];
|   n0 -> n7;
|   n8 [label="authority_4", shape=plaintext];
|   n0 -> n8;
|   n9 [label="~_9", shape=ellipse, fontsize=9];
|   n8 -> n9;
|   n10 [label="?_15", shape=ellipse, fontsize=9];
|   n9 -> n10;
|   n11 [label="host_16", shape=plaintext];
|   n9 -> n11;
|   n12 [label="|_26", shape=ellipse, fontsize=9];
|   n11 -> n12;
|   n13 [label="reg-name_41", shape=plaintext];
|   n12 -> n13;
|   n14 [label="*_51", shape=ellipse, fontsize=9];
|   n13 -> n14;
|   n15 [label="?_17", shape=ellipse, fontsize=9];
|   n9 -> n15;
|   n16 [label="path-abempty_5", shape=plaintext];
|   n0 -> n16;
|   n17 [label="*_10", shape=ellipse, fontsize=9];
|   n16 -> n17;
|   n18 [label="?_6", shape=ellipse, fontsize=9];
|   n0 -> n18;
|   n19 [label="?_7", shape=ellipse, fontsize=9];
|   n0 -> n19;
| }
status: 0

=== parse-csv-escapes
$ kpath parse --symbolic grammars/csv.ebnf tests/samples/csv/valid/multiline.csv
stdout:
| ~_0
|   record_1
|     field_7
|       escaped_13
|         "\""_19
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'm'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'u'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'l'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 't'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'i'
|         "\r"_27
|         "\n"_28
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'l'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'i'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'n'
|         TEXTDATA_25
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'e'
|         "\""_21
|   "\r\n"_9
|   record_10
|     field_7
|       non-escaped_14
|         TEXTDATA_22
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'e'
|         TEXTDATA_22
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'n'
|         TEXTDATA_22
|           [\x20-\x21\x23-\x2B\x2D-\x7E]_24 'd'
status: 0

=== parse-directory
$ kpath parse grammars/expr.ebnf tests/samples/expr
stderr:
| tests/samples/expr: error: cannot read: Is a directory
status: 2

=== parse-dot-and-json
$ kpath parse --dot --json grammars/expr.ebnf tests/samples/expr/valid/add.txt
stderr:
| kpath parse: --dot and --json exclude each other
| Try 'kpath parse --help' for more information.
status: 2

=== parse-expr-ambiguous
$ kpath parse --symbolic grammars/expr.ebnf tests/samples/expr/valid/four-minus.txt
stdout:
| AddExpr_0
|   MultExpr_2
|     UnaryExpr_8
|       "--"_33
|       UnaryExpr_34
|         "--"_33
|         UnaryExpr_34
|           Identifier_16
|             "y"_40
stderr:
| tests/samples/expr/valid/four-minus.txt: 5 parse trees; showing the first (at each ambiguity, the derivation completed first)
status: 0

=== parse-expr-dot
$ kpath parse --dot --symbolic grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| digraph tree {
|   node [fontname="Helvetica", fontsize=12];
|   edge [arrowsize=0.6];
|   n0 [label="AddExpr_0", shape=plaintext];
|   n1 [label="AddExpr_5", shape=plaintext];
|   n0 -> n1;
|   n2 [label="MultExpr_2", shape=plaintext];
|   n1 -> n2;
|   n3 [label="UnaryExpr_8", shape=plaintext];
|   n2 -> n3;
|   n4 [label="Identifier_16", shape=plaintext];
|   n3 -> n4;
|   n5 [label="\"x\"_39", shape=plaintext];
|   n4 -> n5;
|   n6 [label="\"+\"_10", shape=plaintext];
|   n0 -> n6;
|   n7 [label="MultExpr_7", shape=plaintext];
|   n0 -> n7;
|   n8 [label="UnaryExpr_8", shape=plaintext];
|   n7 -> n8;
|   n9 [label="DecDigits_22", shape=plaintext];
|   n8 -> n9;
|   n10 [label="DecDigit_42", shape=plaintext];
|   n9 -> n10;
|   n11 [label="\"4\"_48", shape=plaintext];
|   n10 -> n11;
|   n12 [label="DecDigit_42", shape=plaintext];
|   n9 -> n12;
|   n13 [label="\"2\"_46", shape=plaintext];
|   n12 -> n13;
| }
status: 0

=== parse-expr-json
$ kpath parse --json grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| {"file": "tests/samples/expr/valid/add.txt", "trees": 1, "infinite": false, "nodes": [
|   {"id": 0, "parent": null, "node": 0, "name": "AddExpr_0", "kind": "ref", "start": 0, "end": 4},
|   {"id": 1, "parent": 0, "node": 1, "name": "|_1", "kind": "alt", "start": 0, "end": 4},
|   {"id": 2, "parent": 1, "node": 3, "name": "~_3", "kind": "cat", "start": 0, "end": 4},
|   {"id": 3, "parent": 2, "node": 5, "name": "AddExpr_5", "kind": "ref", "start": 0, "end": 1},
|   {"id": 4, "parent": 3, "node": 1, "name": "|_1", "kind": "alt", "start": 0, "end": 1},
|   {"id": 5, "parent": 4, "node": 2, "name": "MultExpr_2", "kind": "ref", "start": 0, "end": 1},
|   {"id": 6, "parent": 5, "node": 4, "name": "|_4", "kind": "alt", "start": 0, "end": 1},
|   {"id": 7, "parent": 6, "node": 8, "name": "UnaryExpr_8", "kind": "ref", "start": 0, "end": 1},
|   {"id": 8, "parent": 7, "node": 12, "name": "|_12", "kind": "alt", "start": 0, "end": 1},
|   {"id": 9, "parent": 8, "node": 16, "name": "Identifier_16", "kind": "ref", "start": 0, "end": 1},
|   {"id": 10, "parent": 9, "node": 26, "name": "|_26", "kind": "alt", "start": 0, "end": 1},
|   {"id": 11, "parent": 10, "node": 39, "name": "\"x\"_39", "kind": "lit", "start": 0, "end": 1, "text": "x"},
|   {"id": 12, "parent": 2, "node": 6, "name": "|_6", "kind": "alt", "start": 1, "end": 2},
|   {"id": 13, "parent": 12, "node": 10, "name": "\"+\"_10", "kind": "lit", "start": 1, "end": 2, "text": "+"},
|   {"id": 14, "parent": 2, "node": 7, "name": "MultExpr_7", "kind": "ref", "start": 2, "end": 4},
|   {"id": 15, "parent": 14, "node": 4, "name": "|_4", "kind": "alt", "start": 2, "end": 4},
|   {"id": 16, "parent": 15, "node": 8, "name": "UnaryExpr_8", "kind": "ref", "start": 2, "end": 4},
|   {"id": 17, "parent": 16, "node": 12, "name": "|_12", "kind": "alt", "start": 2, "end": 4},
|   {"id": 18, "parent": 17, "node": 22, "name": "DecDigits_22", "kind": "ref", "start": 2, "end": 4},
|   {"id": 19, "parent": 18, "node": 38, "name": "+_38", "kind": "quant", "start": 2, "end": 4},
|   {"id": 20, "parent": 19, "node": 42, "name": "DecDigit_42", "kind": "ref", "start": 2, "end": 3},
|   {"id": 21, "parent": 20, "node": 43, "name": "|_43", "kind": "alt", "start": 2, "end": 3},
|   {"id": 22, "parent": 21, "node": 48, "name": "\"4\"_48", "kind": "lit", "start": 2, "end": 3, "text": "4"},
|   {"id": 23, "parent": 19, "node": 42, "name": "DecDigit_42", "kind": "ref", "start": 3, "end": 4},
|   {"id": 24, "parent": 23, "node": 43, "name": "|_43", "kind": "alt", "start": 3, "end": 4},
|   {"id": 25, "parent": 24, "node": 46, "name": "\"2\"_46", "kind": "lit", "start": 3, "end": 4, "text": "2"}
| ]}
status: 0

=== parse-expr-symbolic
$ kpath parse --symbolic grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| AddExpr_0
|   AddExpr_5
|     MultExpr_2
|       UnaryExpr_8
|         Identifier_16
|           "x"_39
|   "+"_10
|   MultExpr_7
|     UnaryExpr_8
|       DecDigits_22
|         DecDigit_42
|           "4"_48
|         DecDigit_42
|           "2"_46
status: 0

=== parse-expr-x-plus-42
$ kpath parse grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| AddExpr_0
|   |_1
|     ~_3
|       AddExpr_5
|         |_1
|           MultExpr_2
|             |_4
|               UnaryExpr_8
|                 |_12
|                   Identifier_16
|                     |_26
|                       "x"_39
|       |_6
|         "+"_10
|       MultExpr_7
|         |_4
|           UnaryExpr_8
|             |_12
|               DecDigits_22
|                 +_38
|                   DecDigit_42
|                     |_43
|                       "4"_48
|                   DecDigit_42
|                     |_43
|                       "2"_46
status: 0

=== parse-grammar-and-sample-stdin
$ kpath parse - -
stderr:
| kpath parse: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath parse --help' for more information.
status: 2

=== parse-infinitely-many-trees
$ kpath parse tests/samples/ambiguous/cyclic.ebnf tests/samples/ambiguous/a.txt
stdout:
| |_0
|   "a"_2
stderr:
| tests/samples/ambiguous/a.txt: infinitely many parse trees; showing the first (at each ambiguity, the derivation completed first)
status: 0

=== parse-json-symbolic-utf8
$ kpath parse --json --symbolic grammars/json.ebnf tests/samples/json/valid/scalar.json
stdout:
| {"file": "tests/samples/json/valid/scalar.json", "trees": 1, "infinite": false, "nodes": [
|   {"id": 0, "parent": null, "node": 0, "name": "~_0", "kind": "cat", "start": 0, "end": 23},
|   {"id": 1, "parent": 0, "node": 1, "name": "ws_1", "kind": "ref", "start": 0, "end": 3},
|   {"id": 2, "parent": 1, "node": 14, "name": "\" \"_14", "kind": "lit", "start": 0, "end": 1, "text": " "},
|   {"id": 3, "parent": 1, "node": 14, "name": "\" \"_14", "kind": "lit", "start": 1, "end": 2, "text": " "},
|   {"id": 4, "parent": 1, "node": 15, "name": "\"\\t\"_15", "kind": "lit", "start": 2, "end": 3, "text": "\t"},
|   {"id": 5, "parent": 0, "node": 2, "name": "value_2", "kind": "ref", "start": 3, "end": 21},
|   {"id": 6, "parent": 5, "node": 13, "name": "string_13", "kind": "ref", "start": 3, "end": 21},
|   {"id": 7, "parent": 6, "node": 37, "name": "\"\\\"\"_37", "kind": "lit", "start": 3, "end": 4, "text": "\""},
|   {"id": 8, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 4, "end": 5},
|   {"id": 9, "parent": 8, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 4, "end": 5},
|   {"id": 10, "parent": 9, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 4, "end": 5, "text": "t"},
|   {"id": 11, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 5, "end": 6},
|   {"id": 12, "parent": 11, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 5, "end": 6},
|   {"id": 13, "parent": 12, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 5, "end": 6, "text": "o"},
|   {"id": 14, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 6, "end": 7},
|   {"id": 15, "parent": 14, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 6, "end": 7},
|   {"id": 16, "parent": 15, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 6, "end": 7, "text": "p"},
|   {"id": 17, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 7, "end": 8},
|   {"id": 18, "parent": 17, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 7, "end": 8},
|   {"id": 19, "parent": 18, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 7, "end": 8, "text": "-"},
|   {"id": 20, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 8, "end": 9},
|   {"id": 21, "parent": 20, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 8, "end": 9},
|   {"id": 22, "parent": 21, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 8, "end": 9, "text": "l"},
|   {"id": 23, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 9, "end": 10},
|   {"id": 24, "parent": 23, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 9, "end": 10},
|   {"id": 25, "parent": 24, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 9, "end": 10, "text": "e"},
|   {"id": 26, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 10, "end": 11},
|   {"id": 27, "parent": 26, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 10, "end": 11},
|   {"id": 28, "parent": 27, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 10, "end": 11, "text": "v"},
|   {"id": 29, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 11, "end": 12},
|   {"id": 30, "parent": 29, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 11, "end": 12},
|   {"id": 31, "parent": 30, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 11, "end": 12, "text": "e"},
|   {"id": 32, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 12, "end": 13},
|   {"id": 33, "parent": 32, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 12, "end": 13},
|   {"id": 34, "parent": 33, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 12, "end": 13, "text": "l"},
|   {"id": 35, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 13, "end": 14},
|   {"id": 36, "parent": 35, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 13, "end": 14},
|   {"id": 37, "parent": 36, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 13, "end": 14, "text": " "},
|   {"id": 38, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 14, "end": 15},
|   {"id": 39, "parent": 38, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 14, "end": 15},
|   {"id": 40, "parent": 39, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 14, "end": 15, "text": "s"},
|   {"id": 41, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 15, "end": 16},
|   {"id": 42, "parent": 41, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 15, "end": 16},
|   {"id": 43, "parent": 42, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 15, "end": 16, "text": "t"},
|   {"id": 44, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 16, "end": 17},
|   {"id": 45, "parent": 44, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 16, "end": 17},
|   {"id": 46, "parent": 45, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 16, "end": 17, "text": "r"},
|   {"id": 47, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 17, "end": 18},
|   {"id": 48, "parent": 47, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 17, "end": 18},
|   {"id": 49, "parent": 48, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 17, "end": 18, "text": "i"},
|   {"id": 50, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 18, "end": 19},
|   {"id": 51, "parent": 50, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 18, "end": 19},
|   {"id": 52, "parent": 51, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 18, "end": 19, "text": "n"},
|   {"id": 53, "parent": 6, "node": 46, "name": "char_46", "kind": "ref", "start": 19, "end": 20},
|   {"id": 54, "parent": 53, "node": 67, "name": "unescaped_67", "kind": "ref", "start": 19, "end": 20},
|   {"id": 55, "parent": 54, "node": 90, "name": "[^\"\\\\\\x00-\\x1F]_90", "kind": "class", "start": 19, "end": 20, "text": "g"},
|   {"id": 56, "parent": 6, "node": 39, "name": "\"\\\"\"_39", "kind": "lit", "start": 20, "end": 21, "text": "\""},
|   {"id": 57, "parent": 0, "node": 3, "name": "ws_3", "kind": "ref", "start": 21, "end": 23},
|   {"id": 58, "parent": 57, "node": 17, "name": "\"\\r\"_17", "kind": "lit", "start": 21, "end": 22, "text": "\r"},
|   {"id": 59, "parent": 57, "node": 16, "name": "\"\\n\"_16", "kind": "lit", "start": 22, "end": 23, "text": "\n"}
| ]}
status: 0

=== parse-missing-file
$ kpath parse grammars/expr.ebnf no/such/file
stderr:
| no/such/file: error: cannot read: No such file or directory
status: 2

=== parse-missing-file-argument
$ kpath parse grammars/expr.ebnf
stderr:
| kpath parse: missing FILE after GRAMMAR
| Try 'kpath parse --help' for more information.
status: 2

=== parse-no-parse
$ kpath parse grammars/expr.ebnf tests/samples/expr/invalid/close-paren.txt
stderr:
| tests/samples/expr/invalid/close-paren.txt:1:4: error: no parse: unexpected ')'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
status: 2

=== parse-no-parse-second-line
$ kpath parse grammars/json.ebnf tests/samples/json/invalid/second-line.json
stderr:
| tests/samples/json/invalid/second-line.json:3:3: error: no parse: unexpected '"'; expected one of '\t', '\n', '\r', ' ', ',', ']'
status: 2

=== parse-too-large
$ kpath parse --max-input-size 4 grammars/expr.ebnf tests/samples/expr/valid/mixed.txt
stderr:
| tests/samples/expr/valid/mixed.txt: error: input is 9 bytes, more than the limit of 4 (--max-input-size)
status: 2

=== parse-two-files
$ kpath parse grammars/expr.ebnf tests/samples/expr/valid/add.txt tests/samples/expr/valid/add.txt
stderr:
| kpath parse: unexpected argument 'tests/samples/expr/valid/add.txt' (expected GRAMMAR FILE; kpath coverage takes several)
| Try 'kpath parse --help' for more information.
status: 2
