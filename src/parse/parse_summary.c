/* parse_summary: what a per-set parse (parse_kpaths) keeps, and its fast path.
 *
 * A per-set parse keeps no forest: when a set ends, its symbols and items
 * are summarized (their k-paths as chain sets, their tree counts) and their
 * derivations dropped; the items and chain sets nothing refers to any more
 * are collected; and runs of sets that would hold the same few items are
 * stood for without being built (the deterministic fast path).  Called by
 * parse_earley.c; calls parse_replay.c (the values programs of a set being
 * recorded, forgetting states) and parse_forest.c (parse_internal.h). */
#include "parse/parse_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/saturate.h"
#include "base/xalloc.h"
#include "parse/chain_sets.h"
#include "parse/lookahead.h"
#include "parse/parse_det.h"

/* ---- per-set summaries (parse_kpaths) ----------------------------------------
 * When a set ends, its symbols and advanced items will never get another
 * derivation: every later use refers to them whole.  So their k-path
 * summaries (chain_sets.h) and tree counts are final and can replace the
 * derivations, which are dropped.  Within a set, derivations may refer to
 * each other in any creation order (a symbol gets a second derivation after a
 * waiter has used it) and in cycles (empty spans, unit cycles), so the set's
 * local dependency graph is taken in strongly connected components, children
 * first (Tarjan, with an explicit stack).  A component with a cycle has
 * infinitely many trees, as forest_count_trees says of a cycle it reaches; its
 * summaries are iterated until they stop growing. */

/* Empty the caches of mark sets (all NONE): at the start, and when the
 * chain sets are collected. */
void forget_marks(struct forest *f)
{
    memset(f->node_marks, 0xff, ((size_t)f->graph->nnodes + 1) * sizeof *f->node_marks);
    memset(f->edge_marks, 0xff, (graph_edge_count(f->graph) + 1) * sizeof *f->edge_marks);
}

/* The set of the one mark of expansion (node, decision), or the empty set
 * when it uses none; cached in `cache` at `at`. */
static uint32_t expansion_mark(const struct parser *p, uint32_t *cache, uint32_t at,
                               uint32_t node, uint32_t decision)
{
    if (cache[at] == NONE) {
        uint32_t id = expansion_id(p->g, node, decision);
        cache[at] = id == EXPANSION_NONE ? CHAIN_SET_EMPTY : chain_sets_mark(p->f->chains, id);
    }
    return cache[at];
}

/* The mark of alt node `alt` deriving its alternative `child`.  Alternatives
 * are distinct nodes: the chosen one by its node. */
static uint32_t alternative_mark(const struct parser *p, uint32_t alt, uint32_t child)
{
    const struct graph_node *n = &p->g->nodes[alt];
    const uint32_t *kids = graph_children(p->g, alt);
    uint32_t i = 0;
    while (i < n->nchildren && kids[i] != child)
        i++;
    if (i == n->nchildren)
        return CHAIN_SET_EMPTY;
    return expansion_mark(p, p->f->edge_marks, n->first_child + i, alt, i);
}

/* The end of the summary of a symbol of `node` (a real node) in the
 * accumulator, after its derivations' summaries (and, for an alternation,
 * the marks of the alternatives they took): the node's own expansion mark
 * unless it has marks per alternative, and its extension when symbolic. */
static void symbol_tail(struct parser *p, uint32_t node, bool alt_marks)
{
    struct chain_sets *cs = p->f->chains;
    if (p->f->node_marks && !alt_marks) {
        uint32_t mark = expansion_mark(p, p->f->node_marks, node, node, 0);
        chain_sets_acc_add(cs, mark);
        PROG(prog_op(p, PROG_CONST, mark));
    }
    if (node_kind_is_symbolic(p->g->nodes[node].kind)) {
        chain_sets_acc_extend(cs, node);
        PROG(prog_op(p, PROG_EXTEND, node));
    }
}

/* The value of local id `id` from its derivations' current values. */
static struct value local_value(struct parser *p, uint32_t id)
{
    const struct forest *f = p->f;
    struct chain_sets *cs = f->chains;
    struct value v = {CHAIN_SET_EMPTY, 0, false};
    if (id < f->nsymbols) {
        const struct symbol *s = &SYMBOL(f, id);
        bool unit = node_is_unit(f, s->node);
        bool real = s->node < p->g->nnodes; /* not the virtual start */
        bool alt_marks = f->node_marks && real && p->g->nodes[s->node].kind == NODE_ALT;
        if (s->derivs == NONE)
            v.count = 1; /* a leaf */
        chain_sets_acc_start(cs);
        for (uint32_t c = s->derivs, d; list_next_in(f->dlinks, &c, &d);) {
            struct value dv = unit ? (struct value){p->sum.summary[d], p->sum.count[d],
                                                    p->sum.infinite[d]}
                                   : item_value(p, d);
            chain_sets_acc_add(cs, dv.summary);
            if (unit)
                PROG(prog_symbol(p, d));
            else
                PROG(prog_item(p, d));
            if (alt_marks) {
                uint32_t mark = alternative_mark(p, s->node, SYMBOL(f, d).node);
                chain_sets_acc_add(cs, mark);
                PROG(prog_op(p, PROG_CONST, mark));
            }
            v.count = sat_add(v.count, dv.count);
            v.infinite = v.infinite || dv.infinite;
        }
        if (real)
            symbol_tail(p, s->node, alt_marks);
        v.summary = chain_sets_acc_take(cs);
        return v;
    }
    uint32_t item = p->set_first_item + (id - (uint32_t)f->nsymbols);
    uint32_t head = item_packed(f, item);
    if (head == NONE)
        v.count = 1;
    chain_sets_acc_start(cs);
    for (uint32_t pk = head; pk != NONE; pk = PACKED(f, pk).next) {
        struct value left = item_value(p, PACKED(f, pk).left);
        uint32_t r = PACKED(f, pk).right;
        chain_sets_acc_add(cs, left.summary);
        chain_sets_acc_add(cs, p->sum.summary[r]);
        PROG(prog_item(p, PACKED(f, pk).left));
        PROG(prog_symbol(p, r));
        v.count = sat_add(v.count, sat_mul(left.count, p->sum.count[r]));
        v.infinite = v.infinite || left.infinite || p->sum.infinite[r];
    }
    v.summary = chain_sets_acc_take(cs);
    return v;
}

/* The local dependencies of every local id, as CSR arrays. */
static void local_edges(struct parser *p, uint32_t nlocal)
{
    struct forest *f = p->f;
    struct summarizer *z = &p->sum;
    size_t n = 0;
    for (uint32_t id = 0; id < nlocal; id++) {
        z->edge_start[id] = (uint32_t)n;
        if (id < f->nsymbols) {
            const struct symbol *s = &SYMBOL(f, id);
            bool unit = node_is_unit(f, s->node);
            for (uint32_t c = s->derivs, d; list_next_in(f->dlinks, &c, &d);) {
                uint32_t to = unit ? d : local_item(p, d);
                if (to == NONE)
                    continue;
                z->edges = xgrow(z->edges, &z->edges_cap, n + 1, sizeof *z->edges);
                z->edges[n++] = to;
            }
            continue;
        }
        uint32_t item = p->set_first_item + (id - (uint32_t)f->nsymbols);
        if (ITEM(f, item).dot == 0)
            continue;
        for (uint32_t pk = item_packed(f, item); pk != NONE; pk = PACKED(f, pk).next) {
            uint32_t left = PACKED(f, pk).left == NONE ? NONE : local_item(p, PACKED(f, pk).left);
            z->edges = xgrow(z->edges, &z->edges_cap, n + 2, sizeof *z->edges);
            if (left != NONE)
                z->edges[n++] = left;
            z->edges[n++] = PACKED(f, pk).right;
        }
    }
    z->edge_start[nlocal] = (uint32_t)n;
}

/* Values for one strongly connected component, scc[0 .. n). */
static void component_values(struct parser *p, const uint32_t *scc, size_t n)
{
    struct summarizer *z = &p->sum;
    bool cyclic = n > 1;
    for (uint32_t e = z->edge_start[scc[0]]; !cyclic && e < z->edge_start[scc[0] + 1]; e++)
        cyclic = z->edges[e] == scc[0];
    if (!cyclic) {
        struct value v = local_value(p, scc[0]);
        z->summary[scc[0]] = v.summary, z->count[scc[0]] = v.count, z->infinite[scc[0]] = v.infinite;
        return;
    }
    for (size_t i = 0; i < n; i++)
        z->infinite[scc[i]] = true, z->count[scc[i]] = UINT64_MAX;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            uint32_t summary = local_value(p, scc[i]).summary;
            if (summary != z->summary[scc[i]])
                z->summary[scc[i]] = summary, changed = true;
        }
    }
}

/* Did everything of the set depend only on what was made before it?  Then
 * the order things were made in is a topological order of the dependencies
 * (no cycle, no derivation added to a value already made), and the values
 * are worked out in that order, without looking for strongly connected
 * components (summarize_set's general way).  An unambiguous parse's sets are
 * nearly all like that.  Returns false, computing nothing, when the set is
 * not. */
static bool summarize_in_order(struct parser *p)
{
    struct forest *f = p->f;
    struct summarizer *z = &p->sum;
    uint32_t nsym = (uint32_t)f->nsymbols, first = p->set_first_item;
    uint32_t nitems = (uint32_t)(f->nitems - first);
    for (uint32_t s = 0; s < nsym; s++) {
        const struct symbol *sy = &SYMBOL(f, s);
        bool unit = node_is_unit(f, sy->node);
        for (uint32_t c = sy->derivs, d; list_next_in(f->dlinks, &c, &d);) {
            if (unit ? d >= s : (d >= first && ITEM(f, d).dot && d - first >= z->items_before[s]))
                return false;
        }
    }
    for (uint32_t i = 0; i < nitems; i++) {
        uint32_t item = first + i;
        if (ITEM(f, item).dot == 0)
            continue;
        for (uint32_t pk = ITEM(f, item).list; pk != NONE; pk = PACKED(f, pk).next) {
            uint32_t left = PACKED(f, pk).left;
            if (left != NONE && left >= item)
                return false;
            if (z->items_before[PACKED(f, pk).right] > i)
                return false;
        }
    }
    if (p->rec) { /* a set being recorded: its values program too */
        p->prog_on = p->prog_ok = true;
        p->nprog = 0, p->prog_values = 0;
        p->prog_index = xgrow(p->prog_index, &p->prog_index_cap, (size_t)nsym + nitems,
                              sizeof *p->prog_index);
        for (uint32_t id = 0; id < nsym + nitems; id++)
            p->prog_index[id] = NONE;
    }
    uint32_t i = 0;
    for (uint32_t s = 0; s <= nsym; s++) {
        uint32_t upto = s < nsym ? z->items_before[s] : nitems;
        for (; i < upto; i++) {
            if (ITEM(f, first + i).dot == 0)
                continue;
            uint32_t id = nsym + i;
            struct value v = local_value(p, id);
            z->summary[id] = v.summary, z->count[id] = v.count, z->infinite[id] = v.infinite;
            PROG(prog_op(p, PROG_TAKE, 0));
            if (p->prog_on)
                prog_value(p, id, v);
        }
        if (s < nsym) {
            struct value v = local_value(p, s);
            z->summary[s] = v.summary, z->count[s] = v.count, z->infinite[s] = v.infinite;
            PROG(prog_op(p, PROG_TAKE, 0));
            if (p->prog_on)
                prog_value(p, s, v);
        }
    }
    for (i = 0; i < nitems; i++)
        if (ITEM(f, first + i).dot)
            PROG(prog_op(p, PROG_OUT, p->prog_index[nsym + i]));
    p->prog_on = false;
    return true;
}

static void store_item_values(struct parser *p);

void summarize_set(struct parser *p)
{
    struct forest *f = p->f;
    struct summarizer *z = &p->sum;
    size_t nlocal = f->nsymbols + (f->nitems - p->set_first_item);
    if (nlocal + 1 > z->cap) {
        size_t cap = z->cap;
        z->summary = xgrow(z->summary, &cap, nlocal + 1, sizeof *z->summary);
        cap = z->cap;
        z->count = xgrow(z->count, &cap, nlocal + 1, sizeof *z->count);
        cap = z->cap;
        z->infinite = xgrow(z->infinite, &cap, nlocal + 1, sizeof *z->infinite);
        cap = z->cap;
        z->edge_start = xgrow(z->edge_start, &cap, nlocal + 1, sizeof *z->edge_start);
        cap = z->cap;
        z->index = xgrow(z->index, &cap, nlocal + 1, sizeof *z->index);
        cap = z->cap;
        z->low = xgrow(z->low, &cap, nlocal + 1, sizeof *z->low);
        cap = z->cap;
        z->on_stack = xgrow(z->on_stack, &cap, nlocal + 1, sizeof *z->on_stack);
        cap = z->cap;
        z->stack = xgrow(z->stack, &cap, nlocal + 1, sizeof *z->stack);
        cap = z->cap;
        z->scc = xgrow(z->scc, &cap, nlocal + 1, sizeof *z->scc);
        z->cap = cap;
    }
    if (summarize_in_order(p)) {
        store_item_values(p);
        return;
    }
    p->stats.sets_by_components++;
    for (size_t i = 0; i < nlocal; i++) {
        z->summary[i] = CHAIN_SET_EMPTY, z->count[i] = 1, z->infinite[i] = false;
        z->index[i] = NONE, z->on_stack[i] = false;
    }
    local_edges(p, (uint32_t)nlocal);
    uint32_t counter = 0;
    size_t nstack = 0;
    for (uint32_t root = 0; root < nlocal; root++) {
        if (z->index[root] != NONE)
            continue;
        size_t nframes = 0;
        z->frames = xgrow(z->frames, &z->frames_cap, 1, sizeof *z->frames);
        z->frames[nframes].node = root, z->frames[nframes++].edge = z->edge_start[root];
        z->index[root] = z->low[root] = counter++;
        z->stack[nstack++] = root, z->on_stack[root] = true;
        while (nframes) {
            uint32_t v = z->frames[nframes - 1].node;
            uint32_t e = z->frames[nframes - 1].edge;
            if (e < z->edge_start[v + 1]) {
                z->frames[nframes - 1].edge = e + 1;
                uint32_t w = z->edges[e];
                if (z->index[w] == NONE) {
                    z->index[w] = z->low[w] = counter++;
                    z->stack[nstack++] = w, z->on_stack[w] = true;
                    z->frames = xgrow(z->frames, &z->frames_cap, nframes + 1, sizeof *z->frames);
                    z->frames[nframes].node = w, z->frames[nframes++].edge = z->edge_start[w];
                } else if (z->on_stack[w] && z->index[w] < z->low[v]) {
                    z->low[v] = z->index[w];
                }
                continue;
            }
            nframes--;
            if (nframes) {
                uint32_t parent = z->frames[nframes - 1].node;
                if (z->low[v] < z->low[parent])
                    z->low[parent] = z->low[v];
            }
            if (z->low[v] != z->index[v])
                continue;
            size_t n = 0;
            uint32_t w;
            do {
                w = z->stack[--nstack];
                z->on_stack[w] = false;
                z->scc[n++] = w;
            } while (w != v);
            component_values(p, z->scc, n);
        }
    }
    store_item_values(p);
}

/* The set's items take their values: an advanced item keeps its summary
 * (in place of its derivations, which go with the set) and its tree count. */
static void store_item_values(struct parser *p)
{
    struct forest *f = p->f;
    struct summarizer *z = &p->sum;
    for (uint32_t item = p->set_first_item; item < f->nitems; item++) {
        uint32_t id = local_item(p, item);
        if (id == NONE)
            continue;
        ITEM(f, item).list = z->summary[id];
        if (f->counting && (z->count[id] != 1 || z->infinite[id]))
            counts_put(f->counts, item, z->count[id], z->infinite[id]);
    }
}

void summarizer_free(struct summarizer *z)
{
    free(z->items_before);
    free(z->summary);
    free(z->count);
    free(z->infinite);
    free(z->edge_start);
    free(z->edges);
    free(z->index);
    free(z->low);
    free(z->on_stack);
    free(z->stack);
    free(z->scc);
    free(z->frames);
}

/* Bytes of a per-set parse's summaries and scratch. */
size_t summarizer_memory(const struct parser *p)
{
    const struct summarizer *z = &p->sum;
    const struct forest *f = p->f;
    size_t per_local = sizeof *z->summary + sizeof *z->count + sizeof *z->infinite +
                       sizeof *z->edge_start + sizeof *z->index + sizeof *z->low +
                       sizeof *z->on_stack + sizeof *z->stack + sizeof *z->scc;
    size_t counts = f->counts ? f->counts->allocated * CHUNK_LEN * sizeof(struct item_count) +
                                    f->counts->nchunks * sizeof(void *)
                              : 0;
    return z->cap * per_local + z->edges_cap * sizeof *z->edges +
           z->items_before_cap * sizeof *z->items_before +
           z->frames_cap * sizeof *z->frames + chain_sets_memory(f->chains) + counts +
           f->dlinks_cap * sizeof *f->dlinks;
}

/* ---- collecting items (parse_kpaths) -----------------------------------------
 * In a per-set parse an item of a finished set is needed only while
 * something may still advance or complete through it: the waiters of pending
 * leaves, their predictions (whose waiters a completion advances), those
 * waiters' predictions, and so on.  Everything else (the items of closed
 * values, which is nearly all of them) is dead: its summary has been taken
 * up into the sets after it.  Between two sets, collect_items marks what is
 * reachable from the pending waiters, then slides the kept items down in
 * order (an item's new index is the number kept before it), rewriting the
 * indices held elsewhere: predictions of advanced items, waiter lists (and
 * their links), pending advances, tree counts.  It runs when the items have
 * doubled since the last collection (and at least COLLECT_MIN_ITEMS are
 * there), so its cost is proportional to the items made. */

static inline bool is_live(const struct parser *p, uint32_t item)
{
    return (p->live[item >> 6] >> (item & 63)) & 1;
}

/* The index of a kept item after the collection. */
static inline uint32_t live_index(const struct parser *p, uint32_t item)
{
    uint64_t below = p->live[item >> 6] & ((UINT64_C(1) << (item & 63)) - 1);
    return p->live_rank[item >> 6] + (uint32_t)__builtin_popcountll(below);
}

static void mark_live(struct parser *p, size_t *depth, uint32_t item)
{
    if (is_live(p, item))
        return;
    p->live[item >> 6] |= UINT64_C(1) << (item & 63);
    p->marking = xgrow(p->marking, &p->marking_cap, *depth + 1, sizeof *p->marking);
    p->marking[(*depth)++] = item;
}

/* The chain sets that no kept item refers to go too (chain_sets_collect),
 * when they have doubled since the last time; the cached sets of marks are
 * made again when needed. */
static void collect_sets(struct parser *p)
{
    struct forest *f = p->f;
    p->stats.set_collections++;
    size_t n = 0;
    for (size_t i = 0; i < f->nitems; i++)
        if (ITEM(f, i).dot) {
            p->marking = xgrow(p->marking, &p->marking_cap, n + 1, sizeof *p->marking);
            p->marking[n++] = ITEM(f, i).list;
        }
    chain_sets_collect(f->chains, p->marking, n);
    n = 0;
    for (size_t i = 0; i < f->nitems; i++)
        if (ITEM(f, i).dot)
            ITEM(f, i).list = p->marking[n++];
    if (f->node_marks)
        forget_marks(f);
    for (size_t i = 0; i < p->det_summary_cap; i++)
        p->det_summary[i] = NONE;
    if (p->states) /* the values of transitions name chain sets */
        states_clear(p);
    p->collect_sets_at = 2 * chain_sets_memory(f->chains) + COLLECT_MIN_SET_BYTES;
}

void collect_items(struct parser *p)
{
    struct forest *f = p->f;
    p->stats.item_collections++;
    p->virtual_items = 0;
    size_t n = f->nitems, words = (n + 63) / 64;
    p->live = xgrow(p->live, &p->live_cap, words + 1, sizeof *p->live);
    p->live_rank = xgrow(p->live_rank, &p->live_rank_cap, words + 1, sizeof *p->live_rank);
    memset(p->live, 0, (words + 1) * sizeof *p->live);
    size_t depth = 0;
    for (size_t slot = 0; slot <= p->pending_mask; slot++)
        for (uint32_t e = p->pending_head[slot]; e != NONE; e = PENDING(p, e).next)
            mark_live(p, &depth, PENDING(p, e).waiter);
    while (depth) {
        uint32_t item = p->marking[--depth];
        if (ITEM(f, item).dot) {
            mark_live(p, &depth, ITEM(f, item).anchor);
            continue;
        }
        for (uint32_t c = ITEM(f, item).list, w; list_next(f, &c, &w);)
            mark_live(p, &depth, w);
    }
    uint32_t kept = 0;
    for (size_t w = 0; w < words; w++) {
        p->live_rank[w] = kept;
        kept += (uint32_t)__builtin_popcountll(p->live[w]);
    }
    /* Slide down; new indices never pass old ones, so in place, in order.
     * Waiter lists get fresh links; tree counts a fresh table. */
    struct link *links = NULL;
    size_t nlinks = 0, links_cap = 0;
    struct item_counts *counts = f->counts ? xcalloc(1, sizeof *counts) : NULL;
    for (size_t w = 0; w < words; w++) {
        for (uint64_t bits = p->live[w]; bits; bits &= bits - 1) {
            uint32_t item = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
            uint32_t to = live_index(p, item);
            struct item it = ITEM(f, item);
            if (it.dot) {
                it.anchor = live_index(p, it.anchor);
                if (counts) {
                    bool infinite;
                    uint64_t count = counts_get(f->counts, item, &infinite);
                    if (count != 1 || infinite)
                        counts_put(counts, to, count, infinite);
                }
            } else {
                /* The same list in the same order: its values (newest
                 * first) on the marking stack, empty now, then prepended
                 * from the earliest on. */
                size_t nvalues = 0;
                for (uint32_t c = it.list, v; list_next(f, &c, &v);) {
                    p->marking = xgrow(p->marking, &p->marking_cap, nvalues + 1,
                                       sizeof *p->marking);
                    p->marking[nvalues++] = live_index(p, v);
                }
                it.list = NONE;
                while (nvalues)
                    it.list = list_push_in(&links, &nlinks, &links_cap, it.list,
                                           p->marking[--nvalues]);
            }
            ITEM(f, to) = it;
        }
    }
    free(f->links);
    f->links = links, f->nlinks = nlinks, f->links_cap = links_cap;
    if (counts) {
        counts_free(f->counts);
        f->counts = counts;
    }
    for (size_t slot = 0; slot <= p->pending_mask; slot++)
        for (uint32_t e = p->pending_head[slot]; e != NONE; e = PENDING(p, e).next)
            PENDING(p, e).waiter = live_index(p, PENDING(p, e).waiter);
    /* The chunks past the kept items stay, spare, for the items to come
     * (item_room): the parse held them a moment ago. */
    f->items_chunks = ((size_t)kept + CHUNK_LEN - 1) >> CHUNK_BITS;
    f->nitems = kept;
    p->collect_at = 2 * (size_t)kept + COLLECT_MIN_ITEMS;
    if (chain_sets_memory(f->chains) >= p->collect_sets_at) {
        /* The chain sets' tables are made anew: they take the spare chunks'
         * memory instead of fresh pages. */
        for (size_t c = f->items_chunks; c < f->items_allocated; c++)
            free(f->items[c]);
        f->items_allocated = f->items_chunks;
        collect_sets(p);
    }
}

/* ---- the deterministic fast path (parse_kpaths) ---------------------------
 * After set j, when the parse's only way on is one leaf pending at j + 1,
 * reached from a quantifier item X = (q, d, o) of set j through the
 * predictions of one deterministic unit chain (parse_det.h) from q's child c,
 * each set from j + 1 on holds the same few items for as long as the next
 * character ch keeps the step deterministic: the chain completes (ch can
 * follow each of its nodes), X advances to (q, d + 1, o), q does not
 * complete (ch cannot follow q, or d + 1 is below its minimum), q may repeat
 * once more (d + 1 below its maximum), and predicting c leaves one
 * deterministic chain again: (c, ch)'s.  Such a set is not built.  What
 * the parse keeps of it is what summarize_set would have kept: X's next
 * summary, the union of X's with the chain's (the chain's is the same at
 * every step, so it is made once per chain), and its tree count, X's times
 * one.  When the next step is not like that (the closing quote of a string,
 * an escape, the end of the input), the last set stood for is written as the
 * parser leaves a set (X's item, the chain's predictions, each waiting on the
 * one before, and the pending leaf) and full Earley sets go on from there.
 * Returns the last set stood for (j when none); p->ff_shape says whether
 * none was because of the shape of set j, and if not, p->ff_x and
 * p->ff_chain are the item X and the chain it found (see run: after a
 * replayed set the shape is its transition's, so the answer is remembered
 * per transition and given back as p->ff_hint_x and p->ff_hint_chain). */

/* The summary of the top symbol of chain `id` over one character. */
static uint32_t chain_summary(struct parser *p, uint32_t id)
{
    if (id >= p->det_summary_cap) {
        size_t old = p->det_summary_cap;
        p->det_summary = xgrow(p->det_summary, &p->det_summary_cap, (size_t)id + 1,
                               sizeof *p->det_summary);
        for (size_t i = old; i < p->det_summary_cap; i++)
            p->det_summary[i] = NONE;
    }
    if (p->det_summary[id] != NONE)
        return p->det_summary[id];
    struct chain_sets *cs = p->f->chains;
    uint32_t k, leaf;
    const uint32_t *nodes = parse_det_nodes(p->det, id, &k, &leaf);
    chain_sets_acc_start(cs);
    symbol_tail(p, leaf, false);
    uint32_t summary = chain_sets_acc_take(cs), below = leaf;
    for (uint32_t i = k; i-- > 0;) {
        bool alt_marks = p->f->node_marks && p->g->nodes[nodes[i]].kind == NODE_ALT;
        chain_sets_acc_start(cs);
        chain_sets_acc_add(cs, summary);
        if (alt_marks)
            chain_sets_acc_add(cs, alternative_mark(p, nodes[i], below));
        symbol_tail(p, nodes[i], alt_marks);
        summary = chain_sets_acc_take(cs);
        below = nodes[i];
    }
    p->det_summary[id] = summary;
    return summary;
}

/* The row of fast_forward's steps from chain `chain` under quantifier q
 * (see struct parser), room made; emptied when it was another q's. */
static uint32_t *ff_step_row(struct parser *p, uint32_t chain, uint32_t q)
{
    if (chain >= p->ff_step_cap) {
        size_t old = p->ff_step_cap, cap = old ? old : 16;
        while (cap <= chain)
            cap *= 2;
        p->ff_step = xrealloc(p->ff_step, cap * sizeof *p->ff_step);
        p->ff_step_q = xrealloc(p->ff_step_q, cap * sizeof *p->ff_step_q);
        for (size_t i = old; i < cap; i++)
            p->ff_step[i] = NULL, p->ff_step_q[i] = NONE;
        p->ff_step_cap = cap;
    }
    if (!p->ff_step[chain]) {
        p->ff_step[chain] = xmalloc(128 * sizeof **p->ff_step);
        p->ff_step_rows++;
    }
    if (p->ff_step_q[chain] != q) {
        for (uint32_t ch = 0; ch < 128; ch++)
            p->ff_step[chain][ch] = PARSE_DET_UNKNOWN;
        p->ff_step_q[chain] = q;
    }
    return p->ff_step[chain];
}

uint32_t fast_forward(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    const struct graph *g = p->g;
    p->ff_shape = false, p->ff_x = NONE;
    if (!p->lookahead || j + 1 >= f->len)
        return j;
    /* From here on every test that fails is about the set's shape: its
     * items and pending leaves, and the character it was entered with. */
    p->ff_shape = true;
    if (p->last_pending != j + 1)
        return j;
    uint32_t slot = (j + 1) & p->pending_mask;
    uint32_t e = p->pending_head[slot];
    if (e == NONE || PENDING(p, e).next != NONE)
        return j;
    uint32_t x, chain, k, leaf;
    const uint32_t *nodes;
    if (p->ff_hint_x != NONE) {
        /* The shape of a transition whose set the fast path took before. */
        x = p->ff_hint_x, chain = p->ff_hint_chain;
        nodes = parse_det_nodes(p->det, chain, &k, &leaf);
    } else {
        /* Up from the leaf's waiter through unit predictions of this set,
         * each with one waiter, to X. */
        uint32_t depth = 0;
        x = PENDING(p, e).waiter;
        while (x >= p->set_first_item && ITEM(f, x).dot == 0 && node_is_unit(f, ITEM(f, x).node)) {
            uint32_t l = ITEM(f, x).list;
            if (++depth > PARSE_DET_MAX_CHAIN || l == NONE || !(l & LIST_ONE))
                return j;
            x = l & ~LIST_ONE;
        }
        uint32_t xnode = ITEM(f, x).node;
        if (x < p->set_first_item || xnode == f->start_node || g->nodes[xnode].kind != NODE_QUANT)
            return j;
        chain = parse_det_chain(p->det, graph_children(g, xnode)[0], text_at(f, j));
        if (chain == PARSE_DET_NONE)
            return j;
        nodes = parse_det_nodes(p->det, chain, &k, &leaf);
        if (k != depth || leaf != PENDING(p, e).symbol)
            return j;
        for (uint32_t i = k, y = PENDING(p, e).waiter; i-- > 0; y = ITEM(f, y).list & ~LIST_ONE)
            if (ITEM(f, y).node != nodes[i])
                return j;
    }
    p->ff_shape = false;
    p->ff_x = x, p->ff_chain = chain;
    struct item X = ITEM(f, x);
    uint32_t q = X.node, c = graph_children(g, q)[0];
    /* The steps. */
    uint32_t min = g->nodes[q].expr->u.quant.min, max = g->nodes[q].expr->u.quant.max;
    uint32_t dot = X.dot, summary = X.dot ? X.list : CHAIN_SET_EMPTY;
    uint32_t last_in = NONE, last_chain = NONE, last_out = NONE;
    struct chain_sets *cs = f->chains;
    size_t stood_for = 0;
    uint32_t m = j + 1;
    /* The step row of chain row_chain (most steps stay on one chain; a row
     * does not move while q is the quantifier), and the unit nodes of the
     * chain stepped to. */
    uint32_t *row = NULL, row_chain = NONE;
    uint32_t next_k = k;
    for (; m < f->len; m++) {
        if (chain == row_chain && chain == last_chain && summary == last_in &&
            last_out == summary && f->narrow && dot + 1 >= min && dot + 1 < max) {
            /* A run: the step row says ch keeps the chain, and the summary
             * no longer grows (the union with the chain's is itself), so
             * each step only counts: dot and the items stood for. */
            uint32_t limit = f->len - m < max - 1 - dot ? f->len : m + (max - 1 - dot);
            uint32_t from = m;
            const unsigned char *text = f->narrow;
            while (m < limit && text[m] < 128 && row[text[m]] == chain)
                m++;
            dot += m - from;
            stood_for += (size_t)(m - from) * (1 + next_k);
            if (m == f->len)
                break;
        }
        uint32_t ch = text_at(f, m), next;
        if (ch < 128 && dot + 1 >= min && dot + 1 < max) {
            /* Past the minimum, a step by ASCII ch from chain is the same
             * every time: worked out once, then an array lookup. */
            if (chain != row_chain)
                row = ff_step_row(p, chain, q), row_chain = chain;
            next = row[ch];
            if (next == PARSE_DET_UNKNOWN) {
                next = PARSE_DET_NONE;
                if (parse_det_followed_by(p->det, chain, ch) &&
                    !lookahead_has(p->follow[q], p->follow_high[q], ch))
                    next = parse_det_chain(p->det, c, ch);
                row[ch] = next;
            }
            if (next == PARSE_DET_NONE)
                break;
        } else {
            if (!parse_det_followed_by(p->det, chain, ch) || dot + 1 >= max ||
                (dot + 1 >= min && lookahead_has(p->follow[q], p->follow_high[q], ch)))
                break;
            next = parse_det_chain(p->det, c, ch);
            if (next == PARSE_DET_NONE)
                break;
        }
        if (summary != last_in || chain != last_chain) {
            last_chain = chain;
            uint32_t s = chain_summary(p, chain);
            chain_sets_acc_start(cs);
            chain_sets_acc_add(cs, summary);
            chain_sets_acc_add(cs, s);
            last_out = chain_sets_acc_take(cs);
            /* A union with the chain's summary again is the same set: the
             * next step from last_out on this chain needs no union. */
            last_in = last_out;
        }
        summary = last_out;
        dot++;
        if (next != chain) {
            chain = next;
            parse_det_nodes(p->det, chain, &next_k, &leaf);
        }
        stood_for += 1 + next_k;
    }
    if (m == j + 1)
        return j;
    /* Set m - 1, as the parser leaves it. */
    uint32_t at = m - 1;
    nodes = parse_det_nodes(p->det, chain, &k, &leaf);
    item_room(f);
    uint32_t idx = (uint32_t)f->nitems++;
    ITEM(f, idx) = (struct item){q, dot, X.dot ? X.anchor : x, summary};
    if (f->counting && X.dot) {
        bool infinite;
        uint64_t count = counts_get(f->counts, x, &infinite);
        if (count != 1 || infinite)
            counts_put(f->counts, idx, count, infinite);
    }
    uint32_t waiter = idx;
    for (uint32_t i = 0; i < k; i++) {
        item_room(f);
        uint32_t pr = (uint32_t)f->nitems++;
        ITEM(f, pr) = (struct item){nodes[i], 0, at, waiter | LIST_ONE};
        waiter = pr;
    }
    p->pending_head[slot] = NONE;
    PENDING(p, e) = (struct pending){waiter, leaf, NONE};
    p->pending_head[m & p->pending_mask] = e;
    p->last_pending = m;
    p->stats.items_made += stood_for;
    p->stats.items_skipped += stood_for - (1 + k);
    p->stats.sets_skipped += at - j;
    p->virtual_items += stood_for - (1 + k);
    if (f->nitems > p->stats.items_peak)
        p->stats.items_peak = f->nitems;
    return at;
}
