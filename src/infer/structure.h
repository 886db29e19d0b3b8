/* structure: a recursive, repeating grammar from samples and membership
 * queries, before kpath generalize widens its strings (the bubble-and-merge
 * of Arvada, the repetitions of GLADE's phase 1, both black-box learners
 * that use only samples and a yes/no oracle, as kpath does).
 *
 * Each sample is cut into tokens: a run of ASCII letters, digits and "_"
 * (a word), a run of whitespace, a string ('"' up to the next '"' on its
 * line, "\" escaping the character after it: its quotes are never a class
 * of their own), or any other character alone.  Five steps follow, each
 * change taken only when every query of its attempt is answered yes:
 *   0. blanks: when the oracle takes every sample without its blank runs
 *      (a run between two word characters stays), the rest learns from
 *      those texts; each boundary between tokens (and both ends) is asked
 *      with a " " inserted, and "\t", "\n", "\r" (those no sample has)
 *      each at every boundary taken, one query per sample, then all of them
 *      at once; the grammar has `ws := [blanks]*` after each item where the
 *      sample's boundary was taken (in a repetition, after its last item:
 *      between the copies), at a whole sample's ends too.  A rejection of
 *      the last query drops it all: the samples stay as they are;
 *   1. classes: tokens of one kind that can replace each other are merged
 *      into one class (a rule whose alternatives are their texts): for a
 *      token text b and an earlier class a, up to `contexts` occurrences of
 *      b get a's text and as many occurrences of a get b's, over all
 *      samples (for single characters, separators, up to 4 times as many:
 *      every occurrence in most samples, since a separator's meaning is
 *      in where it stands);
 *   2. recursion: a span of tokens (the whole sample first, then spans of
 *      2 to max_span tokens, shortest first) is tried as one more
 *      alternative of a class C among its tokens: the span is replaced by a
 *      text of C (the collapse), and up to `contexts` occurrences of C are
 *      replaced by the span (whole samples that are in C first, then other
 *      samples, then elsewhere in this one, then inside the span: the
 *      nesting).  An accepted span becomes C's alternative with its tokens
 *      and its inner accepted spans put as their classes, so C is
 *      recursive: from [1,[2]] the span [2] gives value ::= "[" value "]",
 *      and the sample, in value too, value ::= "[" value "," value "]".
 *      A span whose pattern C already has is taken without queries (it is
 *      derived); a pattern rejected once is not asked again.  In a span
 *      taken, an item of a class of separators (single characters, 2 to 32
 *      texts) is asked with each other text of its class, in the span's
 *      place and its first other context, and holds the texts taken only
 *      ("-7" is a value, "*7" none: ("+" | "-") value); a span derived
 *      must have texts its pattern holds.  No span is taken, nor read in
 *      a pattern, right after an item of its own class ("+2" in "1+2"
 *      would make value value);
 *   2b. inclusion: a class b (of words, strings or spans) that can stand
 *      where a recursive class a stands (up to `contexts` occurrences of a
 *      get b's texts) becomes an alternative of a; then each token of b is
 *      asked with a's text and a's shortest other text in its place, and
 *      where both are yes it stands for a (in a JSON sample a string is a
 *      value where it is an array's item, not where it is a key);
 *   3. repetitions: in each alternative, a group of 1 to max_group
 *      consecutive items is written twice and three times (the copies with
 *      another text of each class, so a number doubled is not read as one
 *      longer number); accepted makes it (group)+, and the copies of it
 *      that follow in the sample are taken into it (then the group once
 *      is asked too: rejected, the first occurrence stays and (group)+
 *      follows it).  Before the pairs of step 1, all texts of one shape
 *      (digits, lower case, upper case; three or more) are tried as one
 *      class in one attempt.  A span without a class among its items is
 *      tried in the classes that have spans already ("[]" as a value).
 * The start rule `input` has, per sample, its class (a sample in a class)
 * or its pattern.  A string is written as its quotes and its contents
 * apart ("\"" "ab" "\""), so kpath generalize widens the contents only.  Texts of one class and the optional parts are left to
 * kpath generalize (src/infer/generalize.h), which runs after.
 *
 * Queries are asked through options->ask in batches, the first query of an
 * attempt alone (most attempts end at a "no"), each distinct input once (a
 * 128-bit hash of it is kept, not the text), numbered from 1 and logged
 * under "structure:" lines; res->notes says per rule of the result which queries
 * justified each class, recursion and repetition.  A timeout or a crash is
 * not a yes: the attempt is not taken.  The number of distinct queries is
 * bounded by max_queries (then the grammar is what was found so far).
 *
 * Ownership: the grammar returned is the caller's (grammar_free), and so
 * are res's notes (structure_result_free). */
#ifndef KPATH_STRUCTURE_H
#define KPATH_STRUCTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "infer/generalize.h"

struct structure_options {
    generalize_ask_fn ask;
    void *ask_ctx;
    void (*log)(void *ctx, const char *text, size_t len); /* may be NULL */
    void *log_ctx;
    size_t max_queries;  /* distinct inputs; 0: no limit */
    unsigned contexts;   /* occurrences asked per direction of a merge */
    unsigned max_span;   /* tokens of a span tried as a class's alternative */
    unsigned max_group;  /* items of a group tried as a repetition */
};

struct structure_result {
    char **notes;        /* per rule of the grammar returned, owned; NULL: none */
    uint32_t nnotes;
    size_t queries;      /* distinct inputs asked */
    size_t accepted, timeouts, crashes;
    size_t classes, recursions, repetitions; /* changes taken */
    bool limit_reached;
};

void structure_options_default(struct structure_options *o);
/* NULL with diagnostics when the oracle failed or the samples are not UTF-8. */
struct grammar *structure_learn(const char *file, const struct generalize_sample *samples,
                                size_t n, const struct structure_options *o,
                                struct structure_result *res, struct diag_list *diags);
void structure_result_free(struct structure_result *res);

#endif
