// Written for kpath's tests: the entry rule (the one that ends with EOF) is
// not the first parser rule, as in grammars-v4's semver, whose first rule
// `tag` is a helper of its entry rule `semver`.
grammar EntryLater;

tag : ALPHA | BETA ;
version : NUMBER '.' NUMBER ('-' tag)? EOF ;
// A second rule naming EOF: the first one in the file is the entry.
versions : version (',' version)* EOF ;

ALPHA : 'alpha' ;
BETA : 'beta' ;
NUMBER : [0-9]+ ;
