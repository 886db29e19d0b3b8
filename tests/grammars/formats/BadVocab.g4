parser grammar BadVocab;
options { tokenVocab = Missing; }
s : A ;
