/* parse_internal: what the parser's files share; private to src/parse/.
 *
 * parse.h is the parser's public interface.  Its implementation is four
 * files, one concept each, in layers: each calls only the files below it.
 *   parse_earley.c   (top) the Earley parser: sets, predictions,
 *                    completions, lookahead, errors, and the entry points
 *                    parse_text and parse_kpaths;
 *   parse_summary.c  what parse_kpaths keeps instead of a forest: per-set
 *                    summaries, collecting what is dead, the deterministic
 *                    fast path;
 *   parse_replay.c   sets replayed by transitions, and their recording
 *                    (with the values programs of their items);
 *   parse_forest.c   (bottom) the forest: freeing it, its items' tree
 *                    counts, and the passes over a finished one (trees,
 *                    k-paths, expansions, the first tree).
 * This header holds the types they share (the forest, the parser and its
 * scratch), the accessors and the helpers that more than one of them calls
 * on a hot path, as static inline functions (the split must not cost a
 * call per item), and the functions each file offers the ones above it.
 * Nothing outside src/parse/ includes it.
 *
 * There is no parse.c: the files include parse.h (for its types), so a
 * parse.c, which would be one module with parse.h, calling down into them
 * would close a circle of modules (tests/layers/tree.sh). */
#ifndef KPATH_PARSE_INTERNAL_H
#define KPATH_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/xalloc.h"
#include "parse/chain_sets.h"
#include "parse/lookahead.h"
#include "parse/parse.h"
#include "parse/token_bounds.h"

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

/* Free a chunked array of nchunks chunks. */
void free_chunks(void *table, size_t nchunks);

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
    /* One character of lookahead: what can start each node (the tables of
     * la, named here for short). */
    bool lookahead;               /* the current set's: on before lookahead_until */
    /* Sets from this one on are built without lookahead (UINT32_MAX: none):
     * when a parse failed, its run again up to the set where the first run
     * stopped, to say what was expected there (see parse). */
    uint32_t lookahead_until;
    struct lookahead la;
    /* The deterministic fast path (see fast_forward; per-set parses only). */
    struct parse_det *det;        /* NULL: off */
    uint32_t *det_summary;        /* per chain: the summary of its top symbol, or NONE */
    size_t det_summary_cap;
    /* fast_forward's steps past the quantifier's minimum: per chain id NULL
     * or, for the quantifier ff_step_q[id], per ASCII character the next
     * chain, NONE (stop) or PARSE_DET_UNKNOWN (not asked yet). */
    uint32_t **ff_step;
    uint32_t *ff_step_q;
    size_t ff_step_cap, ff_step_rows;
    size_t virtual_items;         /* items the fast path stood for since the last collection */
    /* Transitions (parse_states.h, see parse_replay.c; with det). */
    struct parse_states *states;  /* NULL: off */
    uint32_t ntransitions;        /* ids given since the last clear */
    /* Caches of the trie's lookups and of the values' (see state_entry),
     * STATES_CACHE_SLOTS each.  An entry counts when its gen is states_gen,
     * which every clear of the states advances. */
    struct level_cache *level_cache;
    struct values_cache *values_cache;
    struct next_level *next_levels; /* 2 per state id (see struct next_level) */
    size_t next_levels_cap;         /* states it has room for */
    /* The first level of a state, by its leaf and an ASCII next character:
     * per leaf node NULL, or 2 per character, as next_levels per state (the
     * root of the trie is no state, so these would hash into level_cache). */
    struct next_level **root_levels;
    size_t root_levels_rows;        /* rows allocated */
    /* Per transition id, the inputs and values entry of its last replay
     * (see struct values_cache): looked up by id before the hashed cache. */
    struct values_cache *last_values;
    size_t last_values_cap;
    /* Per transition id, what the fast path found of the shape of a set it
     * replayed (valid when gen is states_gen), which is the transition's:
     * x NONE, the fast path cannot stand for the sets after it, and is not
     * asked again; else the quantifier item it starts from (its offset in
     * the set) and its chain, which it then takes without looking for them
     * (ff_hint_x, ff_hint_chain). */
    struct ff_shape { uint32_t gen, x, chain; } *ff_shapes;
    size_t ff_shapes_cap;
    uint32_t replayed_id;         /* the transition of the set just replayed, or NONE */
    /* fast_forward's: in, the item and chain to start from (NONE: look);
     * out, whether it stood for nothing because of the set's shape, else
     * (the shape taken) the item and chain it started from. */
    uint32_t ff_hint_x, ff_hint_chain;
    bool ff_shape;
    uint32_t ff_x, ff_chain;
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
    /* A sample of an ANTLR grammar: its tokens, which token and skip nodes
     * must span (token_bounds.h); NULL otherwise.  With it the fast path
     * keeps to nodes it leaves free (it stands for sets without asking it),
     * and a replay asks it again what its recorded set asked (rec_tb). */
    struct token_bounds *tb;
    /* The token table's answers for constrained nodes in the set being
     * recorded (p->rec), 4 words each: node, start, end (NONE: a
     * prediction's token_bounds_may_start at start) and the answer; a
     * replay asks them again (see tb_cond_word in parse_replay.c). */
    uint32_t *rec_tb;
    size_t nrec_tb, rec_tb_cap;
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

/* ---- lists: a symbol's derivations, a prediction's waiters ------------------
 * A list head is NONE (empty), a single value tagged with LIST_ONE, or the
 * index of its first link.  Most lists hold one value (a symbol derived one
 * way, a node predicted by one item), and then need no link.  Values and link
 * indices stay below LIST_ONE (the parse stops before: see run). */
#define LIST_ONE 0x80000000u
#define LIST_MAX_INDEX (LIST_ONE - 2)

static inline uint32_t push_link(struct link **links, size_t *n, size_t *cap, uint32_t value,
                                 uint32_t next)
{
    *links = xgrow(*links, cap, *n + 1, sizeof **links);
    (*links)[*n] = (struct link){value, next};
    return (uint32_t)(*n)++;
}

/* Prepend to a list whose links are in *links: the earliest value ends up last. */
static inline uint32_t list_push_in(struct link **links, size_t *n, size_t *cap,
                                    uint32_t head, uint32_t value)
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

static inline bool list_next(const struct forest *f, uint32_t *cursor, uint32_t *value)
{
    return list_next_in(f->links, cursor, value);
}

/* ---- tree counts of a per-set parse's items (parse_forest.c) ------------- */

void counts_put(struct item_counts *c, uint32_t item, uint64_t count, bool infinite);
void counts_free(struct item_counts *c);

/* An item's count (and whether it is infinite); 1 when none was put. */
static inline uint64_t counts_get(const struct item_counts *c, uint32_t item, bool *infinite)
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

/* The local id of an item, or NONE: an item of an earlier set is final, and a
 * prediction has no derivations (summary empty, one tree). */
static inline uint32_t local_item(const struct parser *p, uint32_t item)
{
    if (item < p->set_first_item || ITEM(p->f, item).dot == 0)
        return NONE;
    return (uint32_t)p->f->nsymbols + (item - p->set_first_item);
}

/* The summary and tree count of an item: of this set (being summarized) or
 * of an earlier one (final). */
static inline struct value item_value(const struct parser *p, uint32_t item)
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

/* Does leaf `leaf` match at position `at`?  Then *end is where it stops. */
static inline bool leaf_matches(const struct parser *p, uint32_t leaf, uint32_t at,
                                uint32_t *end)
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

/* Leaf `symbol` matched for waiter `waiter` ends at `at`: it advances there. */
static inline void push_pending(struct parser *p, uint32_t at, uint32_t waiter,
                                uint32_t symbol)
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

/* ---- the token table, asked where a set may be recorded ------------------ */

static inline void rec_tb_check(struct parser *p, uint32_t node, uint32_t start, uint32_t end,
                                bool answer)
{
    p->rec_tb = xgrow(p->rec_tb, &p->rec_tb_cap, p->nrec_tb + 4, sizeof *p->rec_tb);
    uint32_t *w = p->rec_tb + p->nrec_tb;
    w[0] = node, w[1] = start, w[2] = end, w[3] = answer;
    p->nrec_tb += 4;
}

/* token_bounds_may_span (p->tb set), noted for a set being recorded when
 * the node is constrained (a free node's answer is always yes). */
static inline bool tb_may_span(struct parser *p, uint32_t node, uint32_t start, uint32_t end)
{
    bool answer = token_bounds_may_span(p->tb, node, start, end);
    if (p->rec && p->tb->constrained[node])
        rec_tb_check(p, node, start, end, answer);
    return answer;
}

/* token_bounds_may_start (p->tb set), noted as tb_may_span. */
static inline bool tb_may_start(struct parser *p, uint32_t node, uint32_t at)
{
    bool answer = token_bounds_may_start(p->tb, node, at);
    if (p->rec && p->tb->constrained[node])
        rec_tb_check(p, node, at, NONE, answer);
    return answer;
}

/* ---- values programs (parse_replay.c) --------------------------------------
 * The ops of a transition's values program, which parse_summary.c writes
 * down while it summarizes a set being recorded, and parse_replay.c runs. */
enum { PROG_INPUT, PROG_VALUE, PROG_CONST, PROG_EXTEND, PROG_TAKE, PROG_OUT, PROG_OUT_CONST,
       PROG_OUT_INPUT };
/* A recording call, made only while recording (most sets are not). */
#define PROG(call)                                                                           \
    do {                                                                                     \
        if (p->prog_on)                                                                      \
            call;                                                                            \
    } while (0)

/* When parse_summary.c collects (collect_items): once the items have
 * doubled since the last collection and are at least COLLECT_MIN_ITEMS;
 * the chain sets too once they have doubled and take at least
 * COLLECT_MIN_SET_BYTES. */
#define COLLECT_MIN_ITEMS ((size_t)1 << 16)
#define COLLECT_MIN_SET_BYTES ((size_t)1 << 20)

/* ---- parse_replay.c: replaying sets, recording them ----------------------- */

/* Set j, whose one pending entry is e, by a transition: true if replayed.
 * Otherwise the set is to be built, and recorded when p->rec. */
bool replay_set(struct parser *p, uint32_t j, uint32_t e);
/* After set j was built, before its summaries: its transition. */
void rec_structure(struct parser *p, uint32_t j);
/* After set j's summaries: the transition and the values of its items. */
void rec_finish(struct parser *p, uint32_t j);
/* Forget every state and transition (they name chain sets). */
void states_clear(struct parser *p);
/* Writing down the values program of a set being recorded: PROG(...). */
void prog_op(struct parser *p, uint32_t op, uint32_t arg);
void prog_item(struct parser *p, uint32_t item);
void prog_symbol(struct parser *p, uint32_t sym);
void prog_value(struct parser *p, uint32_t id, struct value v);

/* ---- parse_summary.c: what a per-set parse keeps ------------------------- */

/* Set p->set has ended: its symbols' and items' summaries and counts. */
void summarize_set(struct parser *p);
/* Between two sets: drop the items (and chain sets) nothing refers to. */
void collect_items(struct parser *p);
/* After set j: stand for the deterministic sets after it; the last one. */
uint32_t fast_forward(struct parser *p, uint32_t j);
void forget_marks(struct forest *f);
void summarizer_free(struct summarizer *z);
size_t summarizer_memory(const struct parser *p);

#endif
