/* explain: which k-paths make a behaviour happen (the association part of the
 * k-path literature), learned as decision trees over k-path features.
 *
 * The k-path features of an input are, for every k-path of length 1..k, whether
 * the input's derivation trees contain it (an ambiguous input has a k-path when
 * any of its trees has it, as in coverage).  An input is a record of a results
 * file (see results.h); its file is read and parsed with the grammar.  Only
 * k-paths some training input contains become features (the others cannot
 * split anything); they are numbered by length, then lexicographically by
 * ids, so the tree learner's ties go to shorter k-paths.
 *
 * For each behaviour feature (a name of the results file) the training inputs
 * reaching it are the positive class.  A feature reached by every or by no
 * training input is not trainable and only reported as such.  A trainable
 * feature gets a CART tree (decision_tree.h) learned on the class-balanced
 * sample (the larger class sub-sampled, seeded) or on every training input,
 * and its rules: each root-to-leaf path predicting "reached", as k-paths
 * present and absent, with its support (training inputs matching the rule,
 * all of them, not only the sample) and precision (the fraction of those
 * reaching the feature).  Splits of equal gain go to the k-path of the
 * higher precision on every training input, then to the more specific one
 * (in fewer training inputs), then to the shorter k-path and the one nearer
 * the start rule (the more general construct), then the shorter pattern
 * (explain_inputs.rank).
 *
 * Which learning (balanced or not) and which depth (1 .. EXPLAIN_MAX_AUTO_DEPTH)
 * is chosen per feature by stratified cross-validation on the training
 * inputs (seeded folds; fixed by --no-balance/--balance and --max-depth),
 * by accuracy, ties to the shallower tree, then to balanced.  The same folds
 * score the majority baseline (always answering the training inputs' more
 * frequent answer).  A feature whose chosen tree does not beat it is not
 * explained by input structure at k <= K: it gets no rules and predicts the
 * majority answer.  With fewer than EXPLAIN_MIN_FOLDS inputs of a class
 * (folds that each hold one of them out would be too few and too noisy),
 * the tree's accuracy on its own training inputs is compared instead.
 *
 * Ownership: kpath_features borrows the graph and owns its tables;
 * explain_inputs owns its rows; explain_result owns its name, tree and rules. */
#ifndef KPATH_EXPLAIN_H
#define KPATH_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/decision_tree.h"
#include "base/diag.h"
#include "graph/graph.h"
#include "graph/kpath.h"
#include "parse/parse.h"
#include "run/results.h"
#include "base/strbuf.h"

#define EXPLAIN_DEFAULT_K 3u
/* A rule resting on too little evidence is weak (explain_rule_weak). */
#define EXPLAIN_DEFAULT_MIN_REACHING 3u
#define EXPLAIN_DEFAULT_MIN_PRECISION_PCT 50u
#define EXPLAIN_DEFAULT_FOLDS 5u
/* Fewer inputs of a class than this: no cross-validation (too noisy). */
#define EXPLAIN_MIN_FOLDS 3u
#define EXPLAIN_MAX_AUTO_DEPTH 8u

struct explain_options {
    uint32_t k;             /* features: k-paths of length 1..k */
    struct dt_params tree;
    bool balance;           /* learn on the class-balanced sample */
    bool balance_auto;      /* choose balance by cross-validation (default) */
    bool depth_auto;        /* choose tree.max_depth by cross-validation (default) */
    uint32_t folds;         /* of the cross-validation (at most; 2 or more) */
    uint64_t seed;          /* the sample's draws (and --split) */
    struct parse_options po;
    uint32_t min_reaching;      /* a rule matched by fewer training inputs that
                                 * reach the feature is weak */
    uint32_t min_precision_pct; /* and so is one of a lower precision, in % */
};

void explain_options_default(struct explain_options *o);

struct kfeature_entry; /* uthash: k-path -> feature, private */

struct kpath_features {
    const struct graph *graph;  /* borrowed */
    uint32_t k;
    struct kpath_space *spaces; /* owned; k of them, length j at [j-1] */
    uint32_t n;                 /* features */
    uint32_t *len;              /* owned; per feature, the k-path's length */
    uint32_t *start;            /* owned; per feature, its ids at ids + start */
    uint32_t *ids;              /* owned */
    size_t nids, ids_cap, cap;
    struct kfeature_entry *index;
};

void kpath_features_free(struct kpath_features *kf);
static inline const uint32_t *kpath_feature_path(const struct kpath_features *kf, uint32_t f)
{
    return kf->ids + kf->start[f];
}

/* The parsed inputs of one results file as rows of k-path features. */
struct explain_inputs {
    struct dt_data data;   /* rows: the records whose input parsed, in input
                            * path order (results_input_order) */
    uint32_t *row_start;   /* owned (data points here) */
    uint32_t *cols;        /* owned */
    uint32_t *record;      /* owned; per row, its index in the results' records */
    uint32_t skipped;      /* records whose input could not be read or parsed,
                            * or changed since it ran */
    uint32_t *rank;        /* owned; training inputs only (else NULL): per
                            * feature, its place in the order of preference
                            * between splits the data cannot tell apart:
                            * shorter k-paths, then nodes nearer the start
                            * rule, then shorter patterns, then pattern text */
};

void explain_inputs_free(struct explain_inputs *in);

/* Read and parse the input of every record of `r` (read from results_path: a
 * relative input path that does not exist as given is looked up beside the
 * results file) and make the features from them: kf and in are initialized
 * here.  An input that cannot be read or parsed, or whose SHA-256 is not
 * the record's input_sha256 (when it has one: input_kpaths_as_ran), is
 * skipped with a warning (its diagnostic) in diags. */
void explain_inputs_train(const struct graph *g, const struct results *r, const char *results_path,
                          const struct explain_options *o, struct kpath_features *kf,
                          struct explain_inputs *in, struct diag_list *diags);
/* The same in steps, for a caller that must stay responsive (the TUI):
 * begin initializes kf and in, each step reads up to max_inputs records
 * (false when every one is read), finish makes the features final and frees
 * the reader.  abort frees the reader only; kf and in are then freed with
 * their _free functions.  r must outlive the reader. */
struct explain_reader;
struct explain_reader *explain_train_begin(const struct graph *g, const struct results *r,
                                           const char *results_path,
                                           const struct explain_options *o,
                                           struct kpath_features *kf, struct explain_inputs *in);
bool explain_reader_step(struct explain_reader *rd, size_t max_inputs, struct diag_list *diags);
void explain_reader_progress(const struct explain_reader *rd, size_t *done, size_t *total);
void explain_train_finish(struct explain_reader *rd);
void explain_reader_abort(struct explain_reader *rd);
/* The same for a test set, over the existing features (k-paths that are not
 * features are ignored: no tree can test them). */
void explain_inputs_read(const struct kpath_features *kf, const struct results *r,
                         const char *results_path, const struct explain_options *o,
                         struct explain_inputs *in, struct diag_list *diags);

/* Per row of in: does its record reach the feature called `name`?  (All false
 * when the results file has no such feature.)  malloc'd. */
bool *explain_labels(const struct explain_inputs *in, const struct results *r, const char *name);

/* Split rows 0..n-1 at random (seeded) into a test part of round(n * fraction)
 * rows and a training part; both increasing, malloc'd. */
void explain_split(uint32_t n, double fraction, uint64_t seed, uint32_t **train,
                   uint32_t *ntrain, uint32_t **test, uint32_t *ntest);

enum explain_kind { EXPLAIN_TRAINABLE, EXPLAIN_ALWAYS, EXPLAIN_NEVER };

struct explain_rule {
    struct dt_rule rule;
    uint32_t support;   /* training rows matching the rule */
    uint32_t hits;      /* of them, rows reaching the feature */
};

struct explain_result {
    char *name;                 /* owned */
    enum explain_kind kind;
    uint32_t npos, nneg;        /* training rows reaching the feature, and not */
    uint32_t nsample;           /* rows the tree was learned on */
    bool balanced;              /* the learning chosen (or given) */
    uint32_t depth;             /* the tree's max depth chosen (or given) */
    uint32_t folds;             /* of the cross-validation; 0: too few inputs */
    double cv_accuracy;         /* the chosen tree's, cross-validated (with
                                 * folds 0: on its training inputs) */
    double cv_baseline;         /* the majority baseline's, the same way */
    bool majority;              /* the baseline's answer: "reached"? */
    bool explained;             /* the tree beats the baseline (else no rules) */
    struct decision_tree tree;  /* owned; trainable features only */
    struct explain_rule *rules; /* owned */
    size_t nrules;
    bool tested;
    struct dt_confusion test;   /* when tested */
    struct dt_confusion test_baseline; /* the majority baseline's, when tested */
};

/* Learn the tree of one feature from rows[0..n) of `in`, labels per row. */
void explain_learn(const struct explain_inputs *in, const bool *labels, const uint32_t *rows,
                   uint32_t n, const char *name, const struct explain_options *o,
                   struct explain_result *out);
/* Count the tree's predictions (the majority answer when not explained)
 * against rows[0..n) of `in` into out->test, the baseline's into
 * out->test_baseline. */
void explain_evaluate(struct explain_result *res, const struct explain_inputs *in,
                      const bool *labels, const uint32_t *rows, uint32_t n);
void explain_result_free(struct explain_result *res);
/* "not explained by input structure at k <= 3: cross-validated accuracy 0.37,
 * no better than 0.77 for always answering \"reached\"", or for an explained
 * feature "cross-validated accuracy 0.97 (5 folds; class-balanced, depth 2)
 * against 0.60 for always answering \"not reached\" (majority baseline)". */
void explain_render_verdict(const struct explain_result *res, uint32_t k, struct strbuf *out);
/* Is the rule weak: matched by fewer than o->min_reaching training inputs that
 * reach the feature, or of a precision below o->min_precision_pct percent?
 * A tree learned from one input reaching a crash still has a rule, which
 * describes that input, not the crash; the user must be told, with the
 * numbers, before trusting it or targeting it. */
bool explain_rule_weak(const struct explain_rule *er, const struct explain_options *o);
/* "(4 inputs, precision 1.00)", or "(2 inputs, precision 1.00, weak)":
 * the rule's support and precision ("-" without support), as explain,
 * target and the explorer show them after a rule. */
void explain_render_support(const struct explain_rule *er, const struct explain_options *o,
                            struct strbuf *out);
/* Why it is weak, the failing measures with their thresholds and options:
 * "only 1 input reaching exit:3 matches it (fewer than --min-reaching 3);
 * precision 0.20 (below --min-precision 0.50)".  Nothing when it is not. */
void explain_render_weakness(const struct explain_rule *er, const char *feature,
                             const struct explain_options *o, struct strbuf *out);

/* "contains  PATTERN" or "lacks  PATTERN": a condition in the grammar's
 * words, the k-path rendered as `kpath pattern` does. */
void explain_render_condition(const struct kpath_features *kf, const struct dt_condition *c,
                              struct strbuf *out);
/* The conditions of a rule joined by "  and  "; "always" for a rule without
 * conditions (a tree that is one leaf). */
void explain_render_rule(const struct kpath_features *kf, const struct dt_rule *r,
                         struct strbuf *out);
/* The pattern of a feature's k-path, as kpath pattern shows it. */
void explain_render_pattern(const struct kpath_features *kf, uint32_t feature, struct strbuf *out);
/* The k-path of a feature as kpath paths prints it: AddExpr_0 -> "+"_10. */
void explain_render_path(const struct kpath_features *kf, uint32_t feature, struct strbuf *out);

#endif
