/* derivation: derivation trees, as instances of grammar graph nodes.
 *
 * A reference instance has one child (its rule's node), an alt exactly one (the
 * chosen alternative), a cat one per item, a quant between min and max, each an
 * instance of its child; a class leaf records the character it produced.
 *
 * Trees grow one decision at a time: an instance starts *open* (a slot) and
 * derivation_expand fills it, creating its children as new open slots.  That is the
 * step every generator takes, and what the stepper shows.  Instances live in
 * one array; a child always comes after its parent, so a forward loop visits
 * parents first and nothing here recurses on tree depth.
 *
 * Ownership: the tree owns its arrays and borrows the graph. */
#ifndef KPATH_DERIVATION_H
#define KPATH_DERIVATION_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"
#include "graph/kpath.h"
#include "base/strbuf.h"

#define DTREE_NONE UINT32_MAX

struct derivation_inst {
    uint32_t node;        /* graph node id */
    uint32_t parent;      /* instance index, DTREE_NONE for the root */
    uint32_t first_child; /* into derivation.kids */
    uint32_t nchildren;
    uint32_t ch;          /* class leaves: the character produced */
    bool open;            /* not expanded yet */
};

struct derivation {
    const struct graph *graph; /* borrowed */
    struct derivation_inst *insts;  /* owned; [0] is the root */
    size_t len, cap;
    uint32_t *kids;            /* owned; children lists, contiguous per instance */
    size_t nkids, kids_cap;
    size_t open;               /* open instances */
};

/* A complete tree in a few bytes per instance (variable-length numbers:
 * the order in which instances were expanded and the decisions taken), for
 * keeping many finished trees: derivation_unpack rebuilds exactly the tree that
 * was packed, the same instances in the same order (every field but
 * first_child of instances without children, which means nothing), so
 * whatever walks the rebuilt tree sees what it would have seen in the
 * original.  Only complete trees built by derivation_expand (or derivation_replay)
 * can be packed.  Ownership: `bytes` is owned. */
struct derivation_packed {
    uint8_t *bytes;
    size_t len;
};

void derivation_pack(const struct derivation *t, struct derivation_packed *out);
/* Rebuild into `out` (initialized here; free it with derivation_free). */
void derivation_unpack(const struct derivation_packed *p, const struct graph *g, struct derivation *out);
void derivation_packed_free(struct derivation_packed *p);
/* How many trees derivation_unpack has rebuilt in this process, all threads
 * together: a test seam, so tests can check that work meant to keep trees
 * packed (drop_redundant in gen.c) rebuilds none. */
uint64_t derivation_unpack_count(void);

/* A tree with one open instance of `node` (the graph root for a whole input). */
void derivation_init(struct derivation *t, const struct graph *g, uint32_t node);
void derivation_free(struct derivation *t);
void derivation_copy(struct derivation *dst, const struct derivation *src);

/* Fill open instance `inst`.  The decision depends on the node: for an alt the
 * index of the alternative, for a quant the number of repetitions (min..max),
 * for a class the character (a member); refs, cats and literals take none
 * (pass 0).  Returns false, changing nothing, when the instance is not open or
 * the decision is not allowed. */
bool derivation_expand(struct derivation *t, uint32_t inst, uint32_t decision);
/* Does this node kind take a decision in derivation_expand? */
bool derivation_needs_decision(const struct graph *g, uint32_t node);

static inline bool derivation_complete(const struct derivation *t) { return t->open == 0; }
static inline const uint32_t *derivation_children(const struct derivation *t, uint32_t inst)
{
    return t->kids + t->insts[inst].first_child;
}

/* Expand open slots in pre-order (leftmost first), taking the next decision
 * from `decisions` for each slot that needs one, until the tree is complete or
 * the decisions run out.  Returns the number of decisions used, or -1 (and
 * *bad_at = the decision index) when a decision was not allowed. */
long derivation_replay(struct derivation *t, const uint32_t *decisions, size_t n, size_t *bad_at);

/* The decision an expanded instance was filled with, as derivation_expand took it
 * (0 for nodes that take none). */
uint32_t derivation_decision(const struct derivation *t, uint32_t inst);
/* The decisions of the tree's expanded instances in pre-order: what
 * derivation_replay takes, so replaying them rebuilds the tree.  A malloc'd array
 * of *n entries. */
uint32_t *derivation_decisions(const struct derivation *t, size_t *n);

/* The text the tree produces (open slots produce nothing). */
void derivation_text(const struct derivation *t, struct strbuf *out);
/* Reference instances on the longest root-to-leaf path. */
uint32_t derivation_depth(const struct derivation *t);

/* Call fn with each k-path of the tree (k ids), once per instance it ends at,
 * so a k-path occurring twice is passed twice. */
void derivation_foreach_kpath(const struct derivation *t, uint32_t k,
                         void (*fn)(const uint32_t *path, void *ctx), void *ctx);
/* Add every k-path of the tree (downward paths of k symbolic instances, each
 * the nearest symbolic descendant of the one before) to `set`; returns how many
 * were new.  Each k-path ends at a distinct instance and is found from there by
 * walking up, so this is O(instances * k), whatever the tree's shape. */
uint64_t derivation_add_kpaths(const struct derivation *t, struct kpath_set *set);

#endif
