// A split grammar written for kpath's tests: the parser half.
parser grammar CalcParser;
options { tokenVocab = CalcLexer; }
import CalcCommon;

calc : stmt+ EOF ;
stmt : NAME ASSIGN sum SEMI ;
// Overrides CalcCommon's atom.
atom : NUMBER | NAME | LPAREN sum RPAREN ;
