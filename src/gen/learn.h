/* learn: rule probabilities learned from samples, their inversion, and
 * probability tables read from grammar files.
 *
 * A probability table has one double per edge of the grammar graph, indexed
 * like graph->children (entry graph->nodes[n].first_child + i):
 *  - for an alt node n, the probability of its alternative i;
 *  - for a quant node, at its one edge, the probability of one more
 *    repetition beyond the minimum (repetitions then follow a geometric
 *    distribution, capped as usual), or a negative value for "not learned"
 *    (repetitions uniform within bounds);
 *  - other edges are unused (0).
 *
 * Learning counts, for every alt node, how often each alternative was chosen
 * in the samples' derivation trees (for an ambiguous sample: its first tree,
 * see forest_first_tree), and for every quant node its instances and the
 * repetitions beyond the minimum.  The probability of an alternative is its
 * count over the alt node's count; an alternation no sample reached keeps
 * uniform probabilities and is marked unseen.  A quantifier's probability of
 * one more repetition is extra / (instances + extra), the geometric
 * distribution with the samples' mean.
 *
 * Inversion ("less of the same"): per alternation, weights 1/p normalized; an
 * alternative with p = 0 has infinite weight, so when an alternation has such
 * alternatives they share all the probability and the others get 0; an
 * alternation that is uniform stays uniform.  A quantifier's q becomes 1 - q.
 *
 * Ownership: `struct learned` owns its counts and borrows the graph. */
#ifndef KPATH_LEARN_H
#define KPATH_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/derivation.h"
#include "graph/graph.h"

struct learned {
    const struct graph *graph; /* borrowed */
    uint64_t *edge_count;      /* per edge: alternative chosen / extra repetitions */
    uint64_t *node_count;      /* per node: alt reached / quant instances */
    size_t samples;            /* trees added */
    size_t ambiguous;          /* of them, from samples with several trees */
};

/* Number of entries of a probability table for g. */
size_t probability_table_size(const struct graph *g);

void learn_init(struct learned *l, const struct graph *g);
void learn_free(struct learned *l);
void learn_add_tree(struct learned *l, const struct derivation *t, bool ambiguous);
/* Add src's counts to dst's (both learned over the same graph): learning is
 * counting, so samples learned in parts and merged give the same table as
 * all of them learned in one (kpath learn -j). */
void learn_merge(struct learned *dst, const struct learned *src);
/* The learned table into probs (probability_table_size entries). */
void learn_probabilities(const struct learned *l, double *probs);
/* Has any sample reached alt or quant node n? */
bool learn_seen(const struct learned *l, uint32_t node);

/* The grammar's own table: annotated weights (grammar_alt_probability),
 * quantifiers not learned. */
void probabilities_from_grammar(const struct graph *g, double *probs);
/* Inversion, as above; `in` and `out` may be the same table. */
void probabilities_invert(const struct graph *g, const double *in, double *out);

/* Read a table from a grammar file with the same rules (a learned grammar, or
 * one annotated by hand): its weights for the alternations, and the
 * quantifiers' lines "#: repeat I P" (the I-th quantifier of the rule, in
 * pre-order from 1, with P its probability of one more repetition) as
 * `kpath learn` writes them.  Every reachable rule of g must be in the file
 * with the same structure; otherwise false with diagnostics. */
bool probabilities_read_file(const struct graph *g, const char *path, double *probs,
                             struct diag_list *diags);
/* Write the grammar with a table: every alternative with its "N%" and, above
 * each rule, "#:" notes with the raw counts (when `l` is given) and a
 * "#: repeat I P" line per learned quantifier.  Output loads back with
 * probabilities_read_file to the same table (to five significant digits). */
void probabilities_write(const struct graph *g, const double *probs, const struct learned *l,
                         bool inverted, struct strbuf *out);

#endif
