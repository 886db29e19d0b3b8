/* generalize: widen a grammar by membership queries, as the AUTOGRAM paper's
 * Section IV does (Hoeschele and Zeller, "Active Learning of Input
 * Grammars").
 *
 * The samples are parsed (src/parse/parse, first tree of each) and, rule by rule in
 * file order, three generalizations are tried, each confirmed by queries that
 * change the samples only where that rule's elements derived text, everything
 * else unchanged:
 *   1. strings: a literal is put in place of every one of its occurrences by
 *      the examples of a lattice item (src/infer/lattice.h) that holds it, walking
 *      from the most specific such item up to more general ones while all
 *      examples are accepted; the literal becomes a reference to a rule for
 *      the last item accepted (added once, named after the item);
 *   2. repetitions: a group of L consecutive items occurring r >= 2 times in a
 *      row in a sequence is tried with 1 to 5 occurrences (the sample's own
 *      occurrences, in turn); all accepted makes it (group)+.  A run
 *      followed by the first p < L items of its group once more is read from
 *      after them: x "." x "." x is x ("." x)+, not (x ".")+ x;
 *   3. optional parts: in each sequence (an alternative of one item counts as
 *      one), subsequences are omitted, longest first, then leftmost, those
 *      delimited by literals first (no literal in them but one at an end:
 *      a URL's user lowernum urilower+ "@", its port ":" posint), then the
 *      others; all
 *      accepted makes the subsequence optional.  Its own parts are tried
 *      after it (so a flat sequence whose every suffix may go becomes nested
 *      optional suffixes); a subsequence that starts or ends with an optional
 *      item is not tried (the shorter one is), nor a whole occurrence of a
 *      repeated group (that is one repetition less, not an optional part).
 *      An omission is also asked with the rule's other optional parts left
 *      out, and with the lattice items of the rule around it given another
 *      of their examples: the first other example with the first round, and
 *      when all that is accepted, each further example in a second round
 *      (a path of URI characters after an authority left out is read as a
 *      host, which "a.b" fits and "/:@" does not).  Rejected alone but
 *      accepted with the one optional item next to it left out too, the
 *      two become optional together: "[" (d ",")? L "]" is
 *      "[" ((d ",")? L)? "]" when "[1,]" is rejected and "[]" accepted.
 * Strings go first so equal items show up as runs (1 . 2 . 3 becomes digits
 * "." digits "." digits), and repetitions before optional parts so a run is
 * not cut into optional pieces.  After each change the samples are parsed
 * again with the widened grammar, which still holds them.
 *
 * Every sample is asked first: one the program does not accept is an error
 * that says how its run ended (options->why).  A query is numbered when it
 * is first asked; asking the same input again is answered from memory (and
 * logged as such), so the log and the result are deterministic when the
 * oracle is.  What is remembered of a query is a 128-bit hash of its text,
 * its length, number and answer, never the text, so memory does not grow
 * with the sample's size times the queries.  An attempt is taken when every
 * answer is yes; a run that timed out or crashed is not a "no" (it says
 * nothing of the input's validity): an attempt with one and without a "no"
 * is undecided, not taken either, and counted apart (res->timeouts,
 * res->crashes).  The log reads like the paper's Figure 5: per attempt,
 * each input, yes, no, timeout or crash, then the conclusion; an input of
 * more than GENERALIZE_LOG_WHOLE bytes is shown as its edit of the nearest
 * sample (name, offset, the bytes taken out and those put in), so the log
 * grows with the edits, not with the samples.
 *
 * The work is a state machine (generalize_begin, generalize_step,
 * generalize_finish) so a front end can slice it: each step concludes the
 * attempt just answered or prepares the next one, and hands out the inputs
 * that need asking (the distinct ones not asked before) instead of running
 * them; the caller answers them however it likes (src/infer/membership's step API
 * in the explorer) and steps on.  Between steps the grammar is consistent:
 * every change made so far is in it and the samples parse.  generalize_run
 * is that loop with the synchronous options->ask, the CLI's way.
 *
 * Ownership: generalize_begin keeps pointers to the grammar, samples,
 * options, result and diagnostics until generalize_finish; it changes the
 * grammar in place (rules it changes are marked edited; item rules are
 * appended); the result owns its notes. */
#ifndef KPATH_GENERALIZE_H
#define KPATH_GENERALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "infer/lattice.h"
#include "infer/membership.h"
#include "parse/parse.h"
#include "base/strbuf.h"

#define GENERALIZE_MAX_REPETITIONS 5
#define GENERALIZE_DEFAULT_MAX_QUERIES 10000
#define GENERALIZE_LOG_WHOLE 120 /* bytes: a longer input is logged as its edit */

struct generalize_sample {
    const char *name; /* for diagnostics */
    const char *text;
    size_t len;
};

/* Answer inputs[i] (lens[i] bytes) for i < n into answers[i] (yes, no, or
 * how the run failed to say); false with a diagnostic when the oracle could
 * not be run. */
typedef bool (*generalize_ask_fn)(void *ctx, const char *const *inputs, const size_t *lens,
                                  size_t n, enum membership_answer *answers,
                                  struct diag_list *diags);

struct generalize_options {
    const struct lattice *lattice; /* NULL: strings stay as they are */
    const char *lattice_name;      /* for the notes; NULL: the lattice's file */
    generalize_ask_fn ask;
    void *ask_ctx;
    /* Called with each finished block of the log (may be NULL). */
    void (*log)(void *ctx, const char *text, size_t len);
    void *log_ctx;
    /* How the run of input i of the last batch ended, one line, for the
     * error about a sample that is not accepted (may be NULL). */
    const char *(*why)(void *ctx, size_t i);
    void *why_ctx;
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
    size_t timeouts, crashes; /* of the distinct ones: runs that said nothing */
    size_t undecided;     /* attempts not taken for a timeout or crash alone */
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

/* ---- the same, a step at a time ---- */
struct generalize;

enum generalize_state {
    GENERALIZE_MORE, /* step again */
    GENERALIZE_ASK,  /* the inputs of generalize_questions need answers first */
    GENERALIZE_DONE  /* over: generalize_finish */
};

/* Start (o->ask is not used); never NULL. */
struct generalize *generalize_begin(struct grammar *g, const struct generalize_sample *samples,
                                    size_t nsamples, const struct generalize_options *o,
                                    struct generalize_result *res, struct diag_list *diags);
/* Conclude the attempt just answered, or prepare the next (parsing the
 * samples again after a change): a bounded amount of work, no runs. */
enum generalize_state generalize_step(struct generalize *z);
/* The inputs waiting for answers: texts[i] (lens[i] bytes), to be answered
 * in answers[i]; all borrowed until generalize_answered.  0 when nothing
 * waits. */
size_t generalize_questions(struct generalize *z, const char *const **texts, const size_t **lens,
                            enum membership_answer **answers);
/* The answers are in (ok), or the oracle could not give them (!ok, with a
 * diagnostic of the caller's): the run then ends as generalize_run's does
 * when options->ask fails. */
void generalize_answered(struct generalize *z, bool ok);

struct generalize_progress {
    size_t queries;        /* answered so far (distinct inputs) */
    size_t asking;         /* waiting for answers now */
    const char *rule;      /* the rule being generalized (NULL: none) */
    uint32_t rule_index, rules; /* its index, of how many */
    const char *attempt;   /* the attempt under way, one line (NULL: none) */
};
void generalize_progress(const struct generalize *z, struct generalize_progress *p);
/* Free the state; true as generalize_run (the run got to its end, or to
 * the query limit).  Finishing early (a cancel) leaves the grammar with
 * every change concluded so far and res with their notes; false then. */
bool generalize_finish(struct generalize *z);

#endif
