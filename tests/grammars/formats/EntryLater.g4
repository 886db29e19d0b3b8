// Written for kpath's tests: the entry rule (the one that ends with EOF and
// that no other rule uses) is not the first parser rule, as in grammars-v4's
// semver, whose first rule `tag` is a helper of its entry rule `semver`.
grammar EntryLater;

tag : ALPHA | BETA ;
// Names EOF, but another rule uses it (as properties' `eol`): no entry.
end_ : ';' | EOF ;
version : NUMBER '.' NUMBER ('-' tag)? end_? EOF ;
// A second entry: the first one in the file is the start.
tags : tag (',' tag)* EOF ;

ALPHA : 'alpha' ;
BETA : 'beta' ;
NUMBER : [0-9]+ ;
