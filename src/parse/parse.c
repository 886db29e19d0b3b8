#include "parse/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/chain_sets.h"
#include "parse/lookahead.h"
#include "parse/parse_det.h"
#include "parse/parse_states.h"
#include "base/saturate.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

#define NONE UINT32_MAX

/* An Earley item of a non-leaf node: `dot` children recognized since
 * `origin`.  Items of one set are contiguous and created only while their set
 * is current.  Its prediction ("pred") is the item (node, 0, origin) in the
 * origin set whose waiters are advanced when this node completes.
 *
 * 16 bytes, because the fields of the two kinds of item overlap: a prediction
 * (dot 0) is its own pred, has no derivations and keeps its origin and its
 * waiters; an advanced item (dot > 0) keeps its pred, whose fields give its
 * origin, and its derivations.  Use the accessors below. */
struct item {
    uint32_t node, dot;
    uint32_t anchor; /* dot 0: origin; dot > 0: pred */
    uint32_t list;   /* dot 0: head of the waiters (links); dot > 0: head of the packed pairs */
};

/* One way an item came about: the item one child shorter (or NONE at the
 * first child) and the symbol of the last child. */
struct packed {
    uint32_t left, right, next;
};

/* A completed instance (node, start, end).  Leaves have no derivations.
 * Refs and alts ("unit" nodes: one child per derivation) complete as soon as
 * their child does, so they get no advanced item: the derivations of their
 * symbols are the child symbols themselves.  That saves an item, a packed
 * pair and a lookup per level of every unit chain (JSON's char → unescaped →
 * class costs three levels per character of a string). */
struct symbol {
    uint32_t node, start, end;
    uint32_t derivs; /* head of a link list of complete items, or of child symbols (unit nodes) */
};

struct link {
    uint32_t value, next;
};

/* A leaf matched at some position whose end is a later one.  In a
 * per-set parse (see parse_kpaths) symbols live for one set only, so
 * `symbol` is then the leaf's node, and the symbol is made on arrival. */
struct pending {
    uint32_t waiter, symbol, next;
};

/* Work of the current set, in the order it arose: process an item
 * (symbol == NONE), or complete the unit prediction `item` by child `symbol`. */
struct task {
    uint32_t item, symbol;
};

struct slot {
    uint32_t stamp; /* set index + 1; 0 = empty */
    uint32_t kind, node, dot, origin;
    uint32_t value;
};

enum { KEY_ITEM, KEY_SYMBOL, KEY_LEAF };
#define NO_MATCH (NONE - 1)

/* The big arrays of a parse grow by chunks of CHUNK_LEN elements that never
 * move: growing copies nothing (a doubling realloc holds the old and the new
 * block at once, a peak the memory budget would miss).  Element i of a chunked
 * array a is a[i >> CHUNK_BITS][i & CHUNK_MASK]: ITEM, SYMBOL, PACKED and
 * PENDING below. */
#define CHUNK_BITS 10
#define CHUNK_LEN ((size_t)1 << CHUNK_BITS)
#define CHUNK_MASK (CHUNK_LEN - 1)
#define ITEM(f, i) ((f)->items[(size_t)(i) >> CHUNK_BITS][(size_t)(i) & CHUNK_MASK])
#define SYMBOL(f, i) ((f)->symbols[(size_t)(i) >> CHUNK_BITS][(size_t)(i) & CHUNK_MASK])
#define PACKED(f, i) ((f)->packed[(size_t)(i) >> CHUNK_BITS][(size_t)(i) & CHUNK_MASK])
#define PENDING(p, i) ((p)->pending[(size_t)(i) >> CHUNK_BITS][(size_t)(i) & CHUNK_MASK])

/* Make room for element n (the next one) of a chunked array: a new chunk
 * when n starts one. */
#define CHUNK_ROOM(table, nchunks, table_cap, n)                                     \
    do {                                                                             \
        if (((size_t)(n) >> CHUNK_BITS) >= (nchunks)) {                              \
            (table) = xgrow((table), &(table_cap), (nchunks) + 1, sizeof *(table));   \
            (table)[(nchunks)++] = xmalloc(CHUNK_LEN * sizeof **(table));            \
        }                                                                            \
    } while (0)

static void free_chunks(void *table, size_t nchunks)
{
    void **chunks = table;
    for (size_t i = 0; i < nchunks; i++)
        free(chunks[i]);
    free(chunks);
}

struct forest {
    const struct graph *graph;
    uint32_t *text;      /* code points (read them with text_at) */
    uint32_t len;
    /* A per-set parse of text whose code points are all below 256 keeps
     * them a byte each instead (text is then NULL): ASCII text is its own
     * bytes, the caller's (the forest does not outlive the call); other
     * text is decoded into narrow_owned. */
    const unsigned char *narrow;
    unsigned char *narrow_owned;
    struct item **items; /* chunked, as the next two */
    size_t nitems, items_chunks, items_table_cap;
    size_t items_allocated; /* chunks allocated: in use (items_chunks), then spare */
    struct packed **packed;
    size_t npacked, packed_chunks, packed_table_cap;
    struct symbol **symbols;
    size_t nsymbols, symbols_chunks, symbols_table_cap;
    struct link *links;
    size_t nlinks, links_cap;
    uint32_t root;       /* symbol of the start node over the whole input */
    size_t npending_peak; /* statistics: pending advances of the parse */
    uint32_t start_node; /* graph->nnodes: the virtual start */
    /* A per-set parse (parse_kpaths) keeps no forest: the symbols, packed
     * pairs and symbol derivations (dlinks) of a set are summarized when it
     * ends (see summarize_set) and then dropped; an advanced item keeps its
     * summary in its list field, and its tree count (when not 1) in counts.
     * root is then the accepting item. */
    bool per_set;
    struct link *dlinks;
    size_t ndlinks, dlinks_cap;
    struct chain_sets *chains;
    bool counting;       /* keep tree counts */
    struct item_counts *counts;
    /* Expansions asked for: each symbol's summary also holds the expansions
     * (expansion_id) its derivations use, as marks; per node and per child
     * edge the set of its one mark, made on first use (NONE: not yet). */
    uint32_t *node_marks, *edge_marks;
};

/* Tree counts of the advanced items of a per-set parse, chunked like the
 * items; a chunk is allocated only when one of its items has a count other
 * than 1 (in unambiguous parses: never). */
struct item_count {
    uint64_t count;
    bool infinite;
};
struct item_counts {
    struct item_count **chunks; /* NULL: every count 1 */
    size_t nchunks, allocated;
};

/* Scratch of summarize_set, reused from set to set.  Local ids: the set's
 * symbols 0 .. S-1, then its items S + (item - first item of the set). */
struct summarizer {
    uint32_t *summary;       /* per local id: chain set */
    uint64_t *count;         /* per local id: trees */
    bool *infinite;          /* per local id: on or above a cycle */
    uint32_t *edge_start;    /* per local id + 1: into edges (the dependencies) */
    uint32_t *edges;
    uint32_t *index, *low;   /* Tarjan's */
    bool *on_stack;
    uint32_t *stack, *scc;
    struct { uint32_t node, edge; } *frames;
    size_t cap, edges_cap, frames_cap;
    /* Per symbol of the set: how many of the set's items were made before
     * it (the order things were made in; see summarize_in_order). */
    uint32_t *items_before;
    size_t items_before_cap;
};

/* A remembered lookup of the states' trie: a level's key and its entry. */
struct level_cache {
    uint32_t gen, entry;
    uint32_t key[6];
};

/* A level below a state met lately, and what the trie says of it: kept per
 * state (two ways, the newest first) in an array by the state's id, so that
 * the walk down a known state's levels compares three words instead of
 * hashing a key into the level cache and reading the trie's value (see
 * replay_set).  Valid while gen is states_gen, as the caches below. */
struct next_level {
    uint32_t gen, node, dot, cls; /* the level's key below the state */
    uint32_t entry, kind, id;     /* its trie entry and value: STATE_MORE or _DONE, id */
};

/* A remembered lookup of a transition's values, for up to VALUES_CACHE_INPUTS
 * inputs (4 words each, as in the key). */
#define VALUES_CACHE_INPUTS 4
struct values_cache {
    uint32_t gen, id, ninputs, entry;
    uint32_t inputs[4 * VALUES_CACHE_INPUTS];
};

/* Slots of each cache: a key has a bucket of two, by its hash.  Both are
 * allocated with the first replay (128 and 160 KiB). */
#define STATES_CACHE_BITS 12
#define STATES_CACHE_SLOTS (1u << STATES_CACHE_BITS)
#define VALUES_CACHE_BITS 11
#define VALUES_CACHE_SLOTS (1u << VALUES_CACHE_BITS)

/* The summary and tree count of an item or symbol of a per-set parse. */
struct value {
    uint32_t summary;
    uint64_t count;
    bool infinite;
};

struct parser {
    struct forest *f;
    const struct graph *g;
    uint32_t set;                 /* current position */
    struct slot *table;           /* the current set's index */
    size_t table_cap, table_used;
    /* Pending advances by the position they land at: a ring of heads, as no
     * leaf reaches further than the longest literal; entries used up go to a
     * free list, so the chunks hold the most that were ever pending at once. */
    uint32_t *pending_head;       /* per position modulo pending_mask + 1 */
    uint32_t pending_mask;
    uint32_t pending_free;        /* free list through next */
    uint32_t last_pending;        /* the furthest position with pending advances */
    /* Per-set parse: the items of finished sets that nothing open refers to
     * any more are collected (collect_items) once there are collect_at items. */
    size_t collect_at;
    size_t collect_sets_at;       /* and the chain sets at this many bytes */
    struct parse_stats stats;
    uint64_t *live;               /* bitmap of the items kept */
    uint32_t *live_rank;          /* per word of it: kept items before it */
    uint32_t *marking;            /* stack of the mark phase */
    size_t live_cap, live_rank_cap, marking_cap;
    /* Per node, what the current set holds for it (valid when the stamp is
     * the set index + 1): its prediction (node, 0, here), its leaf match, and
     * its empty completion (node, here, here).  These are most lookups, and
     * an array answers them without hashing. */
    uint32_t *stamp_pred, *pred;
    uint32_t *stamp_leaf, *leaf;
    uint32_t *stamp_empty, *empty;
    uint32_t *dot_cap;            /* per node: the largest dot state_dot tells apart */
    size_t max_memory;            /* bytes; 0 = no limit */
    bool over_budget;             /* stopped for max_memory */
    bool (*should_stop)(void *);  /* parse_options' */
    void *should_stop_ctx;
    bool stopped;                 /* should_stop said so */
    struct pending **pending;     /* chunked */
    size_t npending, pending_chunks, pending_table_cap;
    uint32_t set_first_item;      /* items of the current set: from here on */
    uint32_t accept_stamp, accept; /* the start item with its child, made in set stamp - 1 */
    struct summarizer sum;        /* per-set parse: its scratch arrays */
    struct task *agenda;          /* the current set's work */
    size_t nagenda, agenda_cap;
    uint32_t **lit_cps;           /* per literal node: its code points */
    uint32_t *lit_len;
    uint32_t *expected;           /* leaves predicted in the furthest set */
    size_t nexpected, expected_cap;
    uint32_t expected_set;
    bool root_done_at_expected;
    /* One character of lookahead: what can start each node (the tables of
     * la, named here for short). */
    bool lookahead;               /* off when collecting what was expected */
    struct lookahead la;
    /* The deterministic fast path (see fast_forward; per-set parses only). */
    struct parse_det *det;        /* NULL: off */
    uint32_t *det_summary;        /* per chain: the summary of its top symbol, or NONE */
    size_t det_summary_cap;
    size_t virtual_items;         /* items the fast path stood for since the last collection */
    /* Transitions (parse_states.h, see "replaying sets" below; with det). */
    struct parse_states *states;  /* NULL: off */
    uint32_t ntransitions;        /* ids given since the last clear */
    /* Caches of the trie's lookups and of the values' (see state_entry),
     * STATES_CACHE_SLOTS each.  An entry counts when its gen is states_gen,
     * which every clear of the states advances. */
    struct level_cache *level_cache;
    struct values_cache *values_cache;
    struct next_level *next_levels; /* 2 per state id (see struct next_level) */
    size_t next_levels_cap;         /* states it has room for */
    uint32_t states_gen;
    uint32_t budget_quiet;          /* sets replayed since the budget was looked at (run) */
    bool rec;                     /* the current set is being recorded */
    uint32_t rec_leaf, rec_w0;
    uint32_t *rec_old;            /* the stack items it read, in order */
    size_t nrec_old, rec_old_cap;
    size_t rec_components;        /* stats.sets_by_components when it began */
    uint32_t *rec_words;          /* the transition being recorded */
    size_t nrec_words, rec_words_cap;
    /* Its values program (see prog_op), recorded while prog_on. */
    bool prog_on, prog_ok;
    uint32_t *prog;
    size_t nprog, prog_cap;
    uint32_t *prog_index;         /* per local id: the number of its value, or NONE */
    size_t prog_index_cap;
    uint32_t prog_values;         /* values numbered so far */
    struct value *prog_run;       /* the values of a program being run */
    size_t prog_run_cap;
    struct value *prog_seen;      /* the values of the program being recorded, as made */
    size_t prog_seen_cap;
    uint64_t (*first)[2];         /* per node: ASCII characters that can start it */
    bool *first_high;             /* per node: a character >= 128 can start it */
    uint64_t (*follow)[2];        /* per node: ASCII characters that can follow it */
    bool *follow_high;            /* per node: a character >= 128 can follow it */
    bool *follow_end;             /* per node: the input can end after it */
};

/* The code point at position i < len. */
static inline uint32_t text_at(const struct forest *f, size_t i)
{
    return f->narrow ? f->narrow[i] : f->text[i];
}

/* ---- items ---------------------------------------------------------------- */

/* Make room for the next item: a new chunk when it starts one, or a spare
 * chunk that collect_items kept (freeing them, the heap's top went back to
 * the system and its pages were faulted in again at every collection: on
 * 1 MB of CSV six times the page faults of the whole parse). */
static inline void item_room(struct forest *f)
{
    if ((f->nitems >> CHUNK_BITS) < f->items_chunks)
        return;
    if (f->items_chunks < f->items_allocated) {
        f->items_chunks++;
        return;
    }
    CHUNK_ROOM(f->items, f->items_chunks, f->items_table_cap, f->nitems);
    f->items_allocated = f->items_chunks;
}

static inline uint32_t item_pred(const struct forest *f, uint32_t i)
{
    return ITEM(f, i).dot ? ITEM(f, i).anchor : i;
}

/* The head of an item's derivations; NONE for a prediction. */
static inline uint32_t item_packed(const struct forest *f, uint32_t i)
{
    return ITEM(f, i).dot ? ITEM(f, i).list : NONE;
}

static inline bool node_is_unit(const struct forest *f, uint32_t node)
{
    if (node == f->start_node)
        return false;
    enum node_kind kind = f->graph->nodes[node].kind;
    return kind == NODE_REF || kind == NODE_ALT;
}

/* ---- growing arrays ------------------------------------------------------ */

/* ---- lists: a symbol's derivations, a prediction's waiters ------------------
 * A list head is NONE (empty), a single value tagged with LIST_ONE, or the
 * index of its first link.  Most lists hold one value (a symbol derived one
 * way, a node predicted by one item), and then need no link.  Values and link
 * indices stay below LIST_ONE (the parse stops before: see run). */
#define LIST_ONE 0x80000000u
#define LIST_MAX_INDEX (LIST_ONE - 2)

static uint32_t push_link(struct link **links, size_t *n, size_t *cap, uint32_t value,
                          uint32_t next)
{
    *links = xgrow(*links, cap, *n + 1, sizeof **links);
    (*links)[*n] = (struct link){value, next};
    return (uint32_t)(*n)++;
}

/* Prepend to a list whose links are in *links: the earliest value ends up last. */
static uint32_t list_push_in(struct link **links, size_t *n, size_t *cap, uint32_t head,
                             uint32_t value)
{
    if (head == NONE)
        return value | LIST_ONE;
    if (head & LIST_ONE)
        head = push_link(links, n, cap, head & ~LIST_ONE, NONE);
    return push_link(links, n, cap, value, head);
}

/* Iterate: for (uint32_t c = head, v; list_next_in(links, &c, &v);) ... */
static inline bool list_next_in(const struct link *links, uint32_t *cursor, uint32_t *value)
{
    uint32_t c = *cursor;
    if (c == NONE)
        return false;
    if (c & LIST_ONE) {
        *value = c & ~LIST_ONE;
        *cursor = NONE;
        return true;
    }
    *value = links[c].value;
    *cursor = links[c].next;
    return true;
}

static uint32_t list_push(struct forest *f, uint32_t head, uint32_t value)
{
    return list_push_in(&f->links, &f->nlinks, &f->links_cap, head, value);
}

static inline bool list_next(const struct forest *f, uint32_t *cursor, uint32_t *value)
{
    return list_next_in(f->links, cursor, value);
}

/* A symbol's derivations: with the waiters in a forest; per set of their
 * own in a per-set parse, where they are dropped when the set ends. */
static uint32_t deriv_push(struct forest *f, uint32_t head, uint32_t value)
{
    if (f->per_set)
        return list_push_in(&f->dlinks, &f->ndlinks, &f->dlinks_cap, head, value);
    return list_push(f, head, value);
}

static uint32_t add_symbol(struct forest *f, uint32_t node, uint32_t start, uint32_t end)
{
    CHUNK_ROOM(f->symbols, f->symbols_chunks, f->symbols_table_cap, f->nsymbols);
    SYMBOL(f, f->nsymbols) = (struct symbol){node, start, end, NONE};
    return (uint32_t)f->nsymbols++;
}

static void add_packed(struct forest *f, uint32_t item, uint32_t left, uint32_t right)
{
    CHUNK_ROOM(f->packed, f->packed_chunks, f->packed_table_cap, f->npacked);
    PACKED(f, f->npacked) = (struct packed){left, right, ITEM(f, item).list};
    ITEM(f, item).list = (uint32_t)f->npacked++;
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
    p->table_cap = old_cap ? old_cap * 2 : 64;
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

static void push_task(struct parser *p, uint32_t item, uint32_t symbol)
{
    p->agenda = xgrow(p->agenda, &p->agenda_cap, p->nagenda + 1, sizeof *p->agenda);
    p->agenda[p->nagenda++] = (struct task){item, symbol};
}

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
    item_room(f);
    uint32_t idx = (uint32_t)f->nitems++;
    p->stats.items_made++;
    if (f->nitems > p->stats.items_peak)
        p->stats.items_peak = f->nitems;
    ITEM(f, idx) = (struct item){node, dot, dot ? pred : origin, NONE};
    push_task(p, idx, NONE);
    if (here)
        p->stamp_pred[node] = stamp, p->pred[node] = idx;
    else
        s->value = idx;
    if (node == f->start_node && dot == 1)
        p->accept_stamp = stamp, p->accept = idx;
    return idx;
}

/* A symbol of the current set; a per-set parse notes when it came
 * (summarize_in_order). */
static uint32_t new_symbol(struct parser *p, uint32_t node, uint32_t start, uint32_t end)
{
    struct forest *f = p->f;
    uint32_t sym = add_symbol(f, node, start, end);
    if (f->per_set) {
        struct summarizer *z = &p->sum;
        z->items_before = xgrow(z->items_before, &z->items_before_cap, (size_t)sym + 1,
                                sizeof *z->items_before);
        z->items_before[sym] = (uint32_t)(f->nitems - p->set_first_item);
    }
    return sym;
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
    uint32_t cp = text_at(p->f, at);
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
    struct item it = ITEM(f, w);
    /* An empty repetition beyond the minimum adds nothing but infinitely many
     * trees (and items): leave it out. */
    if (it.node != f->start_node && p->g->nodes[it.node].kind == NODE_QUANT &&
        SYMBOL(f, s).start == SYMBOL(f, s).end &&
        it.dot >= p->g->nodes[it.node].expr->u.quant.min)
        return;
    if (node_is_unit(f, it.node)) {
        push_task(p, w, s); /* w is the unit's prediction: it completes */
        return;
    }
    bool created;
    uint32_t pred = item_pred(f, w);
    uint32_t next = add_item(p, it.node, it.dot + 1, ITEM(f, pred).anchor, pred, &created);
    add_packed(f, next, it.dot ? w : NONE, s);
}

/* Would advancing waiter w lead anywhere? */
static bool worth_advancing(const struct parser *p, uint32_t w)
{
    const struct item *it = &ITEM(p->f, w);
    return viable(p, it->node, it->dot + 1);
}

static bool leaf_matches(const struct parser *p, uint32_t leaf, uint32_t at, uint32_t *end)
{
    const struct graph_node *n = &p->g->nodes[leaf];
    const struct forest *f = p->f;
    if (n->kind == NODE_CLASS) {
        if (at >= f->len || !grammar_class_matches(n->expr, text_at(f, at)))
            return false;
        *end = at + 1;
        return true;
    }
    uint32_t len = p->lit_len[leaf];
    if (len > f->len - at)
        return false;
    if (f->narrow) {
        for (uint32_t i = 0; i < len; i++)
            if (p->lit_cps[leaf][i] != f->narrow[at + i])
                return false;
    } else if (len && memcmp(p->lit_cps[leaf], f->text + at, len * sizeof(uint32_t)) != 0) {
        return false;
    }
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

static inline void push_pending(struct parser *p, uint32_t at, uint32_t waiter, uint32_t symbol)
{
    uint32_t e = p->pending_free;
    if (e != NONE) {
        p->pending_free = PENDING(p, e).next;
    } else {
        CHUNK_ROOM(p->pending, p->pending_chunks, p->pending_table_cap, p->npending);
        e = (uint32_t)p->npending++;
    }
    uint32_t *head = &p->pending_head[at & p->pending_mask];
    PENDING(p, e) = (struct pending){waiter, symbol, *head};
    if (at > p->last_pending)
        p->last_pending = at;
    *head = e;
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
            p->leaf[c] = leaf_matches(p, c, j, &end) ? new_symbol(p, c, j, end) : NO_MATCH;
        }
        uint32_t sym = p->leaf[c];
        if (sym == NO_MATCH)
            return;
        if (SYMBOL(f, sym).end == j) {
            if (worth_advancing(p, w))
                advance(p, w, sym);
        } else {
            push_pending(p, SYMBOL(f, sym).end, w, f->per_set ? c : sym);
        }
        return;
    }
    if (p->lookahead && p->g->nodes[c].min_length > 0) {
        /* Not nullable: worth predicting only if the next character can start it. */
        if (j >= f->len)
            return;
        uint32_t cp = text_at(f, j);
        bool can = cp < 128 ? (p->first[c][cp >> 6] >> (cp & 63)) & 1 : p->first_high[c];
        if (!can)
            return;
    }
    bool created;
    uint32_t pr = add_item(p, c, 0, j, NONE, &created);
    ITEM(f, pr).list = list_push(f, ITEM(f, pr).list, w);
    /* A nullable node may already have completed here with an empty span. */
    if (p->g->nodes[c].min_length == 0) {
        uint32_t done = empty_symbol(p, c);
        if (done != NONE && worth_advancing(p, w))
            advance(p, w, done);
    }
}

static bool can_follow(const struct parser *p, uint32_t node);

/* A set being recorded read stack item w (of an earlier set). */
static void rec_old_item(struct parser *p, uint32_t w)
{
    p->rec_old = xgrow(p->rec_old, &p->rec_old_cap, p->nrec_old + 1, sizeof *p->rec_old);
    p->rec_old[p->nrec_old++] = w;
}

/* `node`, predicted by item `pred` at `origin`, completes here by derivation
 * `deriv`: a complete item, or the child symbol of a unit node. */
static void complete_node(struct parser *p, uint32_t node, uint32_t pred, uint32_t origin,
                          uint32_t deriv)
{
    struct forest *f = p->f;
    /* A node that the next character cannot follow is not complete here in
     * any parse: skip it, and the chain of completions above it (right
     * recursion would otherwise complete every open level at every step). */
    if (p->lookahead && origin < p->set && node != f->start_node && !can_follow(p, node))
        return;
    bool empty = origin == p->set;
    struct slot *s = empty ? NULL : table_find(p, KEY_SYMBOL, node, 0, origin);
    uint32_t known = empty ? empty_symbol(p, node) : s->value;
    if (known != NONE) {
        /* Another derivation of a known symbol: its waiters have advanced. */
        SYMBOL(f, known).derivs = deriv_push(f, SYMBOL(f, known).derivs, deriv);
        return;
    }
    /* The symbol is made once a waiter can use it.  An empty one always:
     * waiters may still register on it in this set. */
    uint32_t sym = NONE;
    if (empty) {
        sym = new_symbol(p, node, origin, p->set);
        SYMBOL(f, sym).derivs = deriv_push(f, NONE, deriv);
        p->stamp_empty[node] = p->set + 1;
        p->empty[node] = sym;
    }
    for (uint32_t c = ITEM(f, pred).list, w; list_next(f, &c, &w);) {
        if (p->rec && pred < p->set_first_item)
            rec_old_item(p, w);
        if (sym == NONE) {
            if (!worth_advancing(p, w))
                continue;
            sym = new_symbol(p, node, origin, p->set);
            SYMBOL(f, sym).derivs = deriv_push(f, NONE, deriv);
            /* Advancing may have grown the table: look the slot up again. */
            table_find(p, KEY_SYMBOL, node, 0, origin)->value = sym;
        } else if (!worth_advancing(p, w)) {
            continue;
        }
        advance(p, w, sym);
    }
}

static void complete(struct parser *p, uint32_t x)
{
    uint32_t pred = item_pred(p->f, x);
    complete_node(p, ITEM(p->f, x).node, pred, ITEM(p->f, pred).anchor, x);
}

static void process_item(struct parser *p, uint32_t idx)
{
    const struct graph *g = p->g;
    struct item it = ITEM(p->f, idx);
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

/* Can the current position's next character (or the end) follow `node`? */
static bool can_follow(const struct parser *p, uint32_t node)
{
    if (p->set >= p->f->len)
        return p->follow_end[node];
    uint32_t cp = text_at(p->f, p->set);
    return cp < 128 ? (p->follow[node][cp >> 6] >> (cp & 63)) & 1 : p->follow_high[node];
}

/* ---- errors ---------------------------------------------------------------- */

static void position_of(const struct forest *f, uint32_t at, uint32_t *line, uint32_t *col)
{
    *line = 1, *col = 1;
    for (uint32_t i = 0; i < at && i < f->len; i++) {
        if (text_at(f, i) == '\n')
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
        describe_char(&msg, text_at(f, at));
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
    /* A literal that begins here and stops matching further on (a typo in
     * `true`) makes the error look one token early: say where it stopped.
     * The one that matched furthest is named (the first, in the order
     * above, of equals). */
    uint32_t typo = NONE, typo_end = at;
    for (size_t i = 0; i < ne && at < f->len; i++) {
        uint32_t leaf = ex[i].leaf;
        if (p->g->nodes[leaf].kind != NODE_LIT || p->lit_len[leaf] < 2)
            continue;
        uint32_t k = 0;
        while (k < p->lit_len[leaf] && at + k < f->len && text_at(f, at + k) == p->lit_cps[leaf][k])
            k++;
        if (k > 0 && k < p->lit_len[leaf] && at + k > typo_end)
            typo = leaf, typo_end = at + k;
    }
    if (typo != NONE) {
        uint32_t tline, tcol;
        position_of(f, typo_end, &tline, &tcol);
        strbuf_addstr(&msg, " (");
        describe_leaf(p, typo, &msg);
        strbuf_addf(&msg, " stops matching at %u:%u: ", tline, tcol);
        if (typo_end < f->len)
            describe_char(&msg, text_at(f, typo_end));
        else
            strbuf_addstr(&msg, "end of input");
        strbuf_addch(&msg, ')');
    }
    /* Editors end a file with a line break; say so when that is all that is
     * wrong (the parse stays strict: the grammar is the definition). */
    size_t tail = at;
    while (tail < f->len && (text_at(f, tail) == '\n' || text_at(f, tail) == '\r'))
        tail++;
    if (at < f->len && tail == f->len)
        strbuf_addstr(&msg, " (the sample ends with a line break, which the grammar does not "
                            "allow: remove it, or allow trailing whitespace in the grammar)");
    strbuf_free(&label);
    strbuf_free(&previous);
    free(ex);
    uint32_t line, col;
    position_of(f, at, &line, &col);
    diag_add(diags, DIAG_ERROR, name, line, col, "%s", strbuf_str(&msg));
    strbuf_free(&msg);
}

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

static uint32_t leaf_length(const struct parser *p, uint32_t leaf)
{
    return p->g->nodes[leaf].kind == NODE_CLASS ? 1 : p->lit_len[leaf];
}

static void counts_put(struct item_counts *c, uint32_t item, uint64_t count, bool infinite)
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

static uint64_t counts_get(const struct item_counts *c, uint32_t item, bool *infinite)
{
    size_t chunk = (size_t)item >> CHUNK_BITS;
    if (chunk >= c->nchunks || !c->chunks[chunk]) {
        *infinite = false;
        return 1;
    }
    const struct item_count *e = &c->chunks[chunk][item & CHUNK_MASK];
    *infinite = e->infinite;
    return e->count;
}

static void counts_free(struct item_counts *c)
{
    if (!c)
        return;
    free_chunks(c->chunks, c->nchunks);
    free(c);
}

/* The local id of an item, or NONE: an item of an earlier set is final, and a
 * prediction has no derivations (summary empty, one tree). */
static inline uint32_t local_item(const struct parser *p, uint32_t item)
{
    if (item < p->set_first_item || ITEM(p->f, item).dot == 0)
        return NONE;
    return (uint32_t)p->f->nsymbols + (item - p->set_first_item);
}

static struct value item_value(const struct parser *p, uint32_t item)
{
    struct value v = {CHAIN_SET_EMPTY, 1, false};
    if (item == NONE || ITEM(p->f, item).dot == 0)
        return v;
    uint32_t id = local_item(p, item);
    if (id != NONE)
        return (struct value){p->sum.summary[id], p->sum.count[id], p->sum.infinite[id]};
    v.summary = ITEM(p->f, item).list;
    if (p->f->counting)
        v.count = counts_get(p->f->counts, item, &v.infinite);
    return v;
}

/* Empty the caches of mark sets (all NONE): at the start, and when the
 * chain sets are collected. */
static void forget_marks(struct forest *f)
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

/* ---- values programs -------------------------------------------------------
 * The values of a set that a transition makes (replaying sets, below) are a
 * fixed sequence of accumulator operations on the values of its inputs and
 * on constants: what local_value does for each of its symbols and items in
 * the order summarize_in_order takes them (each with one derivation: a
 * recorded set has one way on).  While a set being recorded is summarized
 * (prog_on), the operations are written down, so that a replay with inputs
 * never seen runs them instead of building the set again.  A value is ops
 * (PROG_INPUT i: add input i; PROG_VALUE k: add value k made before;
 * PROG_CONST set: add a set; PROG_EXTEND node) up to PROG_TAKE; its tree
 * count is the product of its inputs' and values' counts, and it is
 * infinite when one of them is.  PROG_OUT k lists the values of the set's
 * advanced items in order.  Two words per op. */
enum { PROG_INPUT, PROG_VALUE, PROG_CONST, PROG_EXTEND, PROG_TAKE, PROG_OUT, PROG_OUT_CONST,
       PROG_OUT_INPUT };
/* A recording call, made only while recording (most sets are not). */
#define PROG(call)                                                                           \
    do {                                                                                     \
        if (p->prog_on)                                                                      \
            call;                                                                            \
    } while (0)

static void prog_op(struct parser *p, uint32_t op, uint32_t arg)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    p->prog = xgrow(p->prog, &p->prog_cap, p->nprog + 2, sizeof *p->prog);
    p->prog[p->nprog++] = op;
    p->prog[p->nprog++] = arg;
}

/* An item's value as an operand: a prediction's (or none's) is the empty
 * set, a local item's a value made before, a stack item's one of the
 * inputs (the last rec_words[6] words of the transition: their levels). */
static void prog_item(struct parser *p, uint32_t item)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    if (item == NONE || ITEM(p->f, item).dot == 0) {
        prog_op(p, PROG_CONST, CHAIN_SET_EMPTY);
        return;
    }
    uint32_t id = local_item(p, item);
    if (id != NONE) {
        if (p->prog_index[id] == NONE)
            p->prog_ok = false;
        prog_op(p, PROG_VALUE, p->prog_index[id]);
        return;
    }
    uint32_t ninputs = p->rec_words[6];
    const uint32_t *inputs = p->rec_words + p->nrec_words - ninputs;
    for (uint32_t i = 0; i < ninputs; i++)
        if (p->rec_old[inputs[i]] == item) {
            prog_op(p, PROG_INPUT, i);
            return;
        }
    p->prog_ok = false;
}

static void prog_symbol(struct parser *p, uint32_t sym)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    if (p->prog_index[sym] == NONE)
        p->prog_ok = false;
    prog_op(p, PROG_VALUE, p->prog_index[sym]);
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

/* Local id `id` got value v, the program's next (PROG_TAKE). */
static void prog_value(struct parser *p, uint32_t id, struct value v)
{
    p->prog_seen = xgrow(p->prog_seen, &p->prog_seen_cap, (size_t)p->prog_values + 1,
                         sizeof *p->prog_seen);
    p->prog_seen[p->prog_values] = v;
    p->prog_index[id] = p->prog_values++;
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

static void summarize_set(struct parser *p)
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

static void summarizer_free(struct summarizer *z)
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
static size_t summarizer_memory(const struct parser *p)
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
#define COLLECT_MIN_ITEMS ((size_t)1 << 16)

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
#define COLLECT_MIN_SET_BYTES ((size_t)1 << 20)

/* Forget every state and transition (and so what the caches remember). */
static void states_clear(struct parser *p)
{
    parse_states_clear(p->states);
    p->ntransitions = 0;
    if (++p->states_gen == 0) { /* wrapped: no entry may look current */
        if (p->level_cache) {
            memset(p->level_cache, 0, STATES_CACHE_SLOTS * sizeof *p->level_cache);
            memset(p->values_cache, 0, VALUES_CACHE_SLOTS * sizeof *p->values_cache);
        }
        if (p->next_levels)
            memset(p->next_levels, 0, 2 * p->next_levels_cap * sizeof *p->next_levels);
        p->states_gen = 1;
    }
}

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

static void collect_items(struct parser *p)
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

/* ---- the parse ------------------------------------------------------------- */

/* Text whose code points are all below 256 (ASCII, Latin-1 letters), a
 * byte each, for a per-set parse: true if it is such text (and valid).  No
 * 4 bytes per character to allocate and write: on a virtual machine the
 * first touch of fresh pages was a tenth of a parse.  ASCII is read where it
 * is. */
static bool decode_narrow(struct forest *f, const unsigned char *s, size_t len)
{
    bool ascii = true;
    for (size_t i = 0; i < len;) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t used = utf8_decode((const char *)s + i, len - i, &cp);
        if (!used || cp > 0xFF)
            return false; /* decode's way: it reports an invalid byte */
        ascii = false;
        i += used;
    }
    if (ascii) {
        f->narrow = s;
        f->len = (uint32_t)len;
        return true;
    }
    f->narrow_owned = xmalloc_written_once(len + 1, NULL);
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = s[i];
        size_t used = 1;
        if (cp >= 0x80)
            used = utf8_decode((const char *)s + i, len - i, &cp);
        f->narrow_owned[n++] = (unsigned char)cp;
        i += used;
    }
    f->narrow = f->narrow_owned;
    f->len = (uint32_t)n;
    return true;
}

static bool decode(struct forest *f, const char *name, const char *text, size_t len,
                   struct diag_list *diags)
{
    const unsigned char *s = (const unsigned char *)text;
    if (f->per_set && s && decode_narrow(f, s, len))
        return true;
    f->text = xmalloc_written_once((len + 1) * sizeof *f->text, NULL);
    size_t i = 0, n = 0;
    while (i < len) {
        /* Runs of ASCII (most text) a byte a code point, without a branch
         * per kind of byte; the position is worked out only for an error. */
        while (i < len && s[i] < 0x80)
            f->text[n++] = s[i++];
        if (i == len)
            break;
        uint32_t cp;
        size_t used = utf8_decode(text + i, len - i, &cp);
        if (!used) {
            uint32_t line, col;
            f->len = (uint32_t)n;
            position_of(f, (uint32_t)n, &line, &col);
            diag_add(diags, DIAG_ERROR, name, line, col, "invalid UTF-8 byte 0x%02X", s[i]);
            return false;
        }
        f->text[n++] = cp;
        i += used;
    }
    f->len = (uint32_t)n;
    return true;
}

static void parser_free(struct parser *p)
{
    free(p->table);
    free(p->pending_head);
    free(p->live);
    free(p->live_rank);
    free(p->marking);
    free_chunks(p->pending, p->pending_chunks);
    free(p->agenda);
    if (p->lit_cps)
        for (uint32_t i = 0; i < p->g->nnodes; i++)
            free(p->lit_cps[i]);
    free(p->lit_cps);
    free(p->lit_len);
    free(p->expected);
    lookahead_free(&p->la);
    parse_det_free(p->det);
    parse_states_free(p->states);
    free(p->level_cache);
    free(p->values_cache);
    free(p->next_levels);
    free(p->rec_old);
    free(p->rec_words);
    free(p->prog);
    free(p->prog_index);
    free(p->prog_run);
    free(p->prog_seen);
    free(p->det_summary);
    free(p->stamp_pred);
    free(p->dot_cap);
    free(p->pred);
    free(p->stamp_leaf);
    free(p->leaf);
    free(p->stamp_empty);
    free(p->empty);
    summarizer_free(&p->sum);
}

/* What the forest's arrays hold, in bytes. */
static size_t forest_memory(const struct forest *f)
{
    return f->nitems * sizeof **f->items + f->npacked * sizeof **f->packed +
           f->nsymbols * sizeof **f->symbols + f->nlinks * sizeof *f->links;
}

/* Bytes that the passes over a finished forest allocate besides it.
 * forest_count_trees: 4 per symbol and item, and a stack that reaches about
 * half as many entries on the deepest inputs ([[[...]]]), growing by
 * doubling: 8 in all.  The k-path walk: 4 per item, 4 per symbol, and a work
 * list that reaches about one pair per symbol on the deepest inputs: 12 per
 * symbol.  (Symbols seen in more than one context, with a larger k or pins
 * on an ambiguous forest, take 16 bytes more per extra context, which this
 * does not foresee.) */
static size_t passes_memory(const struct forest *f)
{
    size_t count = 8 * (f->nsymbols + f->nitems);
    size_t walk = 12 * f->nsymbols + 4 * f->nitems;
    return count > walk ? count : walk;
}

/* What --max-memory covers: everything allocated that grows with the input,
 * and what the passes over the forest will take after the parse.  So the
 * peak resident size of a parse and its passes stays within the budget. */
static size_t parser_memory(const struct parser *p)
{
    const struct forest *f = p->f;
    size_t per_position = (f->text ? ((size_t)f->len + 1) * sizeof *f->text
                                   : f->narrow_owned ? (size_t)f->len + 1 : 0) +
                          ((size_t)p->pending_mask + 1) * sizeof *p->pending_head;
    /* Chunks by what they hold: the rest of the last chunk of each array has
     * never been written, and pages never written are never resident. */
    size_t chunks = f->nitems * sizeof **f->items + f->npacked * sizeof **f->packed +
                    f->nsymbols * sizeof **f->symbols + p->npending * sizeof **p->pending;
    /* Arrays that still grow by doubling: while they move, the old block is
     * there too, so half as much again. */
    size_t doubling = f->links_cap * sizeof *f->links + p->agenda_cap * sizeof *p->agenda +
                      p->table_cap * sizeof *p->table;
    if (f->per_set) {
        /* Symbols and pairs of one set at a time, in the chunks the largest
         * set needed; no passes over a forest afterwards. */
        chunks = f->nitems * sizeof **f->items + p->npending * sizeof **p->pending +
                 (f->items_allocated - f->items_chunks) * CHUNK_LEN * sizeof **f->items +
                 (f->packed_chunks * sizeof **f->packed + f->symbols_chunks * sizeof **f->symbols) *
                     CHUNK_LEN;
        size_t summaries = summarizer_memory(p) + p->live_cap * sizeof *p->live +
                           (p->det ? parse_det_memory(p->det) : 0) +
                           p->det_summary_cap * sizeof *p->det_summary +
                           (p->states ? parse_states_memory(p->states) : 0) +
                           (p->rec_old_cap + p->rec_words_cap + p->prog_cap +
                            p->prog_index_cap) * sizeof(uint32_t) +
                           p->prog_run_cap * sizeof *p->prog_run +
                           p->live_rank_cap * sizeof *p->live_rank +
                           p->marking_cap * sizeof *p->marking;
        size_t caches = p->level_cache ? STATES_CACHE_SLOTS * sizeof *p->level_cache +
                                             VALUES_CACHE_SLOTS * sizeof *p->values_cache +
                                             2 * p->next_levels_cap * sizeof *p->next_levels
                                       : 0;
        return chunks + doubling + doubling / 2 + summaries + summaries / 2 + caches +
               per_position;
    }
    return chunks + doubling + doubling / 2 + per_position + passes_memory(f);
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
 * Returns the last set stood for (j when none). */

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

static uint32_t fast_forward(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    const struct graph *g = p->g;
    if (!p->lookahead || j + 1 >= f->len || p->last_pending != j + 1)
        return j;
    uint32_t slot = (j + 1) & p->pending_mask;
    uint32_t e = p->pending_head[slot];
    if (e == NONE || PENDING(p, e).next != NONE)
        return j;
    /* Up from the leaf's waiter through unit predictions of this set, each
     * with one waiter, to X. */
    uint32_t x = PENDING(p, e).waiter, depth = 0;
    while (x >= p->set_first_item && ITEM(f, x).dot == 0 && node_is_unit(f, ITEM(f, x).node)) {
        uint32_t l = ITEM(f, x).list;
        if (++depth > PARSE_DET_MAX_CHAIN || l == NONE || !(l & LIST_ONE))
            return j;
        x = l & ~LIST_ONE;
    }
    struct item X = ITEM(f, x);
    if (x < p->set_first_item || X.node == f->start_node || g->nodes[X.node].kind != NODE_QUANT)
        return j;
    uint32_t q = X.node, c = graph_children(g, q)[0];
    uint32_t chain = parse_det_chain(p->det, c, text_at(f, j));
    if (chain == PARSE_DET_NONE)
        return j;
    uint32_t k, leaf;
    const uint32_t *nodes = parse_det_nodes(p->det, chain, &k, &leaf);
    if (k != depth || leaf != PENDING(p, e).symbol)
        return j;
    for (uint32_t i = k, y = PENDING(p, e).waiter; i-- > 0; y = ITEM(f, y).list & ~LIST_ONE)
        if (ITEM(f, y).node != nodes[i])
            return j;
    /* The steps. */
    uint32_t min = g->nodes[q].expr->u.quant.min, max = g->nodes[q].expr->u.quant.max;
    uint32_t dot = X.dot, summary = X.dot ? X.list : CHAIN_SET_EMPTY;
    uint32_t last_in = NONE, last_chain = NONE, last_out = NONE;
    struct chain_sets *cs = f->chains;
    size_t stood_for = 0;
    uint32_t m = j + 1;
    for (; m < f->len; m++) {
        uint32_t ch = text_at(f, m);
        if (!parse_det_followed_by(p->det, chain, ch) || dot + 1 >= max ||
            (dot + 1 >= min && lookahead_has(p->follow[q], p->follow_high[q], ch)))
            break;
        uint32_t next = parse_det_chain(p->det, c, ch);
        if (next == PARSE_DET_NONE)
            break;
        if (summary != last_in || chain != last_chain) {
            last_in = summary, last_chain = chain;
            uint32_t s = chain_summary(p, chain);
            chain_sets_acc_start(cs);
            chain_sets_acc_add(cs, summary);
            chain_sets_acc_add(cs, s);
            last_out = chain_sets_acc_take(cs);
        }
        summary = last_out;
        dot++;
        chain = next;
        parse_det_nodes(p->det, chain, &k, &leaf);
        stood_for += 1 + k;
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

/* ---- replaying sets (parse_kpaths) -------------------------------------------
 * Where fast_forward cannot stand for a set (a token boundary: a sequence's
 * next child, a rule's end, a quantifier's next round, whitespace that may
 * or may not be there), the set is still built the same way every time the
 * parse is in the same *state*: one leaf L pending at m and nothing beyond
 * it, the next character ch = text[m], and the stack above L's waiter x_0
 * (x_{i+1}: the one waiter of x_i's prediction) as far as the set reads it,
 * each item by its node, its dot (a quantifier's dot only as far as its
 * minimum and maximum tell rounds apart) and which of the earlier levels has
 * the same origin.  Everything the set does (items made, lookahead, leaves
 * matched, waiters advanced) follows from that and from the text: a set's
 * only other inputs are the literals longer than one character that it
 * tried, which a transition keeps as conditions.  So the first set built in
 * a state is recorded, relative to the stack, as a *transition*
 * (parse_states.h), and in the same state again it is replayed: the same
 * items are written in the same order with the same fields, the same leaves
 * pending, without the set's index, symbols, derivations or summarizing.
 * The values of the items it makes (summary, tree count) are a function of
 * the values of the stack items it advances (its inputs), remembered per
 * transition and inputs; new inputs build the set once more.  Only sets of
 * one way on are recorded: each item one derivation, each prediction one
 * waiter, each symbol one derivation, no cycle, the start item untouched.
 *
 * A transition's words: D (levels read), N (items made), the number of
 * conditions, of pending leaves and of inputs, the length of its values
 * program (0: none); then per condition (leaf, matched); per item (TR_PRED,
 * node, waiter) or (TR_ADV, TR_OLD or TR_NEW, level or item); per pending
 * leaf (offset, waiter item, leaf); per input its level; the program (see
 * prog_op).  The states form a trie, one 6-word key per level: (TAG_ROOT,
 * L, ch, level 0) or (TAG_LEVEL, the state above, 0, level d), a level
 * being its item's node, dot and origin class, give (MORE, the state's id:
 * read one more level) or (DONE, the transition's id, its words);
 * (TAG_VALUES, id, per input summary, count, infinite) the values of its
 * advanced items, from the set built or from the program. */
#define STATES_MAX_DEPTH 16
#define STATES_MAX_ITEMS 64
#define STATES_MAX_BYTES ((size_t)16 << 20)
/* See run: how many sets replayed with known values may pass before the
 * memory budget is looked at again. */
#define BUDGET_QUIET_SETS 64
enum { TAG_ROOT = 1, TAG_LEVEL, TAG_VALUES };
enum { STATE_MORE, STATE_DONE };
enum { TR_PRED, TR_ADV };
enum { TR_OLD, TR_NEW };
#define TR_HEAD 6

/* The next stack item above x, or NONE. */
static uint32_t stack_next(const struct parser *p, uint32_t x)
{
    const struct forest *f = p->f;
    if (ITEM(f, x).node == f->start_node)
        return NONE;
    uint32_t l = ITEM(f, item_pred(f, x)).list;
    return l != NONE && (l & LIST_ONE) ? l & ~LIST_ONE : NONE;
}

/* The dot of an item as far as the parser tells them apart: rounds of an
 * unbounded quantifier past its minimum behave alike. */
static inline uint32_t state_dot(const struct parser *p, uint32_t node, uint32_t dot)
{
    return dot > p->dot_cap[node] ? p->dot_cap[node] : dot;
}

/* The trie key of level d of the stack xs (origins[0 .. d) of the levels
 * above filled in; origins[d] is filled here), below state `above` (or the
 * root of leaf and ch when d is 0). */
static void level_key(const struct parser *p, uint32_t key[6], const uint32_t *xs,
                      uint32_t *origins, uint32_t d, uint32_t above, uint32_t leaf, uint32_t ch)
{
    const struct forest *f = p->f;
    uint32_t x = xs[d], origin = ITEM(f, item_pred(f, x)).anchor, cls = d;
    origins[d] = origin;
    for (uint32_t i = 0; i < d; i++)
        if (origins[i] == origin) {
            cls = i;
            break;
        }
    key[0] = d ? TAG_LEVEL : TAG_ROOT;
    key[1] = d ? above : leaf;
    key[2] = d ? 0 : ch;
    key[3] = ITEM(f, x).node;
    key[4] = state_dot(p, ITEM(f, x).node, ITEM(f, x).dot);
    key[5] = cls;
}

static void value_key_input(const struct parser *p, uint32_t *key, uint32_t x)
{
    bool infinite = false;
    uint64_t count = p->f->counting ? counts_get(p->f->counts, x, &infinite) : 1;
    key[0] = ITEM(p->f, x).list;
    key[1] = (uint32_t)count, key[2] = (uint32_t)(count >> 32), key[3] = infinite;
}

/* The bucket of a key in a cache of 2^bits slots: two slots, c[0] and
 * c[1].  A multiplicative mix of its words, whose top bits depend on all
 * of them. */
static uint32_t cache_bucket(const uint32_t *w, uint32_t n, unsigned bits)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t)(h >> (64 - bits)) & ~1u;
}

/* The trie's entry of a level key (level_key), or PARSE_STATES_NONE.  The
 * same few keys are looked up again and again (the same stack at every
 * member of an object): a cache of two ways per bucket remembers the keys
 * found and their entries, which stay valid until the states are cleared;
 * only a key not there hashes into the states.  (Two ways: some pairs of
 * keys share a bucket and are met by turns.) */
static uint32_t state_entry(struct parser *p, const uint32_t key[6])
{
    struct level_cache *c = &p->level_cache[cache_bucket(key, 6, STATES_CACHE_BITS)];
    for (int way = 0; way < 2; way++)
        if (c[way].gen == p->states_gen && memcmp(c[way].key, key, sizeof c->key) == 0)
            return c[way].entry;
    uint32_t entry = parse_states_find(p->states, key, 6);
    p->stats.states_hashed++;
    if (entry != PARSE_STATES_NONE) {
        c[1] = c[0]; /* the newest first, the one before second */
        c[0].gen = p->states_gen, c[0].entry = entry;
        memcpy(c[0].key, key, sizeof c->key);
    }
    return entry;
}

/* The two next_level ways of state `state`, room made. */
static struct next_level *next_levels_of(struct parser *p, uint32_t state)
{
    if (state >= p->next_levels_cap) {
        size_t old = p->next_levels_cap, cap = old ? old : 64;
        while (cap <= state)
            cap *= 2;
        p->next_levels = xrealloc(p->next_levels, 2 * cap * sizeof *p->next_levels);
        memset(p->next_levels + 2 * old, 0, 2 * (cap - old) * sizeof *p->next_levels);
        p->next_levels_cap = cap;
    }
    return p->next_levels + 2 * (size_t)state;
}

/* Run the values program prog[0 .. n) (see prog_op) of a transition on the
 * stack items xs whose levels are inputs[0 .. ninputs): the values of the
 * set's advanced items, 4 words each as in rec_finish, into out; returns
 * the number of words. */
static uint32_t run_program(struct parser *p, const uint32_t *prog, uint32_t n,
                            const uint32_t *xs, const uint32_t *inputs, uint32_t ninputs,
                            uint32_t *out)
{
    struct forest *f = p->f;
    struct chain_sets *cs = f->chains;
    struct value in[STATES_MAX_DEPTH];
    for (uint32_t i = 0; i < ninputs; i++)
        in[i] = item_value(p, xs[inputs[i]]);
    uint32_t nvalues = 0, nout = 0;
    struct value v = {CHAIN_SET_EMPTY, 1, false};
    chain_sets_acc_start(cs);
    for (uint32_t i = 0; i < n; i += 2) {
        uint32_t arg = prog[i + 1];
        const struct value *operand = NULL;
        switch (prog[i]) {
        case PROG_INPUT:
            operand = &in[arg];
            break;
        case PROG_VALUE:
            operand = &p->prog_run[arg];
            break;
        case PROG_CONST:
            chain_sets_acc_add(cs, arg);
            break;
        case PROG_EXTEND:
            chain_sets_acc_extend(cs, arg);
            break;
        case PROG_TAKE:
            v.summary = chain_sets_acc_take(cs);
            p->prog_run = xgrow(p->prog_run, &p->prog_run_cap, (size_t)nvalues + 1,
                                sizeof *p->prog_run);
            p->prog_run[nvalues++] = v;
            v = (struct value){CHAIN_SET_EMPTY, 1, false};
            chain_sets_acc_start(cs);
            break;
        case PROG_OUT_CONST:
            out[nout++] = arg, out[nout++] = 1, out[nout++] = 0, out[nout++] = 0;
            break;
        default: { /* PROG_OUT, PROG_OUT_INPUT */
            const struct value *o = prog[i] == PROG_OUT ? &p->prog_run[arg] : &in[arg];
            uint64_t count = f->counting ? o->count : 1;
            out[nout++] = o->summary;
            out[nout++] = (uint32_t)count, out[nout++] = (uint32_t)(count >> 32);
            out[nout++] = f->counting && o->infinite;
            break;
        }
        }
        if (operand) {
            chain_sets_acc_add(cs, operand->summary);
            v.count = sat_mul(v.count, operand->count);
            v.infinite = v.infinite || operand->infinite;
        }
    }
    return nout;
}

/* Set j, whose one pending entry is e, by a transition: true if replayed.
 * Otherwise the set is to be built, and recorded when p->rec. */
static bool replay_set(struct parser *p, uint32_t j, uint32_t e)
{
    struct forest *f = p->f;
    uint32_t key[6], xs[STATES_MAX_DEPTH], origins[STATES_MAX_DEPTH];
    uint32_t leaf = PENDING(p, e).symbol, w0 = PENDING(p, e).waiter;
    if (!p->level_cache) {
        p->level_cache = xcalloc(STATES_CACHE_SLOTS, sizeof *p->level_cache);
        p->values_cache = xcalloc(VALUES_CACHE_SLOTS, sizeof *p->values_cache);
    }
    p->rec = true, p->nrec_old = 0, p->rec_leaf = leaf, p->rec_w0 = w0;
    p->rec_components = p->stats.sets_by_components;
    uint32_t id = NONE, d = 0, len, above = NONE, done = PARSE_STATES_NONE;
    const uint32_t *t = NULL; /* the transition's words */
    uint32_t ch = text_at(f, j);
    /* level_key's fields, worked out here: a level met below its state
     * before needs only its node, dot and origin class. */
    for (uint32_t x = w0; d < STATES_MAX_DEPTH; d++) {
        xs[d] = x;
        const struct item *it = &ITEM(f, x);
        uint32_t node = it->node, pred = it->dot ? it->anchor : x;
        const struct item *pit = &ITEM(f, pred);
        uint32_t origin = pit->anchor, cls = d;
        origins[d] = origin;
        for (uint32_t i = 0; i < d; i++)
            if (origins[i] == origin) {
                cls = i;
                break;
            }
        uint32_t dot = state_dot(p, node, it->dot);
        /* Below a state (d > 0): its next levels met lately first. */
        struct next_level *nl = d ? next_levels_of(p, above) : NULL, *hit = NULL;
        for (int way = 0; nl && way < 2 && !hit; way++)
            if (nl[way].gen == p->states_gen && nl[way].node == node && nl[way].dot == dot &&
                nl[way].cls == cls)
                hit = &nl[way];
        uint32_t entry, kind, vid;
        if (hit) {
            entry = hit->entry, kind = hit->kind, vid = hit->id;
            p->stats.levels_remembered++;
        } else {
            key[0] = d ? TAG_LEVEL : TAG_ROOT;
            key[1] = d ? above : leaf;
            key[2] = d ? 0 : ch;
            key[3] = node, key[4] = dot, key[5] = cls;
            entry = state_entry(p, key);
            if (entry == PARSE_STATES_NONE)
                return false;
            const uint32_t *v = parse_states_value(p->states, entry, &len);
            kind = v[0], vid = v[1];
            if (nl) {
                nl[1] = nl[0];
                nl[0] = (struct next_level){p->states_gen, node, dot, cls, entry, kind, vid};
            }
        }
        if (kind == STATE_DONE) {
            id = vid;
            t = parse_states_value(p->states, entry, &len) + 2;
            done = entry;
            break;
        }
        above = vid;
        /* The next stack item (stack_next). */
        if (node == f->start_node)
            return false;
        uint32_t l = pit->list;
        if (l == NONE || !(l & LIST_ONE))
            return false;
        x = l & ~LIST_ONE;
    }
    if (id == NONE || t[0] != d + 1)
        return false;
    uint32_t nitems = t[1], nconds = t[2], npend = t[3], ninputs = t[4], nprog = t[5];
    const uint32_t *cond = t + TR_HEAD, *items = cond + 2 * nconds, *pend = items + 3 * nitems;
    const uint32_t *inputs = pend + 3 * npend;
    for (uint32_t i = 0; i < nconds; i++) {
        uint32_t end;
        if (leaf_matches(p, cond[2 * i], j, &end) != (cond[2 * i + 1] != 0)) {
            p->rec = false; /* another way than the one recorded: just build it */
            return false;
        }
    }
    uint32_t vkey[2 + 4 * STATES_MAX_DEPTH];
    vkey[0] = TAG_VALUES, vkey[1] = id;
    for (uint32_t i = 0; i < ninputs; i++)
        value_key_input(p, vkey + 2 + 4 * i, xs[inputs[i]]);
    uint32_t ventry = PARSE_STATES_NONE;
    struct values_cache *vc = NULL;
    if (ninputs <= VALUES_CACHE_INPUTS) {
        vc = &p->values_cache[cache_bucket(vkey + 1, 1 + 4 * ninputs, VALUES_CACHE_BITS)];
        for (int way = 0; way < 2 && ventry == PARSE_STATES_NONE; way++)
            if (vc[way].gen == p->states_gen && vc[way].id == id && vc[way].ninputs == ninputs &&
                memcmp(vc[way].inputs, vkey + 2, 4 * ninputs * sizeof *vkey) == 0)
                ventry = vc[way].entry;
    }
    uint32_t computed[4 * STATES_MAX_ITEMS];
    bool programmed = false;
    if (ventry == PARSE_STATES_NONE) {
        ventry = parse_states_find(p->states, vkey, 2 + 4 * ninputs);
        p->stats.states_hashed++;
        if (ventry == PARSE_STATES_NONE) {
            /* New inputs: the transition's program makes the values (and
             * they are remembered), or the set is built and recorded. */
            if (!nprog)
                return false;
            uint32_t nv = run_program(p, inputs + ninputs, nprog, xs, inputs, ninputs, computed);
            if (parse_states_memory(p->states) <= STATES_MAX_BYTES)
                parse_states_put(p->states, vkey, 2 + 4 * ninputs, computed, nv);
            /* The words may have moved. */
            t = parse_states_value(p->states, done, &len) + 2;
            items = t + TR_HEAD + 2 * nconds, pend = items + 3 * nitems;
            programmed = true;
        } else if (vc) {
            vc[1] = vc[0];
            vc->gen = p->states_gen, vc->id = id, vc->ninputs = ninputs, vc->entry = ventry;
            memcpy(vc->inputs, vkey + 2, 4 * ninputs * sizeof *vkey);
        }
    }
    const uint32_t *values = programmed ? computed : parse_states_value(p->states, ventry, &len);
    p->rec = false;
    /* The pending entry is used up, as run's loop does. */
    p->pending_head[j & p->pending_mask] = NONE;
    PENDING(p, e).next = p->pending_free;
    p->pending_free = e;
    uint32_t first = (uint32_t)f->nitems;
    for (uint32_t i = 0; i < nitems; i++) {
        const uint32_t *it = items + 3 * i;
        item_room(f);
        uint32_t idx = (uint32_t)f->nitems++;
        if (it[0] == TR_PRED) {
            ITEM(f, idx) = (struct item){it[1], 0, j, (first + it[2]) | LIST_ONE};
            continue;
        }
        uint32_t w = it[1] == TR_OLD ? xs[it[2]] : first + it[2];
        const uint32_t *v = values;
        values += 4;
        ITEM(f, idx) = (struct item){ITEM(f, w).node, ITEM(f, w).dot + 1, item_pred(f, w), v[0]};
        uint64_t count = (uint64_t)v[1] | (uint64_t)v[2] << 32;
        if (f->counting && (count != 1 || v[3]))
            counts_put(f->counts, idx, count, v[3] != 0);
    }
    for (uint32_t i = npend; i-- > 0;)
        push_pending(p, j + pend[3 * i], first + pend[3 * i + 1], pend[3 * i + 2]);
    p->stats.items_made += nitems;
    if (f->nitems > p->stats.items_peak)
        p->stats.items_peak = f->nitems;
    if (programmed)
        p->stats.sets_computed++;
    else
        p->stats.sets_replayed++;
    return true;
}

/* The level of stack item w among those read, or NONE. */
static uint32_t rec_level(const struct parser *p, uint32_t w)
{
    for (uint32_t i = 0; i < p->nrec_old; i++)
        if (p->rec_old[i] == w)
            return i;
    return NONE;
}

static void rec_word(struct parser *p, uint32_t w)
{
    p->rec_words = xgrow(p->rec_words, &p->rec_words_cap, p->nrec_words + 1, sizeof *p->rec_words);
    p->rec_words[p->nrec_words++] = w;
}

/* After set j was built (before its summaries): its transition into
 * rec_words, or p->rec off when it is not one way on. */
static void rec_structure(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    uint32_t first = p->set_first_item, n = (uint32_t)(f->nitems - first);
    uint32_t D = (uint32_t)p->nrec_old;
    p->rec = false;
    p->prog_ok = false;
    if (p->accept_stamp == j + 1 || n == 0 || n > STATES_MAX_ITEMS || D == 0 ||
        D > STATES_MAX_DEPTH || p->rec_old[0] != p->rec_w0)
        return;
    for (uint32_t i = 0; i < D; i++) {
        if (i + 1 < D && stack_next(p, p->rec_old[i]) != p->rec_old[i + 1])
            return;
        if (ITEM(f, p->rec_old[i]).node == f->start_node)
            return;
    }
    for (uint32_t s = 0; s < f->nsymbols; s++) {
        uint32_t dv = SYMBOL(f, s).derivs;
        if (dv != NONE && !(dv & LIST_ONE))
            return;
    }
    p->nrec_words = 0;
    rec_word(p, STATE_DONE), rec_word(p, NONE); /* the id: given by rec_finish */
    rec_word(p, D), rec_word(p, n), rec_word(p, 0), rec_word(p, 0), rec_word(p, 0),
        rec_word(p, 0);
    if (p->expected_set == j)
        for (size_t i = 0; i < p->nexpected; i++) {
            uint32_t leaf = p->expected[i], end;
            if (p->g->nodes[leaf].kind == NODE_LIT && p->lit_len[leaf] > 1) {
                rec_word(p, leaf), rec_word(p, leaf_matches(p, leaf, j, &end));
                p->rec_words[4]++;
            }
        }
    for (uint32_t i = 0; i < n; i++) {
        struct item it = ITEM(f, first + i);
        if (it.dot == 0) {
            if (it.anchor != j || it.list == NONE || !(it.list & LIST_ONE) ||
                (it.list & ~LIST_ONE) < first)
                return;
            rec_word(p, TR_PRED), rec_word(p, it.node), rec_word(p, (it.list & ~LIST_ONE) - first);
            continue;
        }
        uint32_t pk = it.list;
        if (pk == NONE || PACKED(f, pk).next != NONE)
            return;
        uint32_t w = PACKED(f, pk).left != NONE ? PACKED(f, pk).left : it.anchor;
        if (ITEM(f, w).node != it.node || ITEM(f, w).dot + 1 != it.dot ||
            item_pred(f, w) != it.anchor)
            return;
        rec_word(p, TR_ADV);
        if (w >= first) {
            rec_word(p, TR_NEW), rec_word(p, w - first);
            continue;
        }
        uint32_t level = rec_level(p, w);
        if (level == NONE)
            return;
        rec_word(p, TR_OLD), rec_word(p, level);
    }
    /* Nothing was pending past j when the set began: every entry is its. */
    for (uint32_t off = 1; off <= p->pending_mask; off++)
        for (uint32_t e = p->pending_head[(j + off) & p->pending_mask]; e != NONE;
             e = PENDING(p, e).next) {
            if (PENDING(p, e).waiter < first)
                return;
            rec_word(p, off), rec_word(p, PENDING(p, e).waiter - first),
                rec_word(p, PENDING(p, e).symbol);
            p->rec_words[5]++;
        }
    if (p->pending_head[j & p->pending_mask] != NONE)
        return;
    for (uint32_t i = 0; i < D; i++) {
        bool input = false;
        for (uint32_t k = 0; k < n && !input; k++) {
            const uint32_t *it = p->rec_words + 2 + TR_HEAD + 2 * p->rec_words[4] + 3 * k;
            input = it[0] == TR_ADV && it[1] == TR_OLD && it[2] == i &&
                    ITEM(f, p->rec_old[i]).dot > 0;
        }
        if (input)
            rec_word(p, i), p->rec_words[6]++;
    }
    p->rec = true;
}

/* The values program just recorded (p->prog, the values it made in
 * p->prog_seen), appended to rec_words with what does not depend on the
 * inputs worked out: a value made only of constants, extensions and such
 * values (a leaf's summary, its marks) is the set it was when recorded
 * (ids stay valid until the states are cleared, which every collection of
 * the chain sets does), added as PROG_CONST or output as PROG_OUT_CONST;
 * adding the empty set is left out; and a value that is one input or one
 * value and nothing else is that operand (a take of one set is the set,
 * its count the operand's), so it makes no value of its own. */
static void prog_fold(struct parser *p)
{
    enum { F_CONST, F_INPUT, F_VALUE };
    uint32_t nvalues = p->prog_values, made = 0;
    struct { uint32_t kind, arg; } *as = xmalloc(((size_t)nvalues + 1) * sizeof *as);
    size_t start = 0, k = 0;
    for (size_t i = 0; i < p->nprog; i += 2) {
        uint32_t op = p->prog[i], arg = p->prog[i + 1];
        if (op == PROG_OUT) {
            rec_word(p, as[arg].kind == F_CONST   ? PROG_OUT_CONST
                        : as[arg].kind == F_INPUT ? PROG_OUT_INPUT
                                                  : PROG_OUT);
            rec_word(p, as[arg].arg);
            continue;
        }
        if (op != PROG_TAKE)
            continue;
        /* Value k: the ops from start to i. */
        bool constant = p->prog_seen[k].count == 1 && !p->prog_seen[k].infinite;
        uint32_t operands = 0, others = 0, last_kind = F_CONST, last_arg = CHAIN_SET_EMPTY;
        for (size_t o = start; o < i; o += 2) {
            uint32_t oop = p->prog[o], oarg = p->prog[o + 1];
            if (oop == PROG_INPUT)
                constant = false, operands++, last_kind = F_INPUT, last_arg = oarg;
            else if (oop == PROG_VALUE && as[oarg].kind != F_CONST)
                constant = false, operands++, last_kind = as[oarg].kind, last_arg = as[oarg].arg;
            else if (oop == PROG_EXTEND)
                others++;
            else if ((oop == PROG_CONST ? oarg : as[oarg].arg) != CHAIN_SET_EMPTY)
                others++;
        }
        if (constant) {
            as[k].kind = F_CONST, as[k].arg = p->prog_seen[k].summary;
        } else if (operands == 1 && others == 0) {
            as[k].kind = last_kind, as[k].arg = last_arg;
        } else {
            for (size_t o = start; o < i; o += 2) {
                uint32_t oop = p->prog[o], oarg = p->prog[o + 1];
                if (oop == PROG_VALUE) {
                    oop = as[oarg].kind == F_CONST   ? PROG_CONST
                          : as[oarg].kind == F_INPUT ? PROG_INPUT
                                                     : PROG_VALUE;
                    oarg = as[oarg].arg;
                }
                if (oop == PROG_CONST && oarg == CHAIN_SET_EMPTY)
                    continue;
                rec_word(p, oop), rec_word(p, oarg);
            }
            rec_word(p, PROG_TAKE), rec_word(p, 0);
            as[k].kind = F_VALUE, as[k].arg = made++;
        }
        k++;
        start = i + 2;
    }
    free(as);
}

/* After set j's summaries: the transition and the values of its items. */
static void rec_finish(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    p->rec = false;
    if (p->stats.sets_by_components != p->rec_components)
        return;
    /* The values program after the inputs (none if one could not be made). */
    size_t inputs_at = p->nrec_words - p->rec_words[6];
    if (p->prog_ok) {
        size_t at = p->nrec_words;
        prog_fold(p);
        p->rec_words[7] = (uint32_t)(p->nrec_words - at);
    }
    if (parse_states_memory(p->states) > STATES_MAX_BYTES)
        states_clear(p);
    const uint32_t *t = p->rec_words;
    uint32_t D = t[2], n = t[3], len;
    uint32_t key[6], origins[STATES_MAX_DEPTH], above = NONE;
    uint32_t keys[STATES_MAX_DEPTH][6];
    bool known[STATES_MAX_DEPTH];
    for (uint32_t d = 0; d < D; d++) {
        level_key(p, key, p->rec_old, origins, d, above, p->rec_leaf, text_at(f, j));
        memcpy(keys[d], key, sizeof key);
        const uint32_t *v = parse_states_get(p->states, key, 6, &len);
        known[d] = v != NULL;
        if (!v)
            above = NONE; /* a new state: numbered below */
        else if ((v[0] == STATE_DONE) != (d + 1 == D))
            return; /* read further or less in another way (another literal matched) */
        else
            above = v[1];
        if (!v) {
            /* New states from here down: number them now. */
            for (uint32_t e = d; e < D; e++) {
                if (e > d) {
                    level_key(p, key, p->rec_old, origins, e, above, p->rec_leaf, text_at(f, j));
                    memcpy(keys[e], key, sizeof key);
                    known[e] = false;
                }
                uint32_t value[2] = {e + 1 == D ? STATE_DONE : STATE_MORE, p->ntransitions++};
                above = value[1];
                if (e + 1 < D) {
                    parse_states_put(p->states, keys[e], 6, value, 2);
                    continue;
                }
                /* The transition: its id and words. */
                p->rec_words[0] = STATE_DONE, p->rec_words[1] = above;
                parse_states_put(p->states, keys[e], 6, p->rec_words, (uint32_t)p->nrec_words);
                p->stats.transitions++;
            }
            break;
        }
    }
    uint32_t id = above;
    if (known[D - 1]) {
        const uint32_t *old = parse_states_get(p->states, keys[D - 1], 6, &len);
        if (!old || len != p->nrec_words ||
            memcmp(old + 2, t + 2, (len - 2) * sizeof *t) != 0)
            return;
    }
    t = p->rec_words; /* not moved: rec_words is the parser's */
    uint32_t ninputs = t[6];
    const uint32_t *inputs = t + inputs_at;
    uint32_t vkey[2 + 4 * STATES_MAX_DEPTH];
    vkey[0] = TAG_VALUES, vkey[1] = id;
    for (uint32_t i = 0; i < ninputs; i++)
        value_key_input(p, vkey + 2 + 4 * i, p->rec_old[inputs[i]]);
    uint32_t values[4 * STATES_MAX_ITEMS], nv = 0;
    uint32_t first = p->set_first_item;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t item = first + i;
        if (ITEM(f, item).dot == 0)
            continue;
        value_key_input(p, values + nv, item);
        nv += 4;
    }
    parse_states_put(p->states, vkey, 2 + 4 * ninputs, values, nv);
}

/* The sets, left to right; returns the furthest position reached. */
static uint32_t run(struct parser *p)
{
    struct forest *f = p->f;
    uint32_t furthest = 0;
    for (uint32_t j = 0; j <= f->len; j++) {
        p->set = j;
        new_set(p);
        p->nagenda = 0;
        if (f->per_set) { /* the last set is summarized: its symbols and pairs go */
            f->nsymbols = f->npacked = f->ndlinks = 0;
            /* Counting the items the fast path stood for: the collector
             * keeps its schedule whether or not sets were built. */
            if (f->nitems + p->virtual_items >= p->collect_at)
                collect_items(p);
        }
        p->set_first_item = (uint32_t)f->nitems;
        if (j == 0) {
            bool created;
            add_item(p, f->start_node, 0, 0, NONE, &created);
        }
        uint32_t e = p->pending_head[j & p->pending_mask];
        /* One leaf pending here and nothing beyond: a set that a transition
         * may stand for (replay_set), or that is recorded as one. */
        p->rec = false;
        size_t replayed_before = p->stats.sets_replayed;
        if (p->states && p->lookahead && j > 0 && j < f->len && e != NONE &&
            PENDING(p, e).next == NONE && p->last_pending <= j && replay_set(p, j, e)) {
            furthest = j;
        } else {
            p->pending_head[j & p->pending_mask] = NONE;
            while (e != NONE) {
                struct pending pe = PENDING(p, e);
                PENDING(p, e).next = p->pending_free; /* used up: free for reuse */
                p->pending_free = e;
                e = pe.next;
                if (p->rec)
                    rec_old_item(p, pe.waiter);
                if (!worth_advancing(p, pe.waiter))
                    continue;
                uint32_t sym = pe.symbol;
                if (f->per_set) /* the leaf's node: its symbol, for this set */
                    sym = new_symbol(p, sym, j - leaf_length(p, sym), j);
                advance(p, pe.waiter, sym);
            }
            if (p->nagenda == 0) {
                /* Nothing reached here; a longer literal may still land later. */
                if (j >= p->last_pending)
                    break;
                continue;
            }
            furthest = j;
            for (size_t t = 0; t < p->nagenda; t++) {
                struct task task = p->agenda[t];
                if (task.symbol == NONE)
                    process_item(p, task.item);
                else
                    complete_node(p, ITEM(f, task.item).node, task.item,
                                  ITEM(f, task.item).anchor, task.symbol);
            }
            if (p->rec)
                rec_structure(p, j);
            if (f->per_set)
                summarize_set(p);
            if (p->rec)
                rec_finish(p, j);
        }
        /* The budget is looked at after every set built or computed, and
         * after every BUDGET_QUIET_SETS-th set replayed with known values:
         * such a set allocates next to nothing (its items, at most
         * STATES_MAX_ITEMS), and adding up parser_memory took 6% of the
         * instructions of a JSON run when done for each. */
        bool look = p->stats.sets_replayed == replayed_before ||
                    ++p->budget_quiet >= BUDGET_QUIET_SETS;
        if (look)
            p->budget_quiet = 0;
        /* Past LIST_MAX_INDEX of anything, indices would no longer fit (nor
         * the forest ids of forest_count_trees: symbols, then items). */
        if ((p->max_memory && look && parser_memory(p) > p->max_memory) ||
            f->nitems + f->nsymbols > LIST_MAX_INDEX || f->nlinks > LIST_MAX_INDEX) {
            p->over_budget = true;
            break;
        }
        if (p->should_stop && j < f->len && p->should_stop(p->should_stop_ctx)) {
            p->stopped = true;
            break;
        }
        /* Accepted so far when the virtual start item has its one child. */
        bool root_done = p->accept_stamp == j + 1;
        if (p->expected_set == j)
            p->root_done_at_expected = root_done;
        if (j == f->len && root_done)
            f->root = f->per_set ? p->accept : PACKED(f, item_packed(f, p->accept)).right;
        if (p->det)
            furthest = j = fast_forward(p, j);
    }
    return furthest;
}

/* Forget a run: the forest's arrays and the parser's sets. */
static void reset(struct parser *p)
{
    struct forest *f = p->f;
    f->nitems = f->npacked = f->nsymbols = f->nlinks = f->ndlinks = 0;
    f->root = NONE;
    if (f->counts) {
        counts_free(f->counts);
        f->counts = xcalloc(1, sizeof *f->counts);
    }
    for (size_t i = 0; i <= p->pending_mask; i++)
        p->pending_head[i] = NONE;
    p->npending = 0;
    p->pending_free = NONE;
    p->last_pending = 0;
    p->collect_at = COLLECT_MIN_ITEMS;
    p->collect_sets_at = COLLECT_MIN_SET_BYTES;
    p->stats = (struct parse_stats){0};
    p->virtual_items = 0;
    p->accept_stamp = 0;
    p->budget_quiet = 0;
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

/* A per-set parse (summaries, no forest) when chains is not NULL; with
 * marking, the summaries carry the expansions too. */
static struct forest *parse(const struct graph *g, const char *name, const char *text,
                            size_t len, const struct parse_options *opts,
                            struct chain_sets *chains, bool counting, bool marking,
                            struct diag_list *diags)
{
    size_t limit = opts && opts->max_input_size ? opts->max_input_size : PARSE_DEFAULT_MAX_INPUT;
    if (len > limit) {
        diag_add(diags, DIAG_ERROR, name, 0, 0,
                 "input is %zu bytes, more than the limit of %zu (--max-input-size)", len, limit);
        chain_sets_free(chains);
        return NULL;
    }
    struct forest *f = xcalloc(1, sizeof *f);
    f->graph = g;
    f->start_node = g->nnodes;
    f->root = NONE;
    if (chains) {
        f->per_set = true;
        f->chains = chains;
        f->counting = counting;
        f->counts = counting ? xcalloc(1, sizeof *f->counts) : NULL;
        if (marking) {
            f->node_marks = xmalloc(((size_t)g->nnodes + 1) * sizeof *f->node_marks);
            f->edge_marks = xmalloc((graph_edge_count(g) + 1) * sizeof *f->edge_marks);
            forget_marks(f);
        }
    }
    if (!decode(f, name, text, len, diags)) {
        forest_free(f);
        return NULL;
    }
    struct parser p = {.f = f, .g = g, .expected_set = NONE};
    size_t per_node = (size_t)g->nnodes + 2; /* the virtual start node too */
    p.stamp_pred = xcalloc(per_node, sizeof *p.stamp_pred);
    p.pred = xcalloc(per_node, sizeof *p.pred);
    p.stamp_leaf = xcalloc(per_node, sizeof *p.stamp_leaf);
    p.leaf = xcalloc(per_node, sizeof *p.leaf);
    p.stamp_empty = xcalloc(per_node, sizeof *p.stamp_empty);
    p.empty = xcalloc(per_node, sizeof *p.empty);
    p.dot_cap = xmalloc(per_node * sizeof *p.dot_cap);
    for (size_t i = 0; i < per_node; i++) {
        const struct expr *e = i < g->nnodes ? g->nodes[i].expr : NULL;
        p.dot_cap[i] = e && g->nodes[i].kind == NODE_QUANT && e->u.quant.max == QUANT_INFINITE
                           ? e->u.quant.min + 1
                           : UINT32_MAX;
    }
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
    /* The ring of pending heads: more slots than the longest literal is long. */
    uint32_t longest = 1;
    for (uint32_t i = 0; i < g->nnodes; i++)
        if (p.lit_len[i] > longest)
            longest = p.lit_len[i];
    size_t slots = 2;
    while (slots <= longest)
        slots *= 2;
    p.pending_mask = (uint32_t)slots - 1;
    p.pending_head = xmalloc(slots * sizeof *p.pending_head);
    for (size_t i = 0; i < slots; i++)
        p.pending_head[i] = NONE;
    p.pending_free = NONE;
    p.collect_at = COLLECT_MIN_ITEMS;
    p.collect_sets_at = COLLECT_MIN_SET_BYTES;

    lookahead_init(&p.la, g);
    p.first = p.la.first, p.first_high = p.la.first_high;
    p.follow = p.la.follow, p.follow_high = p.la.follow_high, p.follow_end = p.la.follow_end;
    p.lookahead = true;
    if (chains && !(opts && opts->no_fast_path)) {
        p.det = parse_det_new(g, &p.la);
        p.states = parse_states_new();
        p.states_gen = 1;
    }
    p.max_memory = opts && opts->max_memory ? opts->max_memory : PARSE_DEFAULT_MAX_MEMORY;
    if (opts)
        p.should_stop = opts->should_stop, p.should_stop_ctx = opts->should_stop_ctx;
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
    } else if (f->root == NONE && !p.stopped) {
        /* Lookahead pruned the predictions that would have said what was
         * expected; parse once more without it to collect them. */
        reset(&p);
        p.lookahead = false;
        furthest = run(&p);
        if (!p.stopped)
            report_no_parse(&p, name, furthest, diags);
    }
    if (p.stopped) {
        uint32_t line, col;
        position_of(f, furthest, &line, &col);
        diag_add(diags, DIAG_ERROR, name, line, col, "parsing stopped here, as asked");
        f->root = NONE;
    }
    f->npending_peak = p.npending;
    p.stats.text_bytes = f->text ? ((size_t)len + 1) * sizeof *f->text
                         : f->narrow_owned ? (size_t)len + 1 : 0;
    if (opts && opts->stats)
        *opts->stats = p.stats;
    parser_free(&p);
    if (f->root == NONE) {
        forest_free(f);
        return NULL;
    }
    return f;
}

struct forest *parse_text(const struct graph *g, const char *name, const char *text,
                          size_t len, const struct parse_options *opts,
                          struct diag_list *diags)
{
    return parse(g, name, text, len, opts, NULL, false, false, diags);
}

static void add_expansion_mark(uint32_t label, void *expansions)
{
    expansion_add_id(expansions, label);
}

bool parse_kpaths(const struct graph *g, const char *name, const char *text, size_t len,
                  const struct parse_options *opts, struct kpath_set *const *sets, size_t nsets,
                  struct expansion_set *expansions, uint64_t *trees, bool *infinite,
                  struct diag_list *diags)
{
    uint32_t maxk = 1;
    for (size_t i = 0; i < nsets; i++)
        if (sets[i]->sp->k > maxk)
            maxk = sets[i]->sp->k;
    struct forest *f = parse(g, name, text, len, opts, chain_sets_new(maxk), trees != NULL,
                             expansions != NULL, diags);
    if (!f)
        return false;
    bool inf = false;
    uint64_t n = trees ? counts_get(f->counts, f->root, &inf) : 0;
    if (trees) {
        *trees = inf ? UINT64_MAX : n;
        if (infinite)
            *infinite = inf;
    }
    chain_sets_add_kpaths(f->chains, ITEM(f, f->root).list, sets, nsets);
    if (expansions)
        chain_sets_each_mark(f->chains, ITEM(f, f->root).list, add_expansion_mark, expansions);
    forest_free(f);
    return true;
}

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
        /* The children of the earliest derivation, collected right to left. */
        nkids = 0;
        uint32_t item = NONE;
        if (node_is_unit(f, s->node)) {
            kids = xgrow(kids, &kids_cap, 1, sizeof *kids);
            kids[nkids++] = earliest_link(f, s->derivs);
        } else {
            item = earliest_link(f, s->derivs);
        }
        while (item != NONE && item_packed(f, item) != NONE) {
            const struct packed *pk = &PACKED(f, earliest_packed(f, item_packed(f, item)));
            kids = xgrow(kids, &kids_cap, nkids + 1, sizeof *kids);
            kids[nkids++] = pk->right;
            item = pk->left;
        }
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
