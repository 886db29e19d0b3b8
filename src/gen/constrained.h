/* constrained: generating inputs under k-path constraints (required k-paths that
 * every input must contain, prohibited ones none may contain), the way the
 * k-path literature generates inputs for a behaviour from a decision tree's
 * "reached" leaf.
 *
 * Generation is a search over partial derivation trees (derivation.h), one slot at
 * a time in pre-order.  A prohibited k-path is checked at its last element: a
 * choice is refused only when it would complete one, so its first nodes stay
 * usable.  To never run into a dead end, the prohibited paths are compiled
 * into an automaton over the chain of symbolic ancestors (its state: the
 * longest suffix of the chain that begins a prohibited path), and for every
 * (state, node) the least depth of a complete subtree that completes none of
 * them is computed by a fixpoint; a choice is taken only when that subtree
 * fits under the depth limit.  For each required k-path a second fixpoint
 * gives, per (state, progress along the path, node), the fewest steps down to
 * an instance completing it.  A slot claims the nearest required path not
 * contained yet and not claimed elsewhere in the tree, follows those
 * distances and hands the claim to the one child on the way; other slots
 * close with the least deep alternatives (retries choose at random a quarter
 * of the time, seeded, so they differ).
 * Every finished tree is checked against the constraint by computing its
 * k-paths; inputs that miss a required path are dropped and the search tries
 * again, up to `attempts` times per input.  Texts are never repeated.
 *
 * constrained_new reports unsatisfiable constraints, with the k-paths that
 * conflict: a prohibited k-path inside a required one; a required k-path
 * that no tree can contain without a prohibited one (those that block it are
 * named); prohibited paths that every input contains.
 *
 * Nothing recurses.  Ownership: the generator borrows the graph and copies
 * the constraint; a returned tree is the caller's. */
#ifndef KPATH_CONSTRAINED_H
#define KPATH_CONSTRAINED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/derivation.h"
#include "graph/graph.h"

struct constrained_path {
    uint32_t len;
    const uint32_t *ids; /* borrowed by constrained_new, copied */
};

struct constraints {
    const struct constrained_path *required;
    size_t nrequired;
    const struct constrained_path *prohibited;
    size_t nprohibited;
};

struct constrained_options {
    uint32_t max_depth;       /* reference nodes on a root-to-leaf path */
    uint32_t max_repetitions; /* cap for *, + and {n,} */
    uint64_t seed;
    uint32_t attempts;        /* trees tried per input before giving up */
};

void constrained_options_default(struct constrained_options *o);

struct constrained_gen;

/* A generator for the constraint, or NULL when it is unsatisfiable, with one
 * error per conflict in diags (no file; k-paths named as kpath paths prints
 * them).  Paths must be valid k-paths of g. */
struct constrained_gen *constrained_new(const struct graph *g, const struct constraints *c,
                              const struct constrained_options *o, struct diag_list *diags);
void constrained_free(struct constrained_gen *t);
/* The next input: a complete tree (initialized here) that contains every
 * required k-path and no prohibited one, with a text no earlier input had.
 * False when `attempts` trees in a row failed (the tree is then empty). */
bool constrained_next(struct constrained_gen *t, struct derivation *out);
/* Does the tree satisfy the constraint?  (Computed from its k-paths.) */
bool constrained_satisfied(const struct graph *g, const struct constraints *c,
                      const struct derivation *tree);

#endif
