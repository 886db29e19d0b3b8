/* import_regex: the regular expressions other grammar formats use as
 * terminals, turned into kpath syntax trees (alternation, sequence,
 * quantifier, literal, class), since kpath parses character by character.
 *
 *   REGEX_BRICS   dk.brics.automaton with COMPLEMENT | INTERSECTION, as
 *                 TRIBBLE reads /.../ (a backslash takes the next character
 *                 as it is; "..." is a string; () the empty string; '.' any
 *                 character).  Intersection '&' cannot be written as a
 *                 context-free grammar: an error; complement '~' only of a
 *                 set of single characters (see complement() in the .c).
 *   REGEX_PYTHON  Python's re, as Fandango reads r"...": escapes \n \t \xHH
 *                 \uHHHH ..., the classes \d \w \s (ASCII: [0-9],
 *                 [A-Za-z0-9_], [ \t\n\r\f\v]) and their negations, (?:...)
 *                 and (?P<name>...) groups, lazy quantifiers (the same
 *                 language), '^' at the start and '$' at the end (ignored).
 *                 Back-references, look-around, anchors elsewhere and inline
 *                 flags: an error naming the construct.
 *
 * Contract: the caller has already undone the quoting of the host format and
 * hands over the regex as code points, each with its position in the file,
 * so a diagnostic points at the character it is about.  Adjacent plain
 * characters become one literal ("abc", not "a" "b" "c").  Returns NULL with
 * at least one error in diags.  Parentheses nested deeper than a fixed limit
 * are an error, so the recursion is bounded. */
#ifndef KPATH_IMPORT_REGEX_H
#define KPATH_IMPORT_REGEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"

enum regex_dialect { REGEX_BRICS, REGEX_PYTHON };

struct regex_char {
    uint32_t cp;
    struct src_pos pos;
};

/* What a caller may want to warn about once per file: brics complements
 * ~X of a set of characters, which mean every string but one of them
 * ("" | [^S] | .{2,}), where authors often meant one character. */
struct regex_notes {
    size_t complements;
    struct src_pos first_complement;
};

/* chars[0..n); `end` is the position just past the regex (for "unexpected
 * end" errors); `file` names the file in diagnostics; `notes` (may be NULL)
 * is added to. */
struct expr *import_regex(struct grammar *g, enum regex_dialect dialect,
                          const struct regex_char *chars, size_t n, struct src_pos end,
                          const char *file, struct diag_list *diags, struct regex_notes *notes);

#endif
