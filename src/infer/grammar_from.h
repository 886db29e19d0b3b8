/* grammar_from: a first, concrete grammar from sample inputs alone (kpath
 * grammar-from), for kpath generalize to widen.
 *
 * Each sample is cut into tokens by its surface: a run of ASCII letters, a
 * run of digits, a run of whitespace, or any other single character.  The
 * shape of a sample is its sequence of token kinds, with the text of every
 * punctuation token (so "a=1" and "b=22" have one shape, "a:1" another).
 * Samples of one shape share a rule, in the order of their first sample:
 *
 *     input := sample1 | sample3;
 *     sample1 := ("a" | "b") "=" ("1" | "22");
 *
 * where a token that is the same in all of them is one literal and a token
 * that differs is a group of the texts seen, in the order seen.  The start
 * rule `input` has an alternative per shape.  Nothing else is merged: no
 * structure is shared between shapes, and no nesting is found (that needs
 * the program's data flow, which AUTOGRAM tracks and kpath does not).
 *
 * Ownership: the grammar returned is the caller's (grammar_free). */
#ifndef KPATH_GRAMMAR_FROM_H
#define KPATH_GRAMMAR_FROM_H

#include <stddef.h>

#include "base/diag.h"
#include "grammar/grammar.h"

struct grammar_from_sample {
    const char *name; /* for diagnostics and the notes */
    const char *text;
    size_t len;
};

/* The samples each rule was made from ("a.txt, b.txt"), for comments. */
struct grammar_from_notes {
    char **notes; /* per rule, owned; NULL for none */
    uint32_t n;
};

/* NULL with diagnostics (FILE:LINE:COL of invalid UTF-8) when a sample is
 * not text.  file: the name the grammar gets; notes may be NULL. */
struct grammar *grammar_from_samples(const char *file, const struct grammar_from_sample *samples,
                                     size_t n, struct grammar_from_notes *notes,
                                     struct diag_list *diags);
void grammar_from_notes_free(struct grammar_from_notes *notes);

#endif
