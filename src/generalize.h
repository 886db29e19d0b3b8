/* generalize: widen a grammar by membership queries, as the AUTOGRAM paper's
 * Section IV does (Hoeschele and Zeller, "Active Learning of Input
 * Grammars").
 *
 * The samples are parsed (src/parse, first tree of each) and, rule by rule in
 * file order, three generalizations are tried, each confirmed by queries that
 * change the samples only where that rule's elements derived text, everything
 * else unchanged:
 *   1. strings: a literal is put in place of every one of its occurrences by
 *      the examples of a lattice item (src/lattice.h) that holds it, walking
 *      from the most specific such item up to more general ones while all
 *      examples are accepted; the literal becomes a reference to a rule for
 *      the last item accepted (added once, named after the item);
 *   2. repetitions: a group of L consecutive items occurring r >= 2 times in a
 *      row in a sequence is tried with 1 to 5 occurrences (the sample's own
 *      occurrences, in turn); all accepted makes it (group)+;
 *   3. optional parts: in each sequence (an alternative of one item counts as
 *      one), subsequences are omitted, longest first, then leftmost; all
 *      accepted makes the subsequence optional.  Its own parts are tried
 *      after it (so a flat sequence whose every suffix may go becomes nested
 *      optional suffixes); a subsequence that starts or ends with an optional
 *      item is not tried (the shorter one is), nor a whole occurrence of a
 *      repeated group (that is one repetition less, not an optional part).
 * Strings go first so equal items show up as runs (1 . 2 . 3 becomes digits
 * "." digits "." digits), and repetitions before optional parts so a run is
 * not cut into optional pieces.  After each change the samples are parsed
 * again with the widened grammar, which still holds them.
 *
 * Every sample is asked first: one the program rejects is an error.  A query
 * is numbered when it is first asked; asking the same input again is
 * answered from memory (and logged as such), so the log and the result are
 * deterministic when the oracle is.  The log reads like the paper's Figure 5:
 * per attempt, each input, yes or no, then the conclusion.
 *
 * Ownership: generalize_run changes the grammar in place (rules it changes
 * are marked edited; item rules are appended); the result owns its notes. */
#ifndef KPATH_GENERALIZE_H
#define KPATH_GENERALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "grammar.h"
#include "lattice.h"
#include "parse.h"
#include "strbuf.h"

#define GENERALIZE_MAX_REPETITIONS 5
#define GENERALIZE_DEFAULT_MAX_QUERIES 10000

struct generalize_sample {
    const char *name; /* for diagnostics */
    const char *text;
    size_t len;
};

/* Answer inputs[i] (lens[i] bytes) for i < n into answers[i] (valid or
 * not); false with a diagnostic when the oracle could not answer. */
typedef bool (*generalize_ask_fn)(void *ctx, const char *const *inputs, const size_t *lens,
                                  size_t n, bool *answers, struct diag_list *diags);

struct generalize_options {
    const struct lattice *lattice; /* NULL: strings stay as they are */
    const char *lattice_name;      /* for the notes; NULL: the lattice's file */
    generalize_ask_fn ask;
    void *ask_ctx;
    /* Called with each finished block of the log (may be NULL). */
    void (*log)(void *ctx, const char *text, size_t len);
    void *log_ctx;
    struct parse_options po;
    size_t max_queries;  /* distinct inputs asked; 0: no limit */
    bool strings, repetitions, optional; /* which generalizations to try */
};

struct generalize_result {
    struct strbuf *notes; /* per rule of the grammar after the run: the changes */
    uint32_t nnotes;
    size_t queries;       /* distinct inputs asked (runs) */
    size_t asked;         /* queries including those answered from memory */
    size_t accepted;      /* of the distinct ones */
    size_t changes;
    bool limit_reached;   /* stopped at max_queries: the grammar is what it was then */
};

void generalize_options_default(struct generalize_options *o);
/* False with diagnostics when a sample does not parse or is rejected, or the
 * oracle failed; the grammar may then be partly generalized. */
bool generalize_run(struct grammar *g, const struct generalize_sample *samples, size_t nsamples,
                    const struct generalize_options *o, struct generalize_result *res,
                    struct diag_list *diags);
void generalize_result_free(struct generalize_result *res);

#endif
