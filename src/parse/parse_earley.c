/* parse_earley: the Earley parser, and the entry points of parse.h.
 *
 * Builds the Earley sets left to right over the text's code points, with
 * one character of lookahead, into a forest (parse_text) or into per-set
 * summaries (parse_kpaths: parse_summary.c, with its fast path, and
 * parse_replay.c's replayed sets), and says what went wrong when the text
 * does not parse.  The top of the parser's files (parse_internal.h): it
 * calls the others, and none of them calls it. */
#include "parse/parse_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "parse/chain_sets.h"
#include "parse/lookahead.h"
#include "parse/parse_det.h"
#include "parse/parse_states.h"

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

/* ---- lists of the forest (see parse_internal.h) --------------------------- */

static uint32_t list_push(struct forest *f, uint32_t head, uint32_t value)
{
    return list_push_in(&f->links, &f->nlinks, &f->links_cap, head, value);
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

static void note_expected(struct parser *p, uint32_t leaf)
{
    if (p->expected_set != p->set) {
        p->expected_set = p->set;
        p->nexpected = 0;
    }
    p->expected = xgrow(p->expected, &p->expected_cap, p->nexpected + 1, sizeof *p->expected);
    p->expected[p->nexpected++] = leaf;
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
            if (p->tb && !p->lookahead)
                token_bounds_expect(p->tb, j, c);
            p->stamp_leaf[c] = j + 1;
            p->leaf[c] = leaf_matches(p, c, j, &end) &&
                                 (!p->tb || tb_may_span(p, c, j, end))
                             ? new_symbol(p, c, j, end)
                             : NO_MATCH;
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
    /* A token or skip node only where the sample's tokens allow it (not
     * pruned without lookahead, to say what was expected: completing checks). */
    if (p->tb && !p->lookahead)
        token_bounds_expect(p->tb, j, c);
    if (p->tb && p->lookahead && !tb_may_start(p, c, j))
        return;
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
    if (p->tb && !tb_may_span(p, node, origin, p->set))
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
    escape_add_code_point(out, cp); /* controls, C1, BOM, direction marks escaped */
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
    bool token = p->tb && token_bounds_describe(p->tb, at, &msg); /* ID 'ifx' */
    if (!token && at < f->len)
        describe_char(&msg, text_at(f, at));
    else if (!token)
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
    /* The input could end here when the start item was accepted in this set
     * (the last set made there, as sets are made in order). */
    bool end = p->accept_stamp == at + 1 && at < f->len;
    if (p->tb && token_bounds_add_expected(p->tb, at, end, &msg))
        ne = 0, end = false; /* the tokens expected, not their characters */
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

static void report_over_budget(const struct parser *p, const char *name, uint32_t at,
                               struct diag_list *diags)
{
    uint32_t line, col;
    position_of(p->f, at, &line, &col);
    /* The budget in the largest unit that divides it (4 GiB, 512 KiB). */
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
    size_t amount = p->max_memory;
    int unit = 0;
    while (unit < 3 && amount % 1024 == 0)
        amount /= 1024, unit++;
    diag_add(diags, DIAG_ERROR, name, line, col,
             "parsing stopped here: it needs more than %zu %s of memory (--max-memory); "
             "the input is too long or too ambiguous for this grammar",
             amount, units[unit]);
}

/* ---- the parse ------------------------------------------------------------- */

/* Text whose code points are all below 256 (ASCII, Latin-1 letters), a
 * byte each, for a per-set parse: true if it is such text (and valid).  No
 * 4 bytes per character to allocate and write: on a virtual machine the
 * first touch of fresh pages was a tenth of a parse.  ASCII is read where it
 * is. */
/* The number of ASCII bytes s[0 .. len) starts with, read 8 at a time. */
static size_t ascii_run(const unsigned char *s, size_t len)
{
    size_t i = 0;
    for (uint64_t w; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, sizeof w);
        if (w & UINT64_C(0x8080808080808080))
            break;
    }
    while (i < len && s[i] < 0x80)
        i++;
    return i;
}

static bool decode_narrow(struct forest *f, const unsigned char *s, size_t len)
{
    bool ascii = true;
    for (size_t i = 0; i < len;) {
        i += ascii_run(s + i, len - i);
        if (i == len)
            break;
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
        size_t run = ascii_run(s + i, len - i);
        memcpy(f->narrow_owned + n, s + i, run);
        n += run, i += run;
        if (i == len)
            break;
        uint32_t cp;
        i += utf8_decode((const char *)s + i, len - i, &cp);
        f->narrow_owned[n++] = (unsigned char)cp;
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
    token_bounds_free(p->tb);
    parse_states_free(p->states);
    free(p->level_cache);
    free(p->values_cache);
    free(p->next_levels);
    if (p->root_levels)
        for (uint32_t i = 0; i < p->g->nnodes; i++)
            free(p->root_levels[i]);
    free(p->root_levels);
    free(p->last_values);
    free(p->ff_shapes);
    free(p->rec_old);
    free(p->rec_words);
    free(p->rec_tb);
    free(p->prog);
    free(p->prog_index);
    free(p->prog_run);
    free(p->prog_seen);
    free(p->det_summary);
    for (size_t i = 0; i < p->ff_step_cap; i++)
        free(p->ff_step[i]);
    free(p->ff_step);
    free(p->ff_step_q);
    free(p->stamp_pred);
    free(p->dot_cap);
    free(p->pred);
    free(p->stamp_leaf);
    free(p->leaf);
    free(p->stamp_empty);
    free(p->empty);
    summarizer_free(&p->sum);
}

/* Bytes that the passes over a finished forest allocate besides it.
 * forest_count_trees: 4 per symbol and item, and a stack that reaches about
 * half as many entries on the deepest inputs ([[[...]]]), growing by
 * doubling: 8 in all.  The k-path walk: 4 per item, 4 per symbol, and a work
 * list that reaches about one pair per symbol on the deepest inputs: 12 per
 * symbol.  (Symbols seen in more than one context, with a larger k or pins
 * on an ambiguous forest, take 16 bytes more per extra context, which this
 * does not foresee.)  The walk down the first tree (forest_walk_first_tree,
 * for kpath parse): a stack of 8-byte frames, and what its caller keeps per
 * level of depth, 8 bytes, the two together at most one per symbol,
 * growing by doubling: 16 per symbol. */
static size_t passes_memory(const struct forest *f)
{
    size_t count = 8 * (f->nsymbols + f->nitems);
    size_t walk = 12 * f->nsymbols + 4 * f->nitems;
    size_t first_tree = 16 * f->nsymbols;
    size_t most = count > walk ? count : walk;
    return most > first_tree ? most : first_tree;
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
                           p->ff_step_cap * (sizeof *p->ff_step + sizeof *p->ff_step_q) +
                           p->ff_step_rows * 128 * sizeof **p->ff_step +
                           (p->states ? parse_states_memory(p->states) : 0) +
                           (p->rec_old_cap + p->rec_words_cap + p->prog_cap +
                            p->prog_index_cap) * sizeof(uint32_t) +
                           p->prog_run_cap * sizeof *p->prog_run +
                           p->live_rank_cap * sizeof *p->live_rank +
                           p->marking_cap * sizeof *p->marking;
        size_t caches = p->level_cache ? STATES_CACHE_SLOTS * sizeof *p->level_cache +
                                             VALUES_CACHE_SLOTS * sizeof *p->values_cache +
                                             2 * p->next_levels_cap * sizeof *p->next_levels +
                                             p->root_levels_rows * 256 * sizeof **p->root_levels +
                                             p->last_values_cap * sizeof *p->last_values +
                                             p->ff_shapes_cap * sizeof *p->ff_shapes
                                       : 0;
        return chunks + doubling + doubling / 2 + summaries + summaries / 2 + caches +
               per_position;
    }
    return chunks + doubling + doubling / 2 + per_position + passes_memory(f);
}

/* How many characters leaf `leaf` matches. */
static uint32_t leaf_length(const struct parser *p, uint32_t leaf)
{
    return p->g->nodes[leaf].kind == NODE_CLASS ? 1 : p->lit_len[leaf];
}

/* See run: how many sets replayed with known values may pass before the
 * memory budget is looked at again. */
#define BUDGET_QUIET_SETS 64

/* The sets, left to right; returns the furthest position reached. */
static uint32_t run(struct parser *p)
{
    struct forest *f = p->f;
    uint32_t furthest = 0;
    for (uint32_t j = 0; j <= f->len; j++) {
        p->set = j;
        p->lookahead = j < p->lookahead_until;
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
        size_t replayed_before = p->stats.sets_replayed, computed_before = p->stats.sets_computed;
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
        if (j == f->len && root_done)
            f->root = f->per_set ? p->accept : PACKED(f, item_packed(f, p->accept)).right;
        if (p->det) {
            /* After a replayed set, its transition's shape: the fast path
             * is not asked when it cannot stand for anything after it, and
             * told where to start when it can. */
            bool replayed = p->stats.sets_replayed != replayed_before ||
                            p->stats.sets_computed != computed_before;
            uint32_t id = replayed ? p->replayed_id : NONE;
            struct ff_shape *known = id != NONE && id < p->ff_shapes_cap &&
                                             p->ff_shapes[id].gen == p->states_gen
                                         ? &p->ff_shapes[id]
                                         : NULL;
            if (known && known->x == NONE) {
                p->stats.fast_path_unasked++;
            } else {
                p->ff_hint_x = known ? p->set_first_item + known->x : NONE;
                p->ff_hint_chain = known ? known->chain : NONE;
                uint32_t to = fast_forward(p, j);
                if (id != NONE && !known && (p->ff_shape || p->ff_x != NONE)) {
                    if (id >= p->ff_shapes_cap) {
                        size_t old = p->ff_shapes_cap, cap = old ? old : 64;
                        while (cap <= id)
                            cap *= 2;
                        p->ff_shapes = xrealloc(p->ff_shapes, cap * sizeof *p->ff_shapes);
                        memset(p->ff_shapes + old, 0, (cap - old) * sizeof *p->ff_shapes);
                        p->ff_shapes_cap = cap;
                    }
                    p->ff_shapes[id] = (struct ff_shape){
                        p->states_gen, p->ff_shape ? NONE : p->ff_x - p->set_first_item,
                        p->ff_chain};
                }
                furthest = j = to;
            }
        }
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
    struct token_bounds *tb = NULL;
    if (!token_bounds_new(g, name, text, len, &tb, diags)) {
        forest_free(f);
        return NULL;
    }
    struct parser p = {.f = f, .g = g, .expected_set = NONE, .tb = tb};
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
    p.lookahead_until = UINT32_MAX;
    if (chains && !(opts && opts->no_fast_path)) {
        p.det = parse_det_new(g, &p.la);
        if (tb) /* the fast path only through nodes the tokens leave free */
            parse_det_bar(p.det, tb->constrained);
        /* With tokens, a transition keeps the token table's answers of the
         * set it was recorded from, and a replay asks them again. */
        p.states = parse_states_new();
        p.states_gen = 1;
    }
    p.max_memory = opts && opts->max_memory ? opts->max_memory : PARSE_DEFAULT_MAX_MEMORY;
    if (opts)
        p.should_stop = opts->should_stop, p.should_stop_ctx = opts->should_stop_ctx;
    uint32_t furthest = run(&p);
    if (p.over_budget) {
        report_over_budget(&p, name, furthest, diags);
        f->root = NONE;
    } else if (f->root == NONE && !p.stopped) {
        /* Lookahead pruned the predictions that would have said what was
         * expected; parse once more, without it only from the set where this
         * parse stopped, to collect them.  Without lookahead from the start,
         * right recursion completes every open level at every position: an
         * invalid sample would cost quadratic time and memory where the same
         * sample made valid costs linear.  Before that set, lookahead prunes
         * only items that cannot read the next character, so none of them
         * could have reached a later set: the sets from there on, built in
         * full, are those of a parse without lookahead (a fast-forwarded or
         * replayed set is one of these, the same as in the first parse), and
         * the furthest of them is where the sample stops being a prefix of
         * the language. */
        /* With a token table, the parse may have gone on inside a token
         * that the lexer did not form (token_bounds.h, reach): the sample
         * stops fitting where the last token or skip node ends.  This run
         * saw those that lookahead left (it drops a token whose next
         * character cannot follow, before asking the table), so the
         * second starts at the furthest of them, and, without lookahead
         * from there, sees every one after it. */
        bool tokens = tb && tb->reached;
        reset(&p);
        p.lookahead_until = tokens && tb->reach < furthest ? tb->reach : furthest;
        furthest = run(&p);
        if (tokens && tb->reach < furthest)
            furthest = tb->reach;
        if (p.over_budget)
            report_over_budget(&p, name, furthest, diags);
        else if (!p.stopped)
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
