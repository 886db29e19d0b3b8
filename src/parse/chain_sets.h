/* chain_sets: interned sets of symbolic chains, the k-path summary of a
 * sub-forest.
 *
 * A chain is a downward sequence of 1 .. maxk symbolic graph nodes, each the
 * nearest symbolic descendant of the one before.  The summary of a part of a
 * derivation (a completed symbol, an Earley item) is one set holding
 *   - every chain of length 1 .. maxk that lies wholly inside it: these are
 *     its k-paths for every k <= maxk, whatever lies above it ("inner");
 *   - every chain of length 1 .. maxk-1 that starts at its topmost symbolic
 *     nodes ("top"): what a symbolic ancestor will extend;
 *   - marks: labels of the caller's (below 2^30) that travel up unchanged
 *     through unions and extensions, for facts about a sub-forest that, like
 *     its inner chains, hold whatever lies above it (the parser marks the
 *     expansions each derivation uses).
 * Because the grammar is context-free, the chains below an instance do not
 * depend on the tree around it, so the summary of a node of a parse forest
 * is the union over its derivations, and the parser can compute it as each
 * Earley set finishes and then forget the derivations (parse_kpaths).
 *
 * Sets and chains are interned: a set is a uint32 id (CHAIN_SET_EMPTY is the
 * empty set), equal sets have equal ids.  A set is built in an accumulator
 * (a bitset over the entries, numbered densely as they are first met) and
 * interned once, whatever the number of unions and the extension that made
 * it; unions and extensions of interned sets are memoized (in caches of a
 * fixed size, which may forget a result: it is then made again, the same
 * id), so the common cases (a union with itself, with the empty set, the
 * same extension again) cost a lookup and build nothing.  Ownership: everything belongs to the
 * struct chain_sets; ids stay valid until chain_sets_free. */
#ifndef KPATH_CHAIN_SETS_H
#define KPATH_CHAIN_SETS_H

#include <stddef.h>
#include <stdint.h>

#include "graph/kpath.h"

#define CHAIN_SET_EMPTY 0u

struct chain_sets;

struct chain_sets *chain_sets_new(uint32_t maxk);
void chain_sets_free(struct chain_sets *cs);
/* Building a set: one accumulator per struct chain_sets, used by one
 * caller at a time (interning sets, marks included, may happen meanwhile).
 * start empties it; add unites a set into it; extend makes it the summary of
 * an instance of the symbolic node `node` whose children's summaries it
 * holds: their inner chains, the chain [node], and node put on top of each
 * of their top chains; take returns its id (and keeps it as the value). */
void chain_sets_acc_start(struct chain_sets *cs);
void chain_sets_acc_add(struct chain_sets *cs, uint32_t set);
void chain_sets_acc_extend(struct chain_sets *cs, uint32_t node);
uint32_t chain_sets_acc_take(struct chain_sets *cs);
/* Add the inner chains of `set` of length sets[i]->sp->k to sets[i], for
 * each i; returns how many were new. */
uint64_t chain_sets_add_kpaths(const struct chain_sets *cs, uint32_t set,
                               struct kpath_set *const *sets, size_t nsets);
/* The set holding only the mark `label` (< 2^30). */
uint32_t chain_sets_mark(struct chain_sets *cs, uint32_t label);
/* Call each(label, context) for every mark of `set`, in increasing order. */
void chain_sets_each_mark(const struct chain_sets *cs, uint32_t set,
                          void (*each)(uint32_t label, void *context), void *context);
/* Forget every set but the empty one and ids[0 .. n) (with the memo entries
 * of the others), and renumber those: ids[i] becomes the new id of its set,
 * in the same order.  Every other id held is invalid afterwards. */
void chain_sets_collect(struct chain_sets *cs, uint32_t *ids, size_t n);
/* (The accumulator is emptied by a collection.) */
/* Bytes held, for the parser's memory budget. */
size_t chain_sets_memory(const struct chain_sets *cs);

#endif
