#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "utf8.h"
#include "xalloc.h"

#define NONE UINT32_MAX

/* An Earley item of a non-leaf node: `dot` children recognized since
 * `origin`.  Items of one set are contiguous and created only while their set
 * is current.  `pred` is the item (node, 0, origin) in the origin set whose
 * waiters are advanced when this node completes. */
struct item {
    uint32_t node, dot, origin;
    uint32_t pred;
    uint32_t packed;  /* head of the derivations of this item (packed pairs) */
    uint32_t waiters; /* for dot-0 items: head of the items waiting on the node */
};

/* One way an item came about: the item one child shorter (or NONE at the
 * first child) and the symbol of the last child. */
struct packed {
    uint32_t left, right, next;
};

/* A completed instance (node, start, end).  Leaves have no derivations. */
struct symbol {
    uint32_t node, start, end;
    uint32_t derivs; /* head of a link list of complete items */
};

struct link {
    uint32_t value, next;
};

struct pending {
    uint32_t waiter, symbol, next;
};

struct slot {
    uint32_t stamp; /* set index + 1; 0 = empty */
    uint32_t kind, node, dot, origin;
    uint32_t value;
};

enum { KEY_ITEM, KEY_SYMBOL, KEY_LEAF };
#define NO_MATCH (NONE - 1)

struct forest {
    const struct graph *graph;
    uint32_t *text;      /* code points */
    uint32_t len;
    struct item *items;
    size_t nitems, items_cap;
    struct packed *packed;
    size_t npacked, packed_cap;
    struct symbol *symbols;
    size_t nsymbols, symbols_cap;
    struct link *links;
    size_t nlinks, links_cap;
    uint32_t root;       /* symbol of the start node over the whole input */
    uint32_t start_node; /* graph->nnodes: the virtual start */
};

struct parser {
    struct forest *f;
    const struct graph *g;
    uint32_t set;                 /* current position */
    struct slot *table;           /* the current set's index */
    size_t table_cap, table_used;
    uint32_t *pending_head;       /* per position */
    uint32_t last_pending;        /* the furthest position with pending advances */
    /* Per node, what the current set holds for it (valid when the stamp is
     * the set index + 1): its prediction (node, 0, here), its leaf match, and
     * its empty completion (node, here, here).  These are most lookups, and
     * an array answers them without hashing. */
    uint32_t *stamp_pred, *pred;
    uint32_t *stamp_leaf, *leaf;
    uint32_t *stamp_empty, *empty;
    size_t max_memory;            /* bytes; 0 = no limit */
    bool over_budget;             /* stopped for max_memory */
    struct pending *pending;
    size_t npending, pending_cap;
    uint32_t **lit_cps;           /* per literal node: its code points */
    uint32_t *lit_len;
    uint32_t *expected;           /* leaves predicted in the furthest set */
    size_t nexpected, expected_cap;
    uint32_t expected_set;
    bool root_done_at_expected;
    /* One character of lookahead: what can start each node. */
    bool lookahead;               /* off when collecting what was expected */
    uint64_t (*first)[2];         /* per node: ASCII characters that can start it */
    bool *first_high;             /* per node: a character >= 128 can start it */
    uint64_t (*follow)[2];        /* per node: ASCII characters that can follow it */
    bool *follow_high;            /* per node: a character >= 128 can follow it */
    bool *follow_end;             /* per node: the input can end after it */
};

/* ---- growing arrays ------------------------------------------------------ */

static uint32_t add_link(struct forest *f, uint32_t value, uint32_t next)
{
    f->links = xgrow(f->links, &f->links_cap, f->nlinks + 1, sizeof *f->links);
    f->links[f->nlinks] = (struct link){value, next};
    return (uint32_t)f->nlinks++;
}

static uint32_t add_symbol(struct forest *f, uint32_t node, uint32_t start, uint32_t end)
{
    f->symbols = xgrow(f->symbols, &f->symbols_cap, f->nsymbols + 1, sizeof *f->symbols);
    f->symbols[f->nsymbols] = (struct symbol){node, start, end, NONE};
    return (uint32_t)f->nsymbols++;
}

static void add_packed(struct forest *f, uint32_t item, uint32_t left, uint32_t right)
{
    f->packed = xgrow(f->packed, &f->packed_cap, f->npacked + 1, sizeof *f->packed);
    f->packed[f->npacked] = (struct packed){left, right, f->items[item].packed};
    f->items[item].packed = (uint32_t)f->npacked++;
}

/* ---- the current set's index --------------------------------------------- */

static uint64_t hash_key(uint32_t kind, uint32_t node, uint32_t dot, uint32_t origin)
{
    /* Mix all four fields, then the 64-bit finalizer of MurmurHash3, so that
     * keys differing in any one field spread over the table's low bits. */
    uint64_t h = ((uint64_t)node << 32 | origin) ^ ((uint64_t)dot << 40 | (uint64_t)dot << 2 | kind);
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ (h >> 33);
}

static void table_grow(struct parser *p);

/* The slot of a key in the current set: found (value set) or empty (ready). */
static struct slot *table_find(struct parser *p, uint32_t kind, uint32_t node, uint32_t dot,
                               uint32_t origin)
{
    if (2 * (p->table_used + 1) > p->table_cap)
        table_grow(p);
    size_t mask = p->table_cap - 1;
    size_t i = (size_t)hash_key(kind, node, dot, origin) & mask;
    uint32_t stamp = p->set + 1;
    for (;;) {
        struct slot *s = &p->table[i];
        if (s->stamp != stamp) {
            s->stamp = stamp;
            s->kind = kind, s->node = node, s->dot = dot, s->origin = origin;
            s->value = NONE;
            p->table_used++;
            return s;
        }
        if (s->kind == kind && s->node == node && s->dot == dot && s->origin == origin)
            return s;
        i = (i + 1) & mask;
    }
}

static void table_grow(struct parser *p)
{
    struct slot *old = p->table;
    size_t old_cap = p->table_cap;
    p->table_cap = old_cap ? old_cap * 2 : 1024;
    p->table = xcalloc(p->table_cap, sizeof *p->table);
    p->table_used = 0;
    uint32_t stamp = p->set + 1;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].stamp != stamp)
            continue;
        size_t mask = p->table_cap - 1;
        size_t j = (size_t)hash_key(old[i].kind, old[i].node, old[i].dot, old[i].origin) & mask;
        while (p->table[j].stamp == stamp)
            j = (j + 1) & mask;
        p->table[j] = old[i];
        p->table_used++;
    }
    free(old);
}

static void new_set(struct parser *p)
{
    /* Stamps make every slot of an earlier set free without clearing. */
    p->table_used = 0;
}

/* ---- Earley operations ----------------------------------------------------- */

static uint32_t add_item(struct parser *p, uint32_t node, uint32_t dot, uint32_t origin,
                         uint32_t pred, bool *created)
{
    uint32_t stamp = p->set + 1;
    bool here = dot == 0 && origin == p->set;
    struct slot *s = NULL;
    if (here) {
        *created = p->stamp_pred[node] != stamp;
        if (!*created)
            return p->pred[node];
    } else {
        s = table_find(p, KEY_ITEM, node, dot, origin);
        *created = s->value == NONE;
        if (!*created)
            return s->value;
    }
    struct forest *f = p->f;
    f->items = xgrow(f->items, &f->items_cap, f->nitems + 1, sizeof *f->items);
    uint32_t idx = (uint32_t)f->nitems++;
    f->items[idx] = (struct item){node, dot, origin, pred == NONE ? idx : pred, NONE, NONE};
    if (here)
        p->stamp_pred[node] = stamp, p->pred[node] = idx;
    else
        s->value = idx;
    return idx;
}

/* The symbol of an empty completion of `node` here, or NONE. */
static uint32_t empty_symbol(const struct parser *p, uint32_t node)
{
    return p->stamp_empty[node] == p->set + 1 ? p->empty[node] : NONE;
}

static bool can_start(const struct parser *p, uint32_t node, uint32_t at)
{
    if (at >= p->f->len)
        return false;
    uint32_t cp = p->f->text[at];
    return cp < 128 ? (p->first[node][cp >> 6] >> (cp & 63)) & 1 : p->first_high[node];
}

/* Could item (node, dot) in the current set still lead anywhere: complete,
 * or go on with the next character?  (Lookahead of one character.) */
static bool viable(const struct parser *p, uint32_t node, uint32_t dot)
{
    if (!p->lookahead || node == p->f->start_node)
        return true;
    const struct graph *g = p->g;
    const struct graph_node *n = &g->nodes[node];
    uint32_t at = p->set;
    switch (n->kind) {
    case NODE_CAT:
        for (uint32_t i = dot; i < n->nchildren; i++) {
            uint32_t c = graph_children(g, node)[i];
            if (can_start(p, c, at))
                return true;
            if (g->nodes[c].min_length > 0)
                return false;
        }
        return true;
    case NODE_QUANT:
        return dot >= n->expr->u.quant.min || can_start(p, graph_children(g, node)[0], at) ||
               g->nodes[graph_children(g, node)[0]].min_length == 0;
    default:
        return true; /* refs and alts are complete after one child */
    }
}

/* Item w recognized one more child, symbol s: the item one further. */
static void advance(struct parser *p, uint32_t w, uint32_t s)
{
    struct forest *f = p->f;
    struct item it = f->items[w];
    /* An empty repetition beyond the minimum adds nothing but infinitely many
     * trees (and items): leave it out. */
    if (it.node != f->start_node && p->g->nodes[it.node].kind == NODE_QUANT &&
        f->symbols[s].start == f->symbols[s].end &&
        it.dot >= p->g->nodes[it.node].expr->u.quant.min)
        return;
    bool created;
    uint32_t next = add_item(p, it.node, it.dot + 1, it.origin, it.pred, &created);
    add_packed(f, next, it.dot ? w : NONE, s);
}

/* Would advancing waiter w lead anywhere? */
static bool worth_advancing(const struct parser *p, uint32_t w)
{
    const struct item *it = &p->f->items[w];
    return viable(p, it->node, it->dot + 1);
}

static bool leaf_matches(const struct parser *p, uint32_t leaf, uint32_t at, uint32_t *end)
{
    const struct graph_node *n = &p->g->nodes[leaf];
    const struct forest *f = p->f;
    if (n->kind == NODE_CLASS) {
        if (at >= f->len || !grammar_class_matches(n->expr, f->text[at]))
            return false;
        *end = at + 1;
        return true;
    }
    uint32_t len = p->lit_len[leaf];
    if (len > f->len - at)
        return false;
    if (len && memcmp(p->lit_cps[leaf], f->text + at, len * sizeof(uint32_t)) != 0)
        return false;
    *end = at + len;
    return true;
}

static void note_expected(struct parser *p, uint32_t leaf)
{
    if (p->expected_set != p->set) {
        p->expected_set = p->set;
        p->nexpected = 0;
    }
    p->expected = xgrow(p->expected, &p->expected_cap, p->nexpected + 1, sizeof *p->expected);
    p->expected[p->nexpected++] = leaf;
}

static void push_pending(struct parser *p, uint32_t at, uint32_t waiter, uint32_t symbol)
{
    p->pending = xgrow(p->pending, &p->pending_cap, p->npending + 1, sizeof *p->pending);
    p->pending[p->npending] = (struct pending){waiter, symbol, p->pending_head[at]};
    if (at > p->last_pending)
        p->last_pending = at;
    p->pending_head[at] = (uint32_t)p->npending++;
}

/* Item w waits on child c. */
static void predict(struct parser *p, uint32_t w, uint32_t c)
{
    struct forest *f = p->f;
    uint32_t j = p->set;
    enum node_kind kind = p->g->nodes[c].kind;
    if (kind == NODE_LIT || kind == NODE_CLASS) {
        if (p->stamp_leaf[c] != j + 1) {
            uint32_t end;
            note_expected(p, c);
            p->stamp_leaf[c] = j + 1;
            p->leaf[c] = leaf_matches(p, c, j, &end) ? add_symbol(f, c, j, end) : NO_MATCH;
        }
        uint32_t sym = p->leaf[c];
        if (sym == NO_MATCH)
            return;
        if (f->symbols[sym].end == j) {
            if (worth_advancing(p, w))
                advance(p, w, sym);
        } else {
            push_pending(p, f->symbols[sym].end, w, sym);
        }
        return;
    }
    if (p->lookahead && p->g->nodes[c].min_length > 0) {
        /* Not nullable: worth predicting only if the next character can start it. */
        if (j >= f->len)
            return;
        uint32_t cp = f->text[j];
        bool can = cp < 128 ? (p->first[c][cp >> 6] >> (cp & 63)) & 1 : p->first_high[c];
        if (!can)
            return;
    }
    bool created;
    uint32_t pr = add_item(p, c, 0, j, NONE, &created);
    f->items[pr].waiters = add_link(f, w, f->items[pr].waiters);
    /* A nullable node may already have completed here with an empty span. */
    if (p->g->nodes[c].min_length == 0) {
        uint32_t done = empty_symbol(p, c);
        if (done != NONE && worth_advancing(p, w))
            advance(p, w, done);
    }
}

static bool can_follow(const struct parser *p, uint32_t node);

static void complete(struct parser *p, uint32_t x)
{
    struct forest *f = p->f;
    struct item it = f->items[x];
    /* A node that the next character cannot follow is not complete here in
     * any parse: skip it, and the chain of completions above it (right
     * recursion would otherwise complete every open level at every step). */
    if (p->lookahead && it.origin < p->set && it.node != f->start_node && !can_follow(p, it.node))
        return;
    bool empty = it.origin == p->set;
    struct slot *s = empty ? NULL : table_find(p, KEY_SYMBOL, it.node, 0, it.origin);
    uint32_t known = empty ? empty_symbol(p, it.node) : s->value;
    if (known != NONE) {
        /* Another derivation of a known symbol: its waiters have advanced. */
        f->symbols[known].derivs = add_link(f, x, f->symbols[known].derivs);
        return;
    }
    /* The symbol is made once a waiter can use it.  An empty one always:
     * waiters may still register on it in this set. */
    uint32_t sym = NONE;
    if (empty) {
        sym = add_symbol(f, it.node, it.origin, p->set);
        f->symbols[sym].derivs = add_link(f, x, NONE);
        p->stamp_empty[it.node] = p->set + 1;
        p->empty[it.node] = sym;
    }
    for (uint32_t l = f->items[it.pred].waiters; l != NONE; l = f->links[l].next) {
        uint32_t w = f->links[l].value;
        if (sym == NONE) {
            if (!worth_advancing(p, w))
                continue;
            sym = add_symbol(f, it.node, it.origin, p->set);
            f->symbols[sym].derivs = add_link(f, x, NONE);
            /* Advancing may have grown the table: look the slot up again. */
            table_find(p, KEY_SYMBOL, it.node, 0, it.origin)->value = sym;
        } else if (!worth_advancing(p, w)) {
            continue;
        }
        advance(p, w, sym);
    }
}

static void process_item(struct parser *p, uint32_t idx)
{
    const struct graph *g = p->g;
    struct item it = p->f->items[idx];
    if (it.node == p->f->start_node) {
        if (it.dot == 0)
            predict(p, idx, 0); /* accepting is checked by parse_text */
        return;
    }
    const struct graph_node *n = &g->nodes[it.node];
    const uint32_t *kids = graph_children(g, it.node);
    switch (n->kind) {
    case NODE_REF:
        if (it.dot == 0)
            predict(p, idx, kids[0]);
        else
            complete(p, idx);
        break;
    case NODE_ALT:
        if (it.dot == 0)
            for (uint32_t i = 0; i < n->nchildren; i++)
                predict(p, idx, kids[i]);
        else
            complete(p, idx);
        break;
    case NODE_CAT:
        if (it.dot < n->nchildren)
            predict(p, idx, kids[it.dot]);
        else
            complete(p, idx);
        break;
    case NODE_QUANT:
        if (it.dot >= n->expr->u.quant.min)
            complete(p, idx);
        if (it.dot < n->expr->u.quant.max)
            predict(p, idx, kids[0]);
        break;
    default:
        break;
    }
}

/* ---- lookahead ------------------------------------------------------------- */

/* Add a character set to another; true when it grew. */
static bool add_first_to(uint64_t to[2], bool *to_high, const uint64_t bits[2], bool high)
{
    uint64_t a = to[0] | bits[0], b = to[1] | bits[1];
    bool h = *to_high || high;
    bool changed = a != to[0] || b != to[1] || h != *to_high;
    to[0] = a, to[1] = b, *to_high = h;
    return changed;
}

static bool add_first(struct parser *p, uint32_t to, const uint64_t bits[2], bool high)
{
    return add_first_to(p->first[to], &p->first_high[to], bits, high);
}

/* FIRST sets by a worklist: a node's set only grows (129 bits at most), and a
 * change is pushed to the parents that it can start. */
static void compute_first(struct parser *p)
{
    const struct graph *g = p->g;
    uint32_t N = g->nnodes;
    p->first = xcalloc((size_t)N + 1, sizeof *p->first);
    p->first_high = xcalloc((size_t)N + 1, sizeof *p->first_high);
    uint32_t *queue = xmalloc(((size_t)N + 1) * sizeof *queue);
    bool *queued = xcalloc((size_t)N + 1, sizeof *queued);
    size_t head = 0, tail = 0; /* a ring of N + 1 slots */
    for (uint32_t n = 0; n < N; n++) {
        const struct graph_node *node = &g->nodes[n];
        if (node->kind == NODE_LIT && p->lit_len[n]) {
            uint32_t cp = p->lit_cps[n][0];
            if (cp < 128)
                p->first[n][cp >> 6] |= UINT64_C(1) << (cp & 63);
            else
                p->first_high[n] = true;
        } else if (node->kind == NODE_CLASS) {
            for (uint32_t cp = 0; cp < 128; cp++)
                if (grammar_class_matches(node->expr, cp))
                    p->first[n][cp >> 6] |= UINT64_C(1) << (cp & 63);
            p->first_high[n] = grammar_class_size(node->expr) >
                               (uint64_t)__builtin_popcountll(p->first[n][0]) +
                                   (uint64_t)__builtin_popcountll(p->first[n][1]);
        } else {
            continue;
        }
        queue[tail] = n, tail = (tail + 1) % (N + 1), queued[n] = true;
    }
    while (head != tail) {
        uint32_t c = queue[head];
        head = (head + 1) % (N + 1);
        queued[c] = false;
        for (uint32_t i = 0; i < g->nodes[c].nparents; i++) {
            uint32_t parent = graph_parents(g, c)[i];
            const struct graph_node *pn = &g->nodes[parent];
            if (pn->kind == NODE_CAT) {
                /* c starts the cat only if every item before it can be empty. */
                bool starts = false;
                for (uint32_t k = 0; k < pn->nchildren; k++) {
                    uint32_t item = graph_children(g, parent)[k];
                    if (item == c) {
                        starts = true;
                        break;
                    }
                    if (g->nodes[item].min_length > 0)
                        break;
                }
                if (!starts)
                    continue;
            } else if (pn->kind == NODE_QUANT && pn->expr->u.quant.max == 0) {
                continue;
            }
            if (add_first(p, parent, p->first[c], p->first_high[c]) && !queued[parent]) {
                queue[tail] = parent, tail = (tail + 1) % (N + 1), queued[parent] = true;
            }
        }
    }
    free(queue);
    free(queued);
}

/* FOLLOW sets: what can come right after an instance of each node, anywhere
 * in any derivation (so a superset of what follows it in one parse).  A
 * child gets its later siblings' FIRST (through nullable ones), a repeated
 * child its own FIRST, and, when what comes after it in its parent can be
 * empty, all of its parent's FOLLOW, which a worklist passes down until
 * nothing grows (each set only grows, 130 bits at most). */
static void compute_follow(struct parser *p)
{
    const struct graph *g = p->g;
    uint32_t N = g->nnodes;
    p->follow = xcalloc((size_t)N + 1, sizeof *p->follow);
    p->follow_high = xcalloc((size_t)N + 1, sizeof *p->follow_high);
    p->follow_end = xcalloc((size_t)N + 1, sizeof *p->follow_end);
    /* inherits[edge]: the child's FOLLOW includes its parent's. */
    size_t edges = N ? g->nodes[N - 1].first_child + g->nodes[N - 1].nchildren : 0;
    bool *inherits = xcalloc(edges + 1, sizeof *inherits);
    for (uint32_t n = 0; n < N; n++) {
        const struct graph_node *node = &g->nodes[n];
        const uint32_t *kids = graph_children(g, n);
        if (node->kind == NODE_CAT) {
            /* Backwards: what the rest after child i can start with. */
            uint64_t rest[2] = {0, 0};
            bool rest_high = false, rest_empty = true;
            for (uint32_t i = node->nchildren; i-- > 0;) {
                uint32_t c = kids[i];
                add_first_to(p->follow[c], &p->follow_high[c], rest, rest_high);
                inherits[node->first_child + i] = rest_empty;
                if (g->nodes[c].min_length > 0)
                    rest[0] = rest[1] = 0, rest_high = false, rest_empty = false;
                rest[0] |= p->first[c][0], rest[1] |= p->first[c][1];
                rest_high = rest_high || p->first_high[c];
            }
        } else if (node->kind == NODE_QUANT) {
            if (node->expr->u.quant.max > 1)
                add_first_to(p->follow[kids[0]], &p->follow_high[kids[0]], p->first[kids[0]],
                             p->first_high[kids[0]]);
            inherits[node->first_child] = true;
        } else {
            for (uint32_t i = 0; i < node->nchildren; i++)
                inherits[node->first_child + i] = true;
        }
    }
    p->follow_end[0] = true;
    uint32_t *queue = xmalloc(((size_t)N + 1) * sizeof *queue);
    bool *queued = xcalloc((size_t)N + 1, sizeof *queued);
    size_t head = 0, tail = 0;
    for (uint32_t n = 0; n < N; n++)
        queue[tail++] = n, queued[n] = true;
    tail %= N + 1;
    while (head != tail) {
        uint32_t n = queue[head];
        head = (head + 1) % (N + 1);
        queued[n] = false;
        const struct graph_node *node = &g->nodes[n];
        for (uint32_t i = 0; i < node->nchildren; i++) {
            if (!inherits[node->first_child + i])
                continue;
            uint32_t c = graph_children(g, n)[i];
            bool changed = add_first_to(p->follow[c], &p->follow_high[c], p->follow[n],
                                        p->follow_high[n]);
            if (p->follow_end[n] && !p->follow_end[c])
                p->follow_end[c] = changed = true;
            if (changed && !queued[c]) {
                queue[tail] = c, tail = (tail + 1) % (N + 1), queued[c] = true;
            }
        }
    }
    free(queue);
    free(queued);
    free(inherits);
}

/* Can the current position's next character (or the end) follow `node`? */
static bool can_follow(const struct parser *p, uint32_t node)
{
    if (p->set >= p->f->len)
        return p->follow_end[node];
    uint32_t cp = p->f->text[p->set];
    return cp < 128 ? (p->follow[node][cp >> 6] >> (cp & 63)) & 1 : p->follow_high[node];
}

/* ---- errors ---------------------------------------------------------------- */

static void position_of(const struct forest *f, uint32_t at, uint32_t *line, uint32_t *col)
{
    *line = 1, *col = 1;
    for (uint32_t i = 0; i < at && i < f->len; i++) {
        if (f->text[i] == '\n')
            ++*line, *col = 1;
        else
            ++*col;
    }
}

/* One character inside single quotes: escapes for the quote, the backslash
 * and control characters. */
static void add_quoted_char(struct strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    case '\'': strbuf_addstr(out, "\\'"); return;
    case '\\': strbuf_addstr(out, "\\\\"); return;
    default: break;
    }
    if (cp < 0x20 || cp == 0x7F)
        strbuf_addf(out, "\\x%02X", cp);
    else
        strbuf_add_utf8(out, cp);
}

static void describe_char(struct strbuf *out, uint32_t cp)
{
    strbuf_addch(out, '\'');
    add_quoted_char(out, cp);
    strbuf_addch(out, '\'');
}

static void describe_leaf(const struct parser *p, uint32_t leaf, struct strbuf *out)
{
    const struct graph_node *n = &p->g->nodes[leaf];
    if (n->kind == NODE_CLASS) {
        strbuf_addstr(out, n->expr->u.cls.source);
        return;
    }
    strbuf_addch(out, '\'');
    for (uint32_t i = 0; i < p->lit_len[leaf]; i++)
        add_quoted_char(out, p->lit_cps[leaf][i]);
    strbuf_addch(out, '\'');
}

/* An expected terminal: ordered by its text (a class by its first member),
 * shown as 'text' or [class]. */
struct expectation {
    uint32_t key[2]; /* first two characters; a class sorts after an equal literal */
    uint32_t leaf;
};

static int compare_expectations(const void *a, const void *b)
{
    const struct expectation *x = a, *y = b;
    for (int i = 0; i < 2; i++)
        if (x->key[i] != y->key[i])
            return x->key[i] < y->key[i] ? -1 : 1;
    return x->leaf < y->leaf ? -1 : x->leaf > y->leaf;
}

static void report_no_parse(struct parser *p, const char *name, uint32_t at,
                            struct diag_list *diags)
{
    struct forest *f = p->f;
    struct strbuf msg = STRBUF_INIT;
    strbuf_addstr(&msg, "no parse: unexpected ");
    if (at < f->len)
        describe_char(&msg, f->text[at]);
    else
        strbuf_addstr(&msg, "end of input");
    size_t n = p->expected_set == at ? p->nexpected : 0;
    struct expectation *ex = xmalloc((n + 1) * sizeof *ex);
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t leaf = p->expected[i];
        const struct graph_node *node = &p->g->nodes[leaf];
        if (node->kind == NODE_LIT && p->lit_len[leaf] == 0)
            continue; /* epsilon never fails */
        if (node->kind == NODE_LIT)
            ex[ne].key[0] = p->lit_cps[leaf][0],
            ex[ne].key[1] = p->lit_len[leaf] > 1 ? p->lit_cps[leaf][1] : 0;
        else
            ex[ne].key[0] = grammar_class_nth(node->expr, 0), ex[ne].key[1] = UINT32_MAX;
        ex[ne++].leaf = leaf;
    }
    qsort(ex, ne, sizeof *ex, compare_expectations);
    /* Distinct labels: two literals "+" in different rules are one '+'. */
    struct strbuf label = STRBUF_INIT, previous = STRBUF_INIT;
    size_t shown = 0;
    bool end = p->root_done_at_expected && at < f->len;
    for (size_t i = 0; i < ne; i++) {
        strbuf_reset(&label);
        describe_leaf(p, ex[i].leaf, &label);
        if (shown && strcmp(label.data, previous.data) == 0)
            continue;
        strbuf_addstr(&msg, shown ? ", " : ne + end > 1 ? "; expected one of " : "; expected ");
        strbuf_addstr(&msg, label.data);
        strbuf_reset(&previous);
        strbuf_addstr(&previous, label.data);
        shown++;
    }
    if (end)
        strbuf_addstr(&msg, shown ? ", end of input" : "; expected end of input");
    strbuf_free(&label);
    strbuf_free(&previous);
    free(ex);
    uint32_t line, col;
    position_of(f, at, &line, &col);
    diag_add(diags, DIAG_ERROR, name, line, col, "%s", strbuf_str(&msg));
    strbuf_free(&msg);
}

/* ---- the parse ------------------------------------------------------------- */

static bool decode(struct forest *f, const char *name, const char *text, size_t len,
                   struct diag_list *diags)
{
    f->text = xmalloc((len + 1) * sizeof *f->text);
    uint32_t line = 1, col = 1;
    size_t i = 0, n = 0;
    while (i < len) {
        uint32_t cp;
        size_t used = utf8_decode(text + i, len - i, &cp);
        if (!used) {
            diag_add(diags, DIAG_ERROR, name, line, col, "invalid UTF-8 byte 0x%02X",
                     (unsigned char)text[i]);
            return false;
        }
        f->text[n++] = cp;
        i += used;
        if (cp == '\n')
            line++, col = 1;
        else
            col++;
    }
    f->len = (uint32_t)n;
    return true;
}

static void parser_free(struct parser *p)
{
    free(p->table);
    free(p->pending_head);
    free(p->pending);
    if (p->lit_cps)
        for (uint32_t i = 0; i < p->g->nnodes; i++)
            free(p->lit_cps[i]);
    free(p->lit_cps);
    free(p->lit_len);
    free(p->expected);
    free(p->first);
    free(p->first_high);
    free(p->follow);
    free(p->follow_high);
    free(p->follow_end);
    free(p->stamp_pred);
    free(p->pred);
    free(p->stamp_leaf);
    free(p->leaf);
    free(p->stamp_empty);
    free(p->empty);
}

/* What the sets and the forest take, in bytes (what grows with the input). */
static size_t forest_memory(const struct forest *f)
{
    return f->nitems * sizeof *f->items + f->npacked * sizeof *f->packed +
           f->nsymbols * sizeof *f->symbols + f->nlinks * sizeof *f->links;
}

/* The sets, left to right; returns the furthest position reached. */
static uint32_t run(struct parser *p)
{
    struct forest *f = p->f;
    uint32_t furthest = 0;
    for (uint32_t j = 0; j <= f->len; j++) {
        p->set = j;
        new_set(p);
        size_t first = f->nitems;
        if (j == 0) {
            bool created;
            add_item(p, f->start_node, 0, 0, NONE, &created);
        }
        for (uint32_t e = p->pending_head[j]; e != NONE; e = p->pending[e].next)
            if (worth_advancing(p, p->pending[e].waiter))
                advance(p, p->pending[e].waiter, p->pending[e].symbol);
        if (f->nitems == first) {
            /* Nothing reached here; a longer literal may still land later. */
            if (j >= p->last_pending)
                break;
            continue;
        }
        furthest = j;
        for (size_t idx = first; idx < f->nitems; idx++)
            process_item(p, (uint32_t)idx);
        if (p->max_memory && forest_memory(f) + p->npending * sizeof *p->pending > p->max_memory) {
            p->over_budget = true;
            break;
        }
        /* Accepted so far when the virtual start item has its one child. */
        struct slot *accept = table_find(p, KEY_ITEM, f->start_node, 1, 0);
        bool root_done = accept->value != NONE;
        if (p->expected_set == j)
            p->root_done_at_expected = root_done;
        if (j == f->len && root_done)
            f->root = f->packed[f->items[accept->value].packed].right;
    }
    return furthest;
}

/* Forget a run: the forest's arrays and the parser's sets. */
static void reset(struct parser *p)
{
    struct forest *f = p->f;
    f->nitems = f->npacked = f->nsymbols = f->nlinks = 0;
    f->root = NONE;
    for (size_t i = 0; i <= f->len; i++)
        p->pending_head[i] = NONE;
    p->npending = 0;
    p->last_pending = 0;
    if (p->table)
        memset(p->table, 0, p->table_cap * sizeof *p->table);
    size_t per_node = (size_t)p->g->nnodes + 2;
    memset(p->stamp_pred, 0, per_node * sizeof *p->stamp_pred);
    memset(p->stamp_leaf, 0, per_node * sizeof *p->stamp_leaf);
    memset(p->stamp_empty, 0, per_node * sizeof *p->stamp_empty);
    p->table_used = 0;
    p->nexpected = 0;
    p->expected_set = NONE;
    p->root_done_at_expected = false;
}

struct forest *parse_text(const struct graph *g, const char *name, const char *text,
                          size_t len, const struct parse_options *opts,
                          struct diag_list *diags)
{
    size_t limit = opts && opts->max_input_size ? opts->max_input_size : PARSE_DEFAULT_MAX_INPUT;
    if (len > limit) {
        diag_add(diags, DIAG_ERROR, name, 0, 0,
                 "input is %zu bytes, more than the limit of %zu (--max-input-size)", len, limit);
        return NULL;
    }
    struct forest *f = xcalloc(1, sizeof *f);
    f->graph = g;
    f->start_node = g->nnodes;
    f->root = NONE;
    if (!decode(f, name, text, len, diags)) {
        forest_free(f);
        return NULL;
    }
    struct parser p = {.f = f, .g = g, .expected_set = NONE};
    p.pending_head = xmalloc(((size_t)f->len + 2) * sizeof *p.pending_head);
    for (size_t i = 0; i <= f->len; i++)
        p.pending_head[i] = NONE;
    size_t per_node = (size_t)g->nnodes + 2; /* the virtual start node too */
    p.stamp_pred = xcalloc(per_node, sizeof *p.stamp_pred);
    p.pred = xcalloc(per_node, sizeof *p.pred);
    p.stamp_leaf = xcalloc(per_node, sizeof *p.stamp_leaf);
    p.leaf = xcalloc(per_node, sizeof *p.leaf);
    p.stamp_empty = xcalloc(per_node, sizeof *p.stamp_empty);
    p.empty = xcalloc(per_node, sizeof *p.empty);
    p.lit_cps = xcalloc((size_t)g->nnodes + 1, sizeof *p.lit_cps);
    p.lit_len = xcalloc((size_t)g->nnodes + 1, sizeof *p.lit_len);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (g->nodes[i].kind != NODE_LIT)
            continue;
        const struct expr *e = g->nodes[i].expr;
        p.lit_cps[i] = xmalloc((e->u.lit.len + 1) * sizeof(uint32_t));
        uint32_t n = 0;
        for (size_t b = 0; b < e->u.lit.len;) {
            uint32_t cp;
            size_t used = utf8_decode(e->u.lit.text + b, e->u.lit.len - b, &cp);
            if (!used)
                cp = (unsigned char)e->u.lit.text[b], used = 1;
            p.lit_cps[i][n++] = cp;
            b += used;
        }
        p.lit_len[i] = n;
    }

    compute_first(&p);
    compute_follow(&p);
    p.lookahead = true;
    p.max_memory = opts && opts->max_memory ? opts->max_memory : PARSE_DEFAULT_MAX_MEMORY;
    uint32_t furthest = run(&p);
    if (p.over_budget) {
        uint32_t line, col;
        position_of(f, furthest, &line, &col);
        /* The budget in the largest unit that divides it (4 GiB, 512 KiB). */
        static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
        size_t amount = p.max_memory;
        int unit = 0;
        while (unit < 3 && amount % 1024 == 0)
            amount /= 1024, unit++;
        diag_add(diags, DIAG_ERROR, name, line, col,
                 "parsing stopped here: it needs more than %zu %s of memory (--max-memory); "
                 "the input is too long or too ambiguous for this grammar",
                 amount, units[unit]);
        f->root = NONE;
    } else if (f->root == NONE) {
        /* Lookahead pruned the predictions that would have said what was
         * expected; parse once more without it to collect them. */
        reset(&p);
        p.lookahead = false;
        furthest = run(&p);
        report_no_parse(&p, name, furthest, diags);
    }
    parser_free(&p);
    if (f->root == NONE) {
        forest_free(f);
        return NULL;
    }
    return f;
}

void forest_free(struct forest *f)
{
    if (!f)
        return;
    free(f->text);
    free(f->items);
    free(f->packed);
    free(f->symbols);
    free(f->links);
    free(f);
}

size_t forest_item_count(const struct forest *f)
{
    return f->nitems;
}

/* ---- forest traversals ------------------------------------------------------
 * Every traversal below uses an explicit stack.  Forest ids: symbols are
 * 0 .. nsymbols-1, items come after them. */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

struct frame {
    uint32_t id;
    bool post;
};

uint64_t forest_count_trees(const struct forest *f, bool *infinite)
{
    size_t S = f->nsymbols, total = S + f->nitems;
    uint64_t *count = xcalloc(total + 1, sizeof *count);
    uint8_t *state = xcalloc(total + 1, 1); /* 0 new, 1 on the path, 2 done */
    struct frame *stack = NULL;
    size_t depth = 0, cap = 0;
    *infinite = false;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = (struct frame){f->root, false};
    while (depth) {
        struct frame fr = stack[--depth];
        uint32_t id = fr.id;
        if (!fr.post) {
            if (state[id])
                continue;
            state[id] = 1;
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = (struct frame){id, true};
        }
        /* Children: a symbol's complete items; an item's left items and right symbols. */
        uint64_t value = 0;
        if (id < S) {
            uint32_t l = f->symbols[id].derivs;
            if (l == NONE)
                value = 1; /* a leaf */
            for (; l != NONE; l = f->links[l].next) {
                uint32_t child = (uint32_t)(S + f->links[l].value);
                if (!fr.post) {
                    if (state[child] == 1)
                        *infinite = true;
                    else if (!state[child]) {
                        stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                        stack[depth++] = (struct frame){child, false};
                    }
                } else if (state[child] == 2) {
                    value = sat_add(value, count[child]);
                }
            }
        } else {
            const struct item *it = &f->items[id - S];
            if (it->packed == NONE)
                value = 1; /* complete with no children (zero repetitions) */
            for (uint32_t pk = it->packed; pk != NONE; pk = f->packed[pk].next) {
                uint32_t left = f->packed[pk].left, right = f->packed[pk].right;
                uint32_t kids[2] = {left == NONE ? NONE : (uint32_t)(S + left), right};
                uint64_t product = 1;
                for (int c = 0; c < 2; c++) {
                    uint32_t child = kids[c];
                    if (child == NONE)
                        continue;
                    if (!fr.post) {
                        if (state[child] == 1)
                            *infinite = true;
                        else if (!state[child]) {
                            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                            stack[depth++] = (struct frame){child, false};
                        }
                    } else {
                        product = state[child] == 2 ? sat_mul(product, count[child]) : 0;
                    }
                }
                if (fr.post)
                    value = sat_add(value, product);
            }
        }
        if (fr.post) {
            count[id] = value;
            state[id] = 2;
        }
    }
    uint64_t result = count[f->root];
    free(count);
    free(state);
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
    uint32_t *sym_ctx;      /* per symbol: head of a link list of contexts */
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
    for (uint32_t l = w->sym_ctx[sym]; l != NONE; l = w->links[l].next)
        if (w->links[l].value == ctx)
            return;
    w->links = xgrow(w->links, &w->links_cap, w->nlinks + 1, sizeof *w->links);
    w->links[w->nlinks] = (struct link){ctx, w->sym_ctx[sym]};
    w->sym_ctx[sym] = (uint32_t)w->nlinks++;
    w->work = xgrow(w->work, &w->work_cap, w->nwork + 2, sizeof *w->work);
    w->work[w->nwork++] = sym;
    w->work[w->nwork++] = ctx;
    uint32_t node = w->f->symbols[sym].node;
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
        uint32_t node = f->symbols[sym].node;
        uint32_t child_ctx = node_kind_is_symbolic(f->graph->nodes[node].kind)
                                 ? extend_context(&w.ctx, ctx, node, inside_at(&w, ctx, node),
                                                  scratch)
                                 : ctx;
        walk++;
        for (uint32_t l = f->symbols[sym].derivs; l != NONE; l = f->links[l].next) {
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = f->links[l].value;
        }
        while (depth) {
            uint32_t item = stack[--depth];
            if (stamp[item] == walk)
                continue;
            stamp[item] = walk;
            for (uint32_t pk = f->items[item].packed; pk != NONE; pk = f->packed[pk].next) {
                add_context(&w, f->packed[pk].right, child_ctx);
                if (f->packed[pk].left != NONE) {
                    stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
                    stack[depth++] = f->packed[pk].left;
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

/* ---- one tree ------------------------------------------------------------- */

/* The earliest entry of a prepended list: its tail.  The earliest derivation
 * of a symbol only uses symbols created before it, so following earliest
 * derivations always ends. */
static uint32_t earliest_link(const struct forest *f, uint32_t l)
{
    while (f->links[l].next != NONE)
        l = f->links[l].next;
    return f->links[l].value;
}

static uint32_t earliest_packed(const struct forest *f, uint32_t pk)
{
    while (f->packed[pk].next != NONE)
        pk = f->packed[pk].next;
    return pk;
}

bool forest_first_tree(const struct forest *f, struct dtree *t)
{
    const struct graph *g = f->graph;
    uint32_t *decisions = NULL, *stack = NULL, *kids = NULL;
    size_t ndec = 0, dec_cap = 0, depth = 0, stack_cap = 0, nkids = 0, kids_cap = 0;
    stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
    stack[depth++] = f->root;
    while (depth) {
        uint32_t sym = stack[--depth];
        const struct symbol *s = &f->symbols[sym];
        const struct graph_node *n = &g->nodes[s->node];
        if (n->kind == NODE_LIT)
            continue;
        decisions = xgrow(decisions, &dec_cap, ndec + 1, sizeof *decisions);
        if (n->kind == NODE_CLASS) {
            decisions[ndec++] = f->text[s->start];
            continue;
        }
        /* The children of the earliest derivation, collected right to left. */
        nkids = 0;
        uint32_t item = earliest_link(f, s->derivs);
        while (item != NONE && f->items[item].packed != NONE) {
            const struct packed *pk = &f->packed[earliest_packed(f, f->items[item].packed)];
            kids = xgrow(kids, &kids_cap, nkids + 1, sizeof *kids);
            kids[nkids++] = pk->right;
            item = pk->left;
        }
        if (n->kind == NODE_ALT) {
            uint32_t chosen = f->symbols[kids[0]].node;
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
    dtree_init(t, g, 0);
    long used = dtree_replay(t, decisions, ndec, NULL);
    free(decisions);
    free(stack);
    free(kids);
    return used == (long)ndec && dtree_complete(t);
}
