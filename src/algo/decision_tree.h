/* decision_tree: CART classification trees over binary features.
 *
 * The data is a sparse 0/1 matrix (struct dt_data, rows in CSR form: each row
 * lists the columns that are 1, increasing) and a boolean label per row.  A
 * tree is learned top-down: at each node the split is the feature whose
 * presence/absence lowers the impurity (Gini or entropy) the most; nodes stop
 * at max_depth, when pure, below min_samples_split rows, or when no feature
 * lowers the impurity.  Splits of equal gain (a class-balanced sample ties
 * often: few rows, many features present in the same ones) are decided by
 * what the data says, never by a feature's index: first the precision the
 * split reaches on every training row at the node (struct dt_tiebreak: the
 * rows the sample was drawn from; the better of its two sides, rows of the
 * side that are true over rows of the side), then the more specific
 * feature (present in fewer of those rows), then the caller's order of
 * preference (dt_tiebreak.rank), and the index only when the caller gives
 * none.  A leaf predicts "true" when more of its training rows are true
 * than false.
 *
 * Learning visits nodes from an explicit work list (no recursion); finding a
 * node's split costs the ones in its rows plus the distinct features among
 * them, not rows x features.
 *
 * dt_balanced_sample draws the class-balanced training sample the k-path
 * literature uses: every row of the smaller class and as many rows of the
 * larger class, drawn without replacement from the seeded rng.
 *
 * Ownership: a tree owns its nodes; rules own their conditions; the data is
 * borrowed and must outlive learning and prediction. */
#ifndef KPATH_DECISION_TREE_H
#define KPATH_DECISION_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"

struct dt_data {
    uint32_t nrows, ncols;
    const uint32_t *row_start; /* nrows + 1 offsets into cols */
    const uint32_t *cols;      /* per row, its 1-columns, increasing */
};

/* Is column col of row 1?  (A binary search.) */
bool dt_row_has(const struct dt_data *d, uint32_t row, uint32_t col);

enum dt_criterion { DT_GINI, DT_ENTROPY };

#define DT_DEFAULT_MAX_DEPTH 5u

struct dt_params {
    enum dt_criterion criterion;
    uint32_t max_depth;         /* splits on a root-to-leaf path */
    uint32_t min_samples_split; /* fewer rows make a leaf (at least 2) */
};

const char *dt_criterion_name(enum dt_criterion c); /* "gini", "entropy" */
bool dt_criterion_parse(const char *name, enum dt_criterion *out);

#define DT_LEAF UINT32_MAX

struct dt_node {
    uint32_t feature;         /* the column tested, DT_LEAF for a leaf */
    uint32_t absent, present; /* children (node indices) when not a leaf */
    uint32_t npos, nneg;      /* training rows reaching the node, by label */
    uint32_t depth;           /* the root is 0 */
};

struct decision_tree {
    struct dt_node *nodes;    /* owned; [0] is the root; children after parents */
    uint32_t nnodes, cap;
};

/* How splits of equal gain are decided (see the top). */
struct dt_tiebreak {
    const uint32_t *rows; /* every training row (labels as for learning), each once;
                           * NULL: the rows learned from */
    uint32_t n;
    const uint32_t *rank; /* per column, lower is preferred; NULL: the column index */
};

/* Learn a tree from rows[0..n) of d (row indices, each once) and their labels
 * (labels[row], indexed like d's rows).  t is initialized here.  tb may be
 * NULL (ties by precision on rows[0..n), then by column index). */
void decision_tree_learn(struct decision_tree *t, const struct dt_data *d, const bool *labels,
                         const uint32_t *rows, uint32_t n, const struct dt_params *p);
void decision_tree_learn_tb(struct decision_tree *t, const struct dt_data *d, const bool *labels,
                            const uint32_t *rows, uint32_t n, const struct dt_params *p,
                            const struct dt_tiebreak *tb);
void decision_tree_free(struct decision_tree *t);
static inline bool dt_node_predicts(const struct dt_node *n) { return n->npos > n->nneg; }
/* The prediction for row `row` of d (which may be other data with the same columns). */
bool decision_tree_predict(const struct decision_tree *t, const struct dt_data *d, uint32_t row);
/* The prediction of the same tree cut at depth `depth` (a node at that depth
 * predicts from its rows, as a leaf would): a tree learned with max_depth D
 * cut at d < D is the tree learned with max_depth d, since splits are chosen
 * top-down and do not depend on the limit. */
bool decision_tree_predict_depth(const struct decision_tree *t, const struct dt_data *d,
                                 uint32_t row, uint32_t depth);

/* A root-to-leaf path of a leaf predicting true: the conjunction of its tests. */
struct dt_condition {
    uint32_t feature;
    bool present;
};
struct dt_rule {
    struct dt_condition *conds; /* owned; from the root down */
    uint32_t nconds;
    uint32_t leaf;
};
/* The rules of every leaf that predicts true, leaves in depth-first order
 * (absent branch first).  Returns how many; *rules is malloc'd. */
size_t decision_tree_rules(const struct decision_tree *t, struct dt_rule **rules);
void dt_rules_free(struct dt_rule *rules, size_t n);
bool dt_rule_matches(const struct dt_rule *r, const struct dt_data *d, uint32_t row);

/* The class-balanced sample of rows[0..n): all rows of the smaller class and
 * an equal number of the larger one, drawn uniformly without replacement;
 * returned in increasing order of position in rows (malloc'd, *out_n). */
uint32_t *dt_balanced_sample(const bool *labels, const uint32_t *rows, uint32_t n,
                             struct rng *rng, uint32_t *out_n);

/* Predictive quality on a test set. */
struct dt_confusion {
    uint64_t tp, fp, tn, fn;
};
/* NAN when undefined: precision without positive predictions, recall
 * without positive rows, accuracy without rows. */
double dt_accuracy(const struct dt_confusion *c);
double dt_precision(const struct dt_confusion *c);
double dt_recall(const struct dt_confusion *c);
/* The median of the values that are not NAN (v is reordered); NAN when none. */
double dt_median(double *v, size_t n);

#endif
