/* parse_forest: the forest a parse leaves, and the passes over it.
 *
 * A forest holds the items, symbols, packed pairs and lists that
 * parse_earley.c makes.  This file frees it, keeps the tree counts of a
 * per-set parse's items (which parse_replay.c and parse_summary.c write),
 * and walks a finished forest for parse.h's forest_* functions: its tree
 * count, its k-paths, its expansions and its first tree.  The bottom of the
 * parser's files (parse_internal.h): it calls none of the others. */
#include "parse/parse_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/saturate.h"
#include "base/xalloc.h"
#include "parse/chain_sets.h"

void free_chunks(void *table, size_t nchunks)
{
    void **chunks = table;
    for (size_t i = 0; i < nchunks; i++)
        free(chunks[i]);
    free(chunks);
}

/* ---- tree counts of a per-set parse's items ------------------------------ */

void counts_put(struct item_counts *c, uint32_t item, uint64_t count, bool infinite)
{
    size_t chunk = (size_t)item >> CHUNK_BITS;
    if (chunk >= c->nchunks) {
        size_t cap = c->nchunks;
        c->chunks = xgrow(c->chunks, &cap, chunk + 1, sizeof *c->chunks);
        for (size_t i = c->nchunks; i < cap; i++)
            c->chunks[i] = NULL;
        c->nchunks = cap;
    }
    if (!c->chunks[chunk]) {
        c->chunks[chunk] = xmalloc(CHUNK_LEN * sizeof **c->chunks);
        for (size_t i = 0; i < CHUNK_LEN; i++)
            c->chunks[chunk][i] = (struct item_count){1, false};
        c->allocated++;
    }
    c->chunks[chunk][item & CHUNK_MASK] = (struct item_count){count, infinite};
}

void counts_free(struct item_counts *c)
{
    if (!c)
        return;
    free_chunks(c->chunks, c->nchunks);
    free(c);
}

/* ---- the forest ----------------------------------------------------------- */

void forest_free(struct forest *f)
{
    if (!f)
        return;
    chain_sets_free(f->chains);
    counts_free(f->counts);
    free(f->node_marks);
    free(f->edge_marks);
    free(f->dlinks);
    free(f->text);
    free(f->narrow_owned);
    free_chunks(f->items, f->items_allocated);
    free_chunks(f->packed, f->packed_chunks);
    free_chunks(f->symbols, f->symbols_chunks);
    free(f->links);
    free(f);
}

size_t forest_item_count(const struct forest *f)
{
    return f->nitems;
}

/* What the forest's arrays hold, in bytes. */
static size_t forest_memory(const struct forest *f)
{
    return f->nitems * sizeof **f->items + f->npacked * sizeof **f->packed +
           f->nsymbols * sizeof **f->symbols + f->nlinks * sizeof *f->links;
}

void forest_stats(const struct forest *f, struct forest_stats *out)
{
    out->chars = f->len;
    out->items = f->nitems;
    out->symbols = f->nsymbols;
    out->links = f->nlinks;
    out->packed = f->npacked;
    out->pending = f->npending_peak;
    out->bytes = forest_memory(f);
}

/* ---- forest traversals ------------------------------------------------------
 * Every traversal below uses an explicit stack.  Forest ids: symbols are
 * 0 .. nsymbols-1, items come after them. */

/* Forest ids stay below FRAME_POST (the parse stops before: see run), so a
 * frame of the traversal below is one id and this flag. */
#define FRAME_POST 0x80000000u

const char *forest_trees_text(uint64_t trees, char buf[FOREST_TREES_TEXT_SIZE])
{
    if (trees == FOREST_TREES_SATURATED)
        snprintf(buf, FOREST_TREES_TEXT_SIZE, "more than 2^64");
    else
        snprintf(buf, FOREST_TREES_TEXT_SIZE, "%" PRIu64, trees);
    return buf;
}

/* The tree counts of forest_count_trees, 4 bytes per symbol and item: a cell
 * is CELL_NEW (not visited), CELL_OPEN (on the path from the root), or done
 * with a count n: CELL_DONE + n while that is below CELL_BIG, else CELL_BIG + i
 * with the count in big[i] (large counts are rare: ambiguous forests only). */
#define CELL_NEW 0u
#define CELL_OPEN 1u
#define CELL_DONE 2u
#define CELL_BIG 0x80000000u
struct counts {
    uint32_t *cell;
    uint64_t *big;
    size_t nbig, big_cap;
};

static uint64_t count_of(const struct counts *c, uint32_t id)
{
    uint32_t v = c->cell[id];
    return v >= CELL_BIG ? c->big[v - CELL_BIG] : v - CELL_DONE;
}

static void set_count(struct counts *c, uint32_t id, uint64_t n)
{
    if (n < CELL_BIG - CELL_DONE) {
        c->cell[id] = (uint32_t)n + CELL_DONE;
        return;
    }
    /* 2^31 large counts would need a forest of more than 32 GiB; should it
     * come to that, the last slot is shared and holds the saturated count. */
    if (c->nbig == CELL_BIG - 1) {
        c->big[c->nbig - 1] = FOREST_TREES_SATURATED;
        c->cell[id] = CELL_BIG + (uint32_t)(c->nbig - 1);
        return;
    }
    c->big = xgrow(c->big, &c->big_cap, c->nbig + 1, sizeof *c->big);
    c->big[c->nbig] = n;
    c->cell[id] = CELL_BIG + (uint32_t)c->nbig++;
}

uint64_t forest_count_trees(const struct forest *f, bool *infinite)
{
    size_t S = f->nsymbols, total = S + f->nitems;
    struct counts counts = {xcalloc(total + 1, sizeof *counts.cell), NULL, 0, 0};
    uint32_t *cell = counts.cell;
    uint32_t *stack = NULL; /* ids; FRAME_POST: all children done */
    size_t depth = 0, cap = 0;
    *infinite = false;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = f->root;
    while (depth) {
        uint32_t top = stack[--depth];
        bool post = (top & FRAME_POST) != 0;
        uint32_t id = top & ~FRAME_POST;
        if (!post) {
            if (cell[id] != CELL_NEW)
                continue;
            cell[id] = CELL_OPEN;
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = id | FRAME_POST;
        }
        /* Children: a symbol's complete items; an item's left items and right symbols. */
        uint64_t value = 0;
        if (id < S) {
            uint32_t c = SYMBOL(f, id).derivs, d;
            if (c == NONE)
                value = 1; /* a leaf */
            size_t base = node_is_unit(f, SYMBOL(f, id).node) ? 0 : S;
            while (list_next(f, &c, &d)) {
                uint32_t child = (uint32_t)(base + d);
                if (!post) {
                    if (cell[child] == CELL_OPEN)
                        *infinite = true;
                    else if (cell[child] == CELL_NEW) {
                        stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                        stack[depth++] = child;
                    }
                } else if (cell[child] >= CELL_DONE) {
                    value = sat_add(value, count_of(&counts, child));
                }
            }
        } else {
            uint32_t head = item_packed(f, id - S);
            if (head == NONE)
                value = 1; /* complete with no children (zero repetitions) */
            for (uint32_t pk = head; pk != NONE; pk = PACKED(f, pk).next) {
                uint32_t left = PACKED(f, pk).left, right = PACKED(f, pk).right;
                uint32_t kids[2] = {left == NONE ? NONE : (uint32_t)(S + left), right};
                uint64_t product = 1;
                for (int c = 0; c < 2; c++) {
                    uint32_t child = kids[c];
                    if (child == NONE)
                        continue;
                    if (!post) {
                        if (cell[child] == CELL_OPEN)
                            *infinite = true;
                        else if (cell[child] == CELL_NEW) {
                            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                            stack[depth++] = child;
                        }
                    } else {
                        product = cell[child] >= CELL_DONE
                                      ? sat_mul(product, count_of(&counts, child))
                                      : 0;
                    }
                }
                if (post)
                    value = sat_add(value, product);
            }
        }
        if (post)
            set_count(&counts, id, value);
    }
    uint64_t result = count_of(&counts, f->root);
    free(counts.cell);
    free(counts.big);
    free(stack);
    return *infinite ? UINT64_MAX : result;
}

/* ---- k-paths: contexts of nearest symbolic ancestors -------------------------
 * A k-path ends at a symbolic instance and is spelled by its k-1 nearest
 * symbolic ancestors.  In a forest a symbol can sit under many ancestors, so
 * each symbol gets the set of its contexts (tuples of up to k-1 graph nodes,
 * interned); a symbol passes a context on to its children, extended by its own
 * node when it is symbolic.  Each (symbol, context) is processed once. */

struct contexts {
    uint32_t width;        /* ancestors kept: k - 1, or more for long pins */
    uint32_t *nodes;       /* width per context */
    uint32_t *len;         /* per context */
    uint32_t *inside;      /* per context: symbolic nodes since a pinned root (capped) */
    size_t n, cap_nodes, cap_len, cap_inside;
    uint32_t *table;       /* open addressing: context ids, NONE = empty */
    size_t table_cap;
};

static uint64_t hash_context(const uint32_t *nodes, uint32_t len, uint32_t inside)
{
    uint64_t h = (UINT64_C(0xcbf29ce484222325) ^ len) + (uint64_t)inside * UINT64_C(0x9E3779B97F4A7C15);
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ nodes[i]) * UINT64_C(0x100000001b3);
    return h ^ (h >> 31);
}

static uint32_t intern_context(struct contexts *c, const uint32_t *nodes, uint32_t len,
                               uint32_t inside)
{
    if (2 * (c->n + 1) > c->table_cap) {
        size_t cap = c->table_cap ? 2 * c->table_cap : 64;
        free(c->table);
        c->table = xmalloc(cap * sizeof *c->table);
        for (size_t i = 0; i < cap; i++)
            c->table[i] = NONE;
        c->table_cap = cap;
        for (size_t id = 0; id < c->n; id++) {
            size_t i = (size_t)hash_context(c->nodes + id * c->width, c->len[id], c->inside[id]) &
                       (cap - 1);
            while (c->table[i] != NONE)
                i = (i + 1) & (cap - 1);
            c->table[i] = (uint32_t)id;
        }
    }
    size_t mask = c->table_cap - 1;
    size_t i = (size_t)hash_context(nodes, len, inside) & mask;
    for (; c->table[i] != NONE; i = (i + 1) & mask) {
        uint32_t id = c->table[i];
        if (c->len[id] == len && c->inside[id] == inside &&
            (len == 0 || memcmp(c->nodes + (size_t)id * c->width, nodes, len * sizeof *nodes) == 0))
            return id;
    }
    c->nodes = xgrow(c->nodes, &c->cap_nodes, (c->n + 1) * c->width + 1, sizeof *c->nodes);
    c->len = xgrow(c->len, &c->cap_len, c->n + 1, sizeof *c->len);
    c->inside = xgrow(c->inside, &c->cap_inside, c->n + 1, sizeof *c->inside);
    if (len)
        memcpy(c->nodes + c->n * c->width, nodes, len * sizeof *nodes);
    c->len[c->n] = len;
    c->inside[c->n] = inside;
    c->table[i] = (uint32_t)c->n;
    return (uint32_t)c->n++;
}

/* The context of a symbolic node's children: its ancestors and itself, and
 * `inside` (see inside_at). */
static uint32_t extend_context(struct contexts *c, uint32_t id, uint32_t node, uint32_t inside,
                               uint32_t *scratch)
{
    if (c->width == 0)
        return intern_context(c, NULL, 0, inside);
    uint32_t len = c->len[id];
    const uint32_t *old = c->nodes + (size_t)id * c->width;
    uint32_t keep = len < c->width ? len : c->width - 1;
    memcpy(scratch, old + (len - keep), keep * sizeof *scratch);
    scratch[keep] = node;
    return intern_context(c, scratch, keep + 1, inside);
}

struct kpath_walk {
    const struct forest *f;
    struct kpath_set *const *sets; /* one per k, any order */
    size_t nsets;
    struct contexts ctx;
    uint32_t *sym_ctx;      /* per symbol: a list of contexts (see list_push_in) */
    struct link *links;
    size_t nlinks, links_cap;
    uint32_t *work;         /* pairs (symbol, context) */
    size_t nwork, work_cap;
    uint32_t *path;
    uint64_t added;
    const struct pin_set *pins; /* or NULL */
    uint32_t max_k;
};

/* How many symbolic nodes of a pinned context lie from its root down to the
 * symbolic node `node` (itself included) in context `ctx`: 0 outside every
 * context, capped at max_k (no k-path needs more). */
static uint32_t inside_at(const struct kpath_walk *w, uint32_t ctx, uint32_t node)
{
    if (!w->pins || !w->pins->len)
        return 0;
    uint32_t above = w->ctx.inside[ctx];
    if (above)
        return above < w->max_k ? above + 1 : w->max_k;
    uint32_t len = w->ctx.len[ctx];
    const uint32_t *anc = w->ctx.nodes + (size_t)ctx * w->ctx.width;
    for (size_t i = 0; i < w->pins->len; i++) {
        const struct pin *pin = &w->pins->pins[i];
        if (node != pin->nodes[pin->len - 1] || pin->len - 1 > len)
            continue;
        uint32_t j = 0;
        while (j + 1 < pin->len && anc[len - 1 - j] == pin->nodes[pin->len - 2 - j])
            j++;
        if (j + 1 == pin->len)
            return 1;
    }
    return 0;
}

static void add_context(struct kpath_walk *w, uint32_t sym, uint32_t ctx)
{
    for (uint32_t c = w->sym_ctx[sym], known; list_next_in(w->links, &c, &known);)
        if (known == ctx)
            return;
    w->sym_ctx[sym] = list_push_in(&w->links, &w->nlinks, &w->links_cap, w->sym_ctx[sym], ctx);
    w->work = xgrow(w->work, &w->work_cap, w->nwork + 2, sizeof *w->work);
    w->work[w->nwork++] = sym;
    w->work[w->nwork++] = ctx;
    uint32_t node = SYMBOL(w->f, sym).node;
    if (!node_kind_is_symbolic(w->f->graph->nodes[node].kind))
        return;
    /* The k-path ending here, for each k: the last k-1 ancestors and the node
     * (with pins, only when all k lie in a pinned context). */
    uint32_t len = w->ctx.len[ctx];
    const uint32_t *anc = w->ctx.nodes + (size_t)ctx * w->ctx.width;
    bool pinned = w->pins && w->pins->len;
    uint32_t inside = pinned ? inside_at(w, ctx, node) : 0;
    for (size_t i = 0; i < w->nsets; i++) {
        uint32_t k = w->sets[i]->sp->k;
        if (len < k - 1 || (pinned && inside < k))
            continue;
        memcpy(w->path, anc + (len - (k - 1)), (k - 1) * sizeof *w->path);
        w->path[k - 1] = node;
        w->added += kpath_set_add(w->sets[i], w->path);
    }
}

uint64_t forest_add_kpaths(const struct forest *f, struct kpath_set *set)
{
    return forest_add_kpaths_many(f, &set, 1);
}

uint64_t forest_add_kpaths_many(const struct forest *f, struct kpath_set *const *sets, size_t n)
{
    return forest_add_kpaths_pinned(f, sets, n, NULL);
}

uint64_t forest_add_kpaths_pinned(const struct forest *f, struct kpath_set *const *sets, size_t n,
                                  const struct pin_set *pins)
{
    struct kpath_walk w = {.f = f, .sets = sets, .nsets = n, .pins = pins};
    uint32_t k = 1;
    for (size_t i = 0; i < n; i++)
        if (sets[i]->sp->k > k)
            k = sets[i]->sp->k;
    w.max_k = k;
    /* Ancestors enough for the longest k-path, and to recognize every pin. */
    uint32_t width = k - 1;
    for (size_t i = 0; pins && i < pins->len; i++)
        if (pins->pins[i].len - 1 > width)
            width = pins->pins[i].len - 1;
    w.ctx.width = width;
    w.path = xmalloc((k + 1) * sizeof *w.path);
    uint32_t *scratch = xmalloc((width + 2) * sizeof *scratch);
    w.sym_ctx = xmalloc((f->nsymbols + 1) * sizeof *w.sym_ctx);
    for (size_t i = 0; i < f->nsymbols; i++)
        w.sym_ctx[i] = NONE;
    uint32_t *stamp = xcalloc(f->nitems + 1, sizeof *stamp);
    uint32_t walk = 0;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;

    add_context(&w, f->root, intern_context(&w.ctx, NULL, 0, 0));
    while (w.nwork) {
        uint32_t ctx = w.work[--w.nwork];
        uint32_t sym = w.work[--w.nwork];
        uint32_t node = SYMBOL(f, sym).node;
        uint32_t child_ctx = node_kind_is_symbolic(f->graph->nodes[node].kind)
                                 ? extend_context(&w.ctx, ctx, node, inside_at(&w, ctx, node),
                                                  scratch)
                                 : ctx;
        if (node_is_unit(f, node)) {
            for (uint32_t c = SYMBOL(f, sym).derivs, d; list_next(f, &c, &d);)
                add_context(&w, d, child_ctx);
            continue;
        }
        walk++;
        for (uint32_t c = SYMBOL(f, sym).derivs, d; list_next(f, &c, &d);) {
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = d;
        }
        while (depth) {
            uint32_t item = stack[--depth];
            if (stamp[item] == walk)
                continue;
            stamp[item] = walk;
            for (uint32_t pk = item_packed(f, item); pk != NONE; pk = PACKED(f, pk).next) {
                add_context(&w, PACKED(f, pk).right, child_ctx);
                if (PACKED(f, pk).left != NONE) {
                    stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                    stack[depth++] = PACKED(f, pk).left;
                }
            }
        }
    }
    free(stack);
    free(stamp);
    free(scratch);
    free(w.path);
    free(w.sym_ctx);
    free(w.links);
    free(w.work);
    free(w.ctx.nodes);
    free(w.ctx.len);
    free(w.ctx.inside);
    free(w.ctx.table);
    return w.added;
}

/* ---- expansions ------------------------------------------------------------
 * Every symbol reachable from the root lies in some tree of the forest, so
 * the expansions of all trees are those of the reachable symbols: an alt
 * symbol's derivations are its chosen alternatives' symbols, and a rule's
 * right-hand side without alternatives is used wherever it has a symbol. */

uint64_t forest_add_expansions(const struct forest *f, struct expansion_set *s)
{
    const struct graph *g = f->graph;
    size_t S = f->nsymbols;
    bool *seen = xcalloc(S + f->nitems + 1, sizeof *seen); /* symbols, then items */
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    uint64_t before = s->count;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = f->root;
    seen[f->root] = true;
#define VISIT(id)                                                          \
    do {                                                                   \
        if (!seen[(id)]) {                                                 \
            seen[(id)] = true;                                             \
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);          \
            stack[depth++] = (id);                                         \
        }                                                                  \
    } while (0)
    while (depth) {
        uint32_t id = stack[--depth];
        if (id >= S) {
            for (uint32_t pk = item_packed(f, id - (uint32_t)S); pk != NONE;
                 pk = PACKED(f, pk).next) {
                VISIT(PACKED(f, pk).right);
                if (PACKED(f, pk).left != NONE)
                    VISIT((uint32_t)S + PACKED(f, pk).left);
            }
            continue;
        }
        uint32_t node = SYMBOL(f, id).node;
        bool unit = node_is_unit(f, node);
        bool alt = node < g->nnodes && g->nodes[node].kind == NODE_ALT;
        if (node < g->nnodes && !alt)
            expansion_add(s, node, 0);
        for (uint32_t c = SYMBOL(f, id).derivs, d; list_next(f, &c, &d);) {
            if (!unit) {
                VISIT((uint32_t)S + d);
                continue;
            }
            if (alt) {
                /* Alternatives are distinct nodes: the chosen one by its node. */
                uint32_t chosen = SYMBOL(f, d).node, i = 0;
                const uint32_t *kids = graph_children(g, node);
                while (i < g->nodes[node].nchildren && kids[i] != chosen)
                    i++;
                expansion_add(s, node, i);
            }
            VISIT(d);
        }
    }
#undef VISIT
    free(stack);
    free(seen);
    return s->count - before;
}

/* ---- one tree ------------------------------------------------------------- */

/* The earliest entry of a prepended list: its tail.  The earliest derivation
 * of a symbol only uses symbols created before it, so following earliest
 * derivations always ends. */
static uint32_t earliest_link(const struct forest *f, uint32_t head)
{
    uint32_t value = NONE;
    while (list_next(f, &head, &value))
        ;
    return value;
}

static uint32_t earliest_packed(const struct forest *f, uint32_t pk)
{
    while (PACKED(f, pk).next != NONE)
        pk = PACKED(f, pk).next;
    return pk;
}

/* The children of symbol s's earliest derivation into *kids (grown as
 * needed), right to left; their number. */
static size_t earliest_children(const struct forest *f, const struct symbol *s, uint32_t **kids,
                                size_t *kids_cap)
{
    size_t nkids = 0;
    uint32_t item = NONE;
    if (node_is_unit(f, s->node)) {
        *kids = xgrow(*kids, kids_cap, 1, sizeof **kids);
        (*kids)[nkids++] = earliest_link(f, s->derivs);
    } else {
        item = earliest_link(f, s->derivs);
    }
    while (item != NONE && item_packed(f, item) != NONE) {
        const struct packed *pk = &PACKED(f, earliest_packed(f, item_packed(f, item)));
        *kids = xgrow(*kids, kids_cap, nkids + 1, sizeof **kids);
        (*kids)[nkids++] = pk->right;
        item = pk->left;
    }
    return nkids;
}

/* The earliest derivation of every symbol and item was made before it (a
 * symbol is made with the derivation that completes it, an item with the
 * pair that advances it, from symbols and items that exist), so following
 * only earliest derivations never comes back to where it started: the
 * first tree is finite, and a walk down it ends. */
bool forest_walk_first_tree(const struct forest *f,
                            bool (*visit)(const struct forest_visit *v, void *ctx), void *ctx)
{
    const struct graph *g = f->graph;
    struct frame {
        uint32_t sym, depth;
    } *stack = NULL;
    uint32_t *kids = NULL;
    size_t depth = 0, stack_cap = 0, nkids = 0, kids_cap = 0;
    bool ok = true;
    stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
    stack[depth++] = (struct frame){f->root, 0};
    while (ok && depth) {
        struct frame fr = stack[--depth];
        const struct symbol *s = &SYMBOL(f, fr.sym);
        const struct graph_node *n = &g->nodes[s->node];
        struct forest_visit v = {s->node, fr.depth, s->start, s->end, 0};
        if (n->kind == NODE_CLASS)
            v.ch = text_at(f, s->start);
        ok = visit(&v, ctx);
        if (n->kind == NODE_LIT || n->kind == NODE_CLASS)
            continue;
        nkids = earliest_children(f, s, &kids, &kids_cap);
        stack = xgrow(stack, &stack_cap, depth + nkids, sizeof *stack);
        for (size_t i = 0; i < nkids; i++) /* rightmost first: the leftmost is on top */
            stack[depth++] = (struct frame){kids[i], fr.depth + 1};
    }
    free(stack);
    free(kids);
    return ok;
}

bool forest_first_tree(const struct forest *f, struct derivation *t)
{
    const struct graph *g = f->graph;
    uint32_t *decisions = NULL, *stack = NULL, *kids = NULL;
    size_t ndec = 0, dec_cap = 0, depth = 0, stack_cap = 0, nkids = 0, kids_cap = 0;
    stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
    stack[depth++] = f->root;
    while (depth) {
        uint32_t sym = stack[--depth];
        const struct symbol *s = &SYMBOL(f, sym);
        const struct graph_node *n = &g->nodes[s->node];
        if (n->kind == NODE_LIT)
            continue;
        decisions = xgrow(decisions, &dec_cap, ndec + 1, sizeof *decisions);
        if (n->kind == NODE_CLASS) {
            decisions[ndec++] = text_at(f, s->start);
            continue;
        }
        nkids = earliest_children(f, s, &kids, &kids_cap);
        if (n->kind == NODE_ALT) {
            uint32_t chosen = SYMBOL(f, kids[0]).node;
            for (uint32_t i = 0; i < n->nchildren; i++)
                if (graph_children(g, s->node)[i] == chosen)
                    decisions[ndec++] = i;
        } else if (n->kind == NODE_QUANT) {
            decisions[ndec++] = (uint32_t)nkids;
        }
        stack = xgrow(stack, &stack_cap, depth + nkids, sizeof *stack);
        for (size_t i = 0; i < nkids; i++)
            stack[depth++] = kids[i]; /* rightmost first: the leftmost is on top */
    }
    derivation_init(t, g, 0);
    long used = derivation_replay(t, decisions, ndec, NULL);
    free(decisions);
    free(stack);
    free(kids);
    return used == (long)ndec && derivation_complete(t);
}
