/* grammar_export: writing a loaded grammar in another format (kpath convert).
 *
 * Contract: grammar_export appends the grammar in `format` to `out` and
 * returns true; warnings (what the format cannot say: weights in g4,
 * counted repetition, classes in fuzzingbook) go to `diags`, naming the rule.
 * It returns false, with an error, only for what cannot be written at all.
 *
 *   ebnf         grammar_write (src/formats/grammar_write.h), rules printed anew.
 *   g4           a combined ANTLR 4 grammar.  A rule that holds a class, and
 *                every rule such a rule uses, is a lexer rule (its name starts
 *                with a capital), the others parser rules (lower case); names
 *                are changed only where ANTLR needs it (`<digit>` -> `digit`).
 *                Lexer rules the parser rules never name are fragments.  The
 *                `_skip` rule of an ANTLR import (src/formats/import_antlr.c) turns
 *                back into its tokens with `-> skip` and its references are
 *                left out, so importing the result gives the same graph.
 *                {n,m} is written as n copies and m-n nested optionals.
 *   fuzzingbook  the JSON dictionary: "<name>": ["expansion", ...], with
 *                fuzzingbook's shorthands <x>? <x>* <x>+ and (a|b)? where
 *                they say the same; any other nested alternation, a class or a
 *                counted repetition becomes a helper rule <name-N>.  Weights
 *                become ["expansion", {"prob": p}].
 *   tribble      TRIBBLE's text format: names [A-Za-z0-9_$']+, classes as
 *                brics regexes /[...]/, weights as @@p.
 *   fandango     Fandango's .fan: one production `<name> ::= ...` a line, the
 *                start rule first; Python strings, classes as one-class
 *                regexes r"[...]"; names made valid (unique_name), a rule
 *                called start that is not the start rule renamed, and a
 *                warning naming --start-symbol when the start rule is not
 *                <start>.  Weights are left out, with a warning.
 *
 * The start rule is written first where the format takes its first rule as
 * the start.  Nothing here recurses on the nesting depth of a rule. */
#ifndef KPATH_GRAMMAR_EXPORT_H
#define KPATH_GRAMMAR_EXPORT_H

#include <stdbool.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "formats/grammar_load.h"
#include "base/strbuf.h"

bool grammar_export(const struct grammar *g, enum grammar_format format, struct strbuf *out,
                    struct diag_list *diags);

#endif
