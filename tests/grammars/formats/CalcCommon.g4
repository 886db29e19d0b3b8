// Rules CalcParser imports (written for kpath's tests).
parser grammar CalcCommon;
sum : atom (PLUS atom)* ;
atom : NUMBER ;
