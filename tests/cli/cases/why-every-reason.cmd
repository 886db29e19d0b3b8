why grammars/expr.ebnf AddExpr_0 '"-"_11' --samples tests/samples/learn/x-plus-x.txt --pin 'UnaryExpr_15 AddExpr_36' --max-depth 3
