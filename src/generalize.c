/* generalize: see generalize.h. */
#include "generalize.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dtree.h"
#include "grammar_build.h"
#include "grammar_write.h"
#include "graph.h"
#include "xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

/* One sample's first derivation tree and the text span of every instance. */
struct sample_tree {
    struct dtree tree;
    bool built;
    size_t *start, *end; /* per instance: [start, end) in the sample's text */
};

/* An input asked before, by its bytes. */
struct query {
    char *text; /* owned */
    size_t len;
    size_t number; /* 1-based, in the order first asked */
    bool answer;
    UT_hash_handle hh;
};

enum attempt { TRY_OPTIONAL, TRY_REPETITION };

/* An attempt already made, by the items it starts and ends with: they keep
 * their identity when the sequence around them is rewritten. */
struct tried {
    enum attempt kind;
    const struct expr *first, *last;
    size_t extra;
};

/* An occurrence of an element in a sample's tree. */
struct occ {
    size_t sample;
    uint32_t inst;
};

/* One query of an attempt, for the notes. */
struct asked {
    size_t number;
    bool answer;
};

struct gen {
    struct grammar *g;
    struct graph *graph;
    const struct generalize_sample *samples;
    size_t nsamples;
    struct sample_tree *trees;
    const struct generalize_options *o;
    struct generalize_result *res;
    struct diag_list *diags;
    struct query *cache;
    struct strbuf block;      /* the log block being written */
    uint32_t *item_rule;      /* per lattice item: its rule in g, or RULE_NONE */
    struct tried *tried;
    size_t ntried, tried_cap;
    struct asked *attempt;    /* the queries of the current attempt */
    size_t nattempt, attempt_cap;
    size_t notes_cap;
};

enum outcome { ACCEPTED, REJECTED, STOPPED };

/* ---- small helpers ----------------------------------------------------------- */

static size_t utf8_bytes(uint32_t cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static struct strbuf *note_of(struct gen *G, uint32_t rule)
{
    if (rule >= G->res->nnotes) {
        G->res->notes = xgrow(G->res->notes, &G->notes_cap, (size_t)rule + 1,
                              sizeof *G->res->notes);
        for (uint32_t i = G->res->nnotes; i <= rule; i++)
            G->res->notes[i] = (struct strbuf)STRBUF_INIT;
        G->res->nnotes = rule + 1;
    }
    return &G->res->notes[rule];
}

static void flush_log(struct gen *G)
{
    if (G->block.len && G->o->log)
        G->o->log(G->o->log_ctx, G->block.data, G->block.len);
    strbuf_reset(&G->block);
}

/* "g.ebnf:3:9" for an element that came from the file, else nothing. */
static void add_where(struct gen *G, const struct expr *e, struct strbuf *out)
{
    if (e->pos.line)
        strbuf_addf(out, " (%s:%u:%u)", G->g->file, e->pos.line, e->pos.col);
}

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The current attempt's queries as "accepted #1, #7-#11; rejected #12-#14",
 * each number once, in increasing order. */
static void add_attempt(const struct gen *G, struct strbuf *out)
{
    size_t *numbers = xmalloc((G->nattempt ? G->nattempt : 1) * sizeof *numbers);
    for (int answer = 1; answer >= 0; answer--) {
        size_t n = 0;
        for (size_t i = 0; i < G->nattempt; i++)
            if (G->attempt[i].answer == (bool)answer)
                numbers[n++] = G->attempt[i].number;
        if (!n)
            continue;
        qsort(numbers, n, sizeof *numbers, compare_size);
        if (answer == 0 && out->len && out->data[out->len - 1] != ' ')
            strbuf_addstr(out, "; ");
        strbuf_addstr(out, answer ? "accepted " : "rejected ");
        for (size_t i = 0; i < n;) {
            size_t j = i + 1;
            while (j < n && numbers[j] <= numbers[j - 1] + 1)
                j++;
            strbuf_addf(out, "%s#%zu", i ? ", " : "", numbers[i]);
            if (numbers[j - 1] != numbers[i])
                strbuf_addf(out, "-#%zu", numbers[j - 1]);
            i = j;
        }
    }
    free(numbers);
}

/* Rule r was changed by the current attempt: mark and count it, and add a
 * line to its #: note, the change (fmt) then the queries that justified it. */
static void record_change(struct gen *G, uint32_t r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void record_change(struct gen *G, uint32_t r, const char *fmt, ...)
{
    G->g->rules[r].edited = true;
    G->res->changes++;
    struct strbuf *note = note_of(G, r);
    if (note->len)
        strbuf_addch(note, '\n');
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(note, fmt, ap);
    va_end(ap);
    strbuf_addstr(note, ": queries ");
    add_attempt(G, note);
}

static bool was_tried(struct gen *G, enum attempt kind, const struct expr *first,
                      const struct expr *last, size_t extra)
{
    for (size_t i = 0; i < G->ntried; i++)
        if (G->tried[i].kind == kind && G->tried[i].first == first && G->tried[i].last == last &&
            G->tried[i].extra == extra)
            return true;
    G->tried = xgrow(G->tried, &G->tried_cap, G->ntried + 1, sizeof *G->tried);
    G->tried[G->ntried++] = (struct tried){kind, first, last, extra};
    return false;
}

/* Structural equality of two elements (an explicit stack of pairs). */
static bool expr_equal(const struct expr *a, const struct expr *b)
{
    const struct expr **stack = NULL;
    size_t depth = 0, cap = 0;
    bool equal = true;
    stack = xgrow(stack, &cap, 2, sizeof *stack);
    stack[depth++] = a;
    stack[depth++] = b;
    while (equal && depth) {
        const struct expr *y = stack[--depth], *x = stack[--depth];
        if (x->kind != y->kind || x->nchildren != y->nchildren) {
            equal = false;
            break;
        }
        switch (x->kind) {
        case EXPR_LIT:
            equal = x->u.lit.len == y->u.lit.len &&
                    memcmp(x->u.lit.text, y->u.lit.text, x->u.lit.len) == 0;
            break;
        case EXPR_CLASS:
            equal = x->u.cls.negated == y->u.cls.negated && x->u.cls.nranges == y->u.cls.nranges &&
                    memcmp(x->u.cls.ranges, y->u.cls.ranges,
                           x->u.cls.nranges * sizeof *x->u.cls.ranges) == 0;
            break;
        case EXPR_REF: equal = x->u.ref.target == y->u.ref.target; break;
        case EXPR_QUANT:
            equal = x->u.quant.min == y->u.quant.min && x->u.quant.max == y->u.quant.max;
            break;
        case EXPR_ALT: equal = !x->u.alt.weights && !y->u.alt.weights; break;
        case EXPR_CAT: break;
        }
        stack = xgrow(stack, &cap, depth + 2 * (size_t)x->nchildren, sizeof *stack);
        for (uint32_t c = 0; c < x->nchildren; c++) {
            stack[depth++] = x->children[c];
            stack[depth++] = y->children[c];
        }
    }
    free(stack);
    return equal;
}

/* The elements of rule r in pre-order (left to right), of `kind` or all
 * (kind < 0).  A malloc'd array of *n. */
static struct expr **rule_elements(const struct grammar *g, uint32_t r, int kind, size_t *n)
{
    struct expr **stack = NULL, **found = NULL;
    size_t depth = 0, cap = 0, nfound = 0, found_cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = g->rules[r].rhs;
    while (depth) {
        struct expr *e = stack[--depth];
        if (kind < 0 || (int)e->kind == kind) {
            found = xgrow(found, &found_cap, nfound + 1, sizeof *found);
            found[nfound++] = e;
        }
        stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
        for (uint32_t c = e->nchildren; c-- > 0;)
            stack[depth++] = e->children[c];
    }
    free(stack);
    *n = nfound;
    return found;
}

/* ---- rewriting the syntax tree --------------------------------------------- */

/* Put `new` where `old` was: among parent's children, or as rule r's
 * right-hand side when parent is NULL. */
static void replace_at(struct gen *G, struct expr *parent, uint32_t r, const struct expr *old,
                       struct expr *new)
{
    if (!parent)
        G->g->rules[r].rhs = new;
    else
        for (uint32_t i = 0; i < parent->nchildren; i++)
            if (parent->children[i] == old)
                parent->children[i] = new;
    new->parent = parent;
}

/* Replace items [i, j) of the sequence `cat` by `item`; a sequence left with
 * one item is replaced by it. */
static void splice(struct gen *G, struct expr *cat, uint32_t i, uint32_t j, struct expr *item)
{
    uint32_t n = cat->nchildren, m = n - (j - i) + 1;
    if (m == 1) {
        replace_at(G, cat->parent, cat->rule, cat, item);
        return;
    }
    struct expr **kids = arena_alloc(&G->g->arena, m * sizeof *kids);
    uint32_t k = 0;
    for (uint32_t c = 0; c < i; c++)
        kids[k++] = cat->children[c];
    kids[k++] = item;
    for (uint32_t c = j; c < n; c++)
        kids[k++] = cat->children[c];
    cat->children = kids;
    cat->nchildren = m;
    item->parent = cat;
}

static struct expr *new_quant(struct gen *G, struct expr *child, uint32_t min, uint32_t max,
                              uint32_t r)
{
    struct expr *q = gb_quant(G->g, child, min, max, child->pos, child->end);
    q->rule = r;
    return q;
}

/* items[0..n) as one element (a new sequence when n > 1). */
static struct expr *group_of(struct gen *G, struct expr *const *items, size_t n, uint32_t r)
{
    struct expr *e = gb_seq(G->g, items, n, items[0]->pos, items[n - 1]->end);
    e->rule = r;
    return e;
}

static bool nullable(const struct expr *e)
{
    return (e->kind == EXPR_QUANT && e->u.quant.min == 0) ||
           (e->kind == EXPR_LIT && e->u.lit.len == 0);
}

/* A copy of a lattice item's element tree in g, in rule r. */
static struct expr *copy_expr(struct grammar *g, const struct expr *src, uint32_t r)
{
    struct pair {
        const struct expr *from;
        struct expr *to;
    } *stack = NULL;
    size_t depth = 0, cap = 0;
    struct expr *root = grammar_new_expr(g, src->kind, r);
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = (struct pair){src, root};
    while (depth) {
        struct pair p = stack[--depth];
        const struct expr *s = p.from;
        struct expr *d = p.to;
        d->u = s->u;
        switch (s->kind) {
        case EXPR_LIT:
            d->u.lit.text = arena_strndup(&g->arena, s->u.lit.text, s->u.lit.len);
            break;
        case EXPR_CLASS:
            d->u.cls.ranges = arena_alloc(&g->arena, (s->u.cls.nranges ? s->u.cls.nranges : 1) *
                                                         sizeof *d->u.cls.ranges);
            memcpy(d->u.cls.ranges, s->u.cls.ranges, s->u.cls.nranges * sizeof *d->u.cls.ranges);
            d->u.cls.source = arena_strndup(&g->arena, s->u.cls.source, strlen(s->u.cls.source));
            break;
        case EXPR_ALT: d->u.alt.weights = NULL; break;
        default: break;
        }
        d->nchildren = s->nchildren;
        d->children = arena_alloc(&g->arena, (s->nchildren ? s->nchildren : 1) *
                                                 sizeof *d->children);
        stack = xgrow(stack, &cap, depth + s->nchildren, sizeof *stack);
        for (uint32_t c = 0; c < s->nchildren; c++) {
            struct expr *k = grammar_new_expr(g, s->children[c]->kind, r);
            k->parent = d;
            d->children[c] = k;
            stack[depth++] = (struct pair){s->children[c], k};
        }
    }
    free(stack);
    return root;
}

/* The rule standing for lattice item i in g, added the first time. */
static uint32_t item_rule(struct gen *G, size_t i)
{
    if (G->item_rule[i] != RULE_NONE)
        return G->item_rule[i];
    const struct lattice *l = G->o->lattice;
    const struct lattice_item *it = &l->items[i];
    const struct expr *item_rhs = l->grammar->rules[it->rule].rhs;
    /* A rule of that name saying the same (from an earlier generalize) is it. */
    uint32_t same = grammar_find_rule(G->g, it->name);
    if (same != RULE_NONE && expr_equal(G->g->rules[same].rhs, item_rhs)) {
        G->item_rule[i] = same;
        return same;
    }
    struct strbuf name = STRBUF_INIT;
    strbuf_addstr(&name, it->name);
    for (unsigned k = 2; grammar_find_rule(G->g, name.data) != RULE_NONE; k++) {
        strbuf_reset(&name);
        strbuf_addf(&name, "%s_%u", it->name, k);
    }
    uint32_t r = G->g->nrules;
    struct expr *rhs = copy_expr(G->g, item_rhs, r);
    uint32_t added = grammar_add_rule(G->g, name.data, rhs);
    G->g->rules[added].reachable = true;
    strbuf_addf(note_of(G, added), "item %s of the lattice %s", it->name,
                G->o->lattice_name ? G->o->lattice_name : l->grammar->file);
    strbuf_free(&name);
    G->item_rule[i] = added;
    return added;
}

/* ---- samples, trees and spans ----------------------------------------------- */

static void tree_free(struct sample_tree *t)
{
    if (t->built)
        dtree_free(&t->tree);
    free(t->start);
    free(t->end);
    memset(t, 0, sizeof *t);
}

static void compute_spans(const struct graph *g, struct sample_tree *t)
{
    size_t n = t->tree.len;
    size_t *len = xcalloc(n ? n : 1, sizeof *len);
    t->start = xcalloc(n ? n : 1, sizeof *t->start);
    t->end = xcalloc(n ? n : 1, sizeof *t->end);
    /* Children come after their parents: backwards sums lengths, forwards
     * hands out start offsets. */
    for (size_t i = n; i-- > 0;) {
        const struct dtree_inst *in = &t->tree.insts[i];
        const struct graph_node *node = &g->nodes[in->node];
        size_t l = node->kind == NODE_LIT     ? node->expr->u.lit.len
                   : node->kind == NODE_CLASS ? utf8_bytes(in->ch)
                                              : 0;
        for (uint32_t c = 0; c < in->nchildren; c++)
            l += len[dtree_children(&t->tree, (uint32_t)i)[c]];
        len[i] = l;
    }
    for (size_t i = 0; i < n; i++) {
        size_t s = t->start[i];
        t->end[i] = s + len[i];
        const struct dtree_inst *in = &t->tree.insts[i];
        for (uint32_t c = 0; c < in->nchildren; c++) {
            uint32_t k = dtree_children(&t->tree, (uint32_t)i)[c];
            t->start[k] = s;
            s += len[k];
        }
    }
    free(len);
}

/* Build the graph of the grammar as it is now and parse every sample again. */
static bool rebuild(struct gen *G, bool first)
{
    graph_free(G->graph);
    G->graph = graph_build(G->g);
    for (size_t i = 0; i < G->nsamples; i++) {
        const struct generalize_sample *s = &G->samples[i];
        struct sample_tree *t = &G->trees[i];
        tree_free(t);
        struct diag_list pd = DIAG_LIST_INIT;
        struct forest *f = parse_text(G->graph, s->name, s->text, s->len, &G->o->po,
                                      first ? G->diags : &pd);
        diag_list_free(&pd);
        if (!f) {
            if (!first)
                diag_add(G->diags, DIAG_ERROR, s->name, 0, 0,
                         "the widened grammar does not parse this sample (a bug in kpath)");
            return false;
        }
        t->built = forest_first_tree(f, &t->tree);
        forest_free(f);
        if (!t->built) {
            dtree_free(&t->tree);
            diag_add(G->diags, DIAG_ERROR, s->name, 0, 0,
                     "the grammar derives this sample only through a cycle");
            return false;
        }
        compute_spans(G->graph, t);
    }
    return true;
}

/* Where element e occurs in the samples' trees, sample by sample. */
static struct occ *occurrences(struct gen *G, const struct expr *e, size_t *n)
{
    uint32_t node = NODE_NONE;
    for (uint32_t i = 0; i < G->graph->nnodes; i++)
        if (G->graph->nodes[i].expr == e)
            node = i;
    struct occ *found = NULL;
    size_t nfound = 0, cap = 0;
    for (size_t s = 0; node != NODE_NONE && s < G->nsamples; s++) {
        const struct dtree *t = &G->trees[s].tree;
        for (size_t i = 0; i < t->len; i++)
            if (t->insts[i].node == node) {
                found = xgrow(found, &cap, nfound + 1, sizeof *found);
                found[nfound++] = (struct occ){s, (uint32_t)i};
            }
    }
    *n = nfound;
    return found;
}

/* ---- asking ------------------------------------------------------------------- */

/* Ask about inputs[0..n): every one the first time through the oracle (in one
 * batch, numbered in order), again from memory.  Each is logged.  *all_yes
 * tells whether all were accepted.  False when the oracle failed or the
 * query limit is reached (res->limit_reached). */
static bool ask(struct gen *G, struct strbuf *inputs, size_t n, bool *all_yes)
{
    struct query **entry = xcalloc(n ? n : 1, sizeof *entry);
    bool *again = xcalloc(n ? n : 1, sizeof *again);
    struct query **fresh = xcalloc(n ? n : 1, sizeof *fresh);
    size_t nfresh = 0;
    for (size_t i = 0; i < n; i++) {
        const char *text = inputs[i].data ? inputs[i].data : "";
        struct query *q = NULL;
        HASH_FIND(hh, G->cache, text, inputs[i].len, q);
        if (q) {
            again[i] = true;
        } else {
            q = xcalloc(1, sizeof *q);
            q->text = xmalloc(inputs[i].len + 1);
            memcpy(q->text, text, inputs[i].len);
            q->text[inputs[i].len] = '\0';
            q->len = inputs[i].len;
            HASH_ADD_KEYPTR(hh, G->cache, q->text, q->len, q);
            fresh[nfresh++] = q;
        }
        entry[i] = q;
    }
    bool ok = true;
    if (G->o->max_queries && G->res->queries + nfresh > G->o->max_queries) {
        G->res->limit_reached = true;
        ok = false;
    }
    if (ok && nfresh) {
        const char **texts = xcalloc(nfresh, sizeof *texts);
        size_t *lens = xcalloc(nfresh, sizeof *lens);
        bool *answers = xcalloc(nfresh, sizeof *answers);
        for (size_t i = 0; i < nfresh; i++) {
            texts[i] = fresh[i]->text;
            lens[i] = fresh[i]->len;
        }
        ok = G->o->ask(G->o->ask_ctx, texts, lens, nfresh, answers, G->diags);
        for (size_t i = 0; ok && i < nfresh; i++) {
            fresh[i]->number = ++G->res->queries;
            fresh[i]->answer = answers[i];
            G->res->accepted += answers[i];
        }
        free(texts);
        free(lens);
        free(answers);
    }
    if (!ok) {
        for (size_t i = 0; i < nfresh; i++) {
            HASH_DEL(G->cache, fresh[i]);
            free(fresh[i]->text);
            free(fresh[i]);
        }
    } else {
        *all_yes = true;
        for (size_t i = 0; i < n; i++) {
            const struct query *q = entry[i];
            G->res->asked++;
            *all_yes = *all_yes && q->answer;
            strbuf_addf(&G->block, "    #%-4zu %-3s  ", q->number, q->answer ? "yes" : "no");
            grammar_lit_label(q->text, q->len, &G->block);
            if (again[i])
                strbuf_addstr(&G->block, "  (asked before)");
            strbuf_addch(&G->block, '\n');
            G->attempt = xgrow(G->attempt, &G->attempt_cap, G->nattempt + 1, sizeof *G->attempt);
            G->attempt[G->nattempt++] = (struct asked){q->number, q->answer};
        }
    }
    free(entry);
    free(again);
    free(fresh);
    return ok;
}

/* The sample s with text[from, to) replaced by `with`. */
static void edited_sample(const struct generalize_sample *s, size_t from, size_t to,
                          const char *with, size_t with_len, struct strbuf *out)
{
    strbuf_add(out, s->text, from);
    strbuf_add(out, with, with_len);
    strbuf_add(out, s->text + to, s->len - to);
}

static void free_inputs(struct strbuf *inputs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        strbuf_free(&inputs[i]);
    free(inputs);
}

/* ---- 1. strings ---------------------------------------------------------------- */

/* Ask with lattice item i's examples in place of every occurrence. */
static enum outcome try_item(struct gen *G, const struct occ *occs, size_t nocc, size_t item)
{
    const struct lattice_item *it = &G->o->lattice->items[item];
    size_t n = nocc * it->nexamples;
    struct strbuf *inputs = xcalloc(n ? n : 1, sizeof *inputs);
    size_t k = 0;
    for (size_t o = 0; o < nocc; o++) {
        const struct sample_tree *t = &G->trees[occs[o].sample];
        for (size_t x = 0; x < it->nexamples; x++)
            edited_sample(&G->samples[occs[o].sample], t->start[occs[o].inst],
                          t->end[occs[o].inst], it->examples[x]->u.lit.text,
                          it->examples[x]->u.lit.len, &inputs[k++]);
    }
    strbuf_addf(&G->block, "  %s:\n", it->name);
    bool yes = false;
    bool ok = ask(G, inputs, n, &yes);
    free_inputs(inputs, n);
    return !ok ? STOPPED : yes ? ACCEPTED : REJECTED;
}

/* Remove alternative `e` of an alternation when an earlier or later one is
 * now the same element ("1" | "22" both became digits). */
static void drop_duplicate_alternative(struct gen *G, struct expr *e)
{
    struct expr *alt = e->parent;
    if (!alt || alt->kind != EXPR_ALT || alt->u.alt.weights)
        return;
    uint32_t at = UINT32_MAX;
    bool duplicate = false;
    for (uint32_t i = 0; i < alt->nchildren; i++) {
        if (alt->children[i] == e)
            at = i;
        else if (expr_equal(alt->children[i], e))
            duplicate = true;
    }
    if (!duplicate || at == UINT32_MAX)
        return;
    for (uint32_t i = at; i + 1 < alt->nchildren; i++)
        alt->children[i] = alt->children[i + 1];
    alt->nchildren--;
    if (alt->nchildren == 1)
        replace_at(G, alt->parent, alt->rule, alt, alt->children[0]);
}

static bool generalize_string(struct gen *G, uint32_t r, struct expr *lit)
{
    const struct lattice *l = G->o->lattice;
    size_t nocc;
    struct occ *occs = occurrences(G, lit, &nocc);
    if (!nocc) {
        free(occs);
        return true;
    }
    bool *holds = xcalloc(l->nitems, sizeof *holds);
    for (size_t i = 0; i < l->nitems; i++)
        holds[i] = lattice_contains(l, i, lit->u.lit.text, lit->u.lit.len);
    struct strbuf label = STRBUF_INIT;
    grammar_lit_label(lit->u.lit.text, lit->u.lit.len, &label);
    strbuf_addf(&G->block, "%s: string %s", G->g->rules[r].name, label.data);
    add_where(G, lit, &G->block);
    strbuf_addstr(&G->block, ", along the lattice\n");
    G->nattempt = 0;
    size_t cur = SIZE_MAX;
    enum outcome out = REJECTED;
    struct strbuf walk = STRBUF_INIT;
    /* The most specific items that hold it, in file order, until one is accepted. */
    for (size_t i = 0; i < l->nitems && cur == SIZE_MAX; i++) {
        if (!holds[i])
            continue;
        bool minimal = true;
        for (size_t b = 0; b < l->items[i].nbelow; b++)
            minimal = minimal && !holds[l->items[i].below[b]];
        if (!minimal)
            continue;
        out = try_item(G, occs, nocc, i);
        if (out == STOPPED)
            break;
        strbuf_addf(&walk, "%s%s %s", walk.len ? ", " : "", l->items[i].name,
                    out == ACCEPTED ? "accepted" : "rejected");
        if (out == ACCEPTED)
            cur = i;
    }
    /* Up: the first more general item whose examples are all accepted. */
    while (out != STOPPED && cur != SIZE_MAX) {
        size_t next = SIZE_MAX;
        for (size_t u = 0; u < l->nitems && next == SIZE_MAX; u++) {
            if (!holds[u] || !lattice_generalizes(l, u, cur))
                continue;
            out = try_item(G, occs, nocc, u);
            if (out == STOPPED)
                break;
            strbuf_addf(&walk, ", %s %s", l->items[u].name,
                        out == ACCEPTED ? "accepted" : "rejected");
            if (out == ACCEPTED)
                next = u;
        }
        if (out == STOPPED || next == SIZE_MAX)
            break;
        cur = next;
    }
    bool ok = out != STOPPED;
    if (ok && cur != SIZE_MAX) {
        uint32_t target = item_rule(G, cur);
        const char *name = G->g->rules[target].name;
        struct expr *ref = gb_ref(G->g, name, strlen(name), lit->pos, lit->end);
        ref->rule = r;
        ref->u.ref.target = target;
        replace_at(G, lit->parent, r, lit, ref);
        drop_duplicate_alternative(G, ref);
        strbuf_addf(&G->block, "  => %s becomes %s\n", label.data, name);
        record_change(G, r, "string %s -> %s (%s)", label.data, name, walk.data);
        ok = rebuild(G, false);
    } else if (ok) {
        strbuf_addf(&G->block, "  => %s stays\n", label.data);
    }
    flush_log(G);
    strbuf_free(&walk);
    strbuf_free(&label);
    free(holds);
    free(occs);
    return ok;
}

static bool generalize_strings(struct gen *G, uint32_t r)
{
    size_t n;
    struct expr **lits = rule_elements(G->g, r, EXPR_LIT, &n);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++)
        if (lits[i]->u.lit.len)
            ok = generalize_string(G, r, lits[i]);
    free(lits);
    return ok;
}

/* ---- 2. repetitions -------------------------------------------------------------- */

/* Are items [a, a+L) and [b, b+L) of cat the same? */
static bool same_group(const struct expr *cat, uint32_t a, uint32_t b, uint32_t L)
{
    for (uint32_t i = 0; i < L; i++)
        if (!expr_equal(cat->children[a + i], cat->children[b + i]))
            return false;
    return true;
}

/* Try the group [i, i+L) of cat, which occurs k times in a row. */
static enum outcome try_repetition(struct gen *G, uint32_t r, struct expr *cat, uint32_t i,
                                   uint32_t L, uint32_t k)
{
    size_t nocc;
    struct occ *occs = occurrences(G, cat, &nocc);
    if (!nocc) {
        free(occs);
        return REJECTED;
    }
    struct strbuf what = STRBUF_INIT;
    for (uint32_t c = 0; c < L; c++) {
        if (c)
            strbuf_addch(&what, ' ');
        grammar_write_expr(G->g, cat->children[i + c], &what);
    }
    strbuf_addf(&G->block, "%s: repetition of %s", G->g->rules[r].name, what.data);
    add_where(G, cat->children[i], &G->block);
    strbuf_addf(&G->block, ", %u times in the sample%s; try 1 to %d\n", k,
                G->nsamples == 1 ? "" : "s", GENERALIZE_MAX_REPETITIONS);
    G->nattempt = 0;
    size_t n = nocc * GENERALIZE_MAX_REPETITIONS;
    struct strbuf *inputs = xcalloc(n, sizeof *inputs);
    size_t m = 0;
    for (size_t o = 0; o < nocc; o++) {
        const struct generalize_sample *s = &G->samples[occs[o].sample];
        const struct sample_tree *t = &G->trees[occs[o].sample];
        const uint32_t *kids = dtree_children(&t->tree, occs[o].inst);
        size_t from = t->start[kids[i]], to = t->end[kids[i + k * L - 1]];
        for (uint32_t times = 1; times <= GENERALIZE_MAX_REPETITIONS; times++) {
            struct strbuf *in = &inputs[m++];
            strbuf_add(in, s->text, from);
            for (uint32_t x = 0; x < times; x++) {
                uint32_t first = i + (x % k) * L;
                size_t a = t->start[kids[first]], b = t->end[kids[first + L - 1]];
                strbuf_add(in, s->text + a, b - a);
            }
            strbuf_add(in, s->text + to, s->len - to);
        }
    }
    bool yes = false;
    bool ok = ask(G, inputs, n, &yes);
    free_inputs(inputs, n);
    free(occs);
    enum outcome out = !ok ? STOPPED : yes ? ACCEPTED : REJECTED;
    if (out == ACCEPTED) {
        struct expr *group = group_of(G, cat->children + i, L, r);
        struct expr *q = new_quant(G, group, 1, QUANT_INFINITE, r);
        splice(G, cat, i, i + k * L, q);
        struct strbuf now = STRBUF_INIT;
        grammar_write_expr(G->g, q, &now);
        strbuf_addf(&G->block, "  => %s\n", now.data);
        record_change(G, r, "repetition %s (1 to %d times)", now.data,
                      GENERALIZE_MAX_REPETITIONS);
        strbuf_free(&now);
    } else if (out == REJECTED) {
        strbuf_addf(&G->block, "  => not a repetition\n");
    }
    flush_log(G);
    strbuf_free(&what);
    return out;
}

static bool generalize_repetitions(struct gen *G, uint32_t r)
{
    for (bool again = true; again;) {
        again = false;
        size_t ncats;
        struct expr **cats = rule_elements(G->g, r, EXPR_CAT, &ncats);
        for (size_t c = 0; c < ncats && !again; c++) {
            struct expr *cat = cats[c];
            uint32_t n = cat->nchildren;
            for (uint32_t L = 1; L <= n / 2 && !again; L++)
                for (uint32_t i = 0; i + 2 * L <= n && !again; i++) {
                    uint32_t k = 1;
                    while (i + (k + 1) * L <= n && same_group(cat, i, i + k * L, L))
                        k++;
                    if (k < 2 || was_tried(G, TRY_REPETITION, cat->children[i], NULL, L))
                        continue;
                    enum outcome out = try_repetition(G, r, cat, i, L, k);
                    if (out == STOPPED) {
                        free(cats);
                        return false;
                    }
                    if (out == ACCEPTED) {
                        if (!rebuild(G, false)) {
                            free(cats);
                            return false;
                        }
                        again = true;
                    } else {
                        i += k * L - 1; /* not the same run again, shorter */
                    }
                }
        }
        free(cats);
    }
    return true;
}

/* ---- 3. optional parts ------------------------------------------------------------ */

/* Is e a sequence to omit parts of: a CAT, or a single item standing for an
 * alternative or a whole right-hand side? */
static bool is_sequence(const struct expr *e)
{
    const struct expr *p = e->parent;
    if (e->kind == EXPR_CAT)
        return true;
    return e->kind != EXPR_ALT && (!p || p->kind == EXPR_ALT);
}

static enum outcome try_optional(struct gen *G, uint32_t r, struct expr *seq, uint32_t i,
                                 uint32_t j)
{
    bool is_cat = seq->kind == EXPR_CAT;
    size_t nocc;
    struct occ *occs = occurrences(G, seq, &nocc);
    struct strbuf *inputs = xcalloc(nocc ? nocc : 1, sizeof *inputs);
    size_t n = 0;
    for (size_t o = 0; o < nocc; o++) {
        const struct sample_tree *t = &G->trees[occs[o].sample];
        size_t from = t->start[occs[o].inst], to = t->end[occs[o].inst];
        if (is_cat) {
            const uint32_t *kids = dtree_children(&t->tree, occs[o].inst);
            from = t->start[kids[i]];
            to = t->end[kids[j - 1]];
        }
        if (from == to)
            continue; /* nothing to omit here: no evidence either way */
        edited_sample(&G->samples[occs[o].sample], from, to, "", 0, &inputs[n++]);
    }
    free(occs);
    if (!n) {
        free_inputs(inputs, n);
        return REJECTED;
    }
    struct strbuf what = STRBUF_INIT;
    for (uint32_t c = i; c < j; c++) {
        if (c > i)
            strbuf_addch(&what, ' ');
        grammar_write_expr(G->g, is_cat ? seq->children[c] : seq, &what);
    }
    strbuf_addf(&G->block, "%s: omit %s", G->g->rules[r].name, what.data);
    add_where(G, is_cat ? seq->children[i] : seq, &G->block);
    strbuf_addch(&G->block, '\n');
    G->nattempt = 0;
    bool yes = false;
    bool ok = ask(G, inputs, n, &yes);
    free_inputs(inputs, n);
    enum outcome out = !ok ? STOPPED : yes ? ACCEPTED : REJECTED;
    if (out == ACCEPTED) {
        struct expr *q;
        if (!is_cat || j - i == seq->nchildren) {
            struct expr *parent = seq->parent;
            if (seq->kind == EXPR_QUANT && seq->u.quant.min == 1) {
                seq->u.quant.min = 0; /* x+ omitted is x* */
                q = seq;
            } else {
                q = new_quant(G, seq, 0, 1, r);
                replace_at(G, parent, r, seq, q);
            }
        } else {
            struct expr *group = group_of(G, seq->children + i, j - i, r);
            if (group->kind == EXPR_QUANT && group->u.quant.min == 1) {
                group->u.quant.min = 0;
                q = group;
            } else {
                q = new_quant(G, group, 0, 1, r);
            }
            splice(G, seq, i, j, q);
        }
        struct strbuf now = STRBUF_INIT;
        grammar_write_expr(G->g, q, &now);
        strbuf_addf(&G->block, "  => %s\n", now.data);
        record_change(G, r, "optional %s (omitted)", now.data);
        strbuf_free(&now);
    } else if (out == REJECTED) {
        strbuf_addstr(&G->block, "  => not optional\n");
    }
    flush_log(G);
    strbuf_free(&what);
    return out;
}

static bool generalize_optional(struct gen *G, uint32_t r)
{
    for (bool again = true; again;) {
        again = false;
        size_t nall;
        struct expr **all = rule_elements(G->g, r, -1, &nall);
        for (size_t s = 0; s < nall && !again; s++) {
            struct expr *seq = all[s];
            if (!is_sequence(seq))
                continue;
            bool is_cat = seq->kind == EXPR_CAT;
            uint32_t n = is_cat ? seq->nchildren : 1;
            /* Omitting a whole occurrence of a repeated group is one
             * repetition less, no evidence that the group is optional. */
            const struct expr *p = seq->parent;
            uint32_t longest = p && p->kind == EXPR_QUANT && p->u.quant.max > 1 ? n - 1 : n;
            for (uint32_t len = longest; len >= 1 && !again; len--)
                for (uint32_t i = 0; i + len <= n && !again; i++) {
                    uint32_t j = i + len;
                    struct expr *first = is_cat ? seq->children[i] : seq;
                    struct expr *last = is_cat ? seq->children[j - 1] : seq;
                    if (nullable(first) || nullable(last) ||
                        was_tried(G, TRY_OPTIONAL, first, last, 0))
                        continue;
                    enum outcome out = try_optional(G, r, seq, i, j);
                    if (out == STOPPED) {
                        free(all);
                        return false;
                    }
                    if (out == ACCEPTED) {
                        if (!rebuild(G, false)) {
                            free(all);
                            return false;
                        }
                        again = true;
                    }
                }
        }
        free(all);
    }
    return true;
}

/* ---- the run -------------------------------------------------------------------- */

void generalize_options_default(struct generalize_options *o)
{
    memset(o, 0, sizeof *o);
    o->po.max_input_size = PARSE_DEFAULT_MAX_INPUT;
    o->po.max_memory = PARSE_DEFAULT_MAX_MEMORY;
    o->max_queries = GENERALIZE_DEFAULT_MAX_QUERIES;
    o->strings = o->repetitions = o->optional = true;
}

bool generalize_run(struct grammar *g, const struct generalize_sample *samples, size_t nsamples,
                    const struct generalize_options *o, struct generalize_result *res,
                    struct diag_list *diags)
{
    memset(res, 0, sizeof *res);
    struct gen G = {.g = g, .samples = samples, .nsamples = nsamples, .o = o, .res = res,
                    .diags = diags};
    G.trees = xcalloc(nsamples ? nsamples : 1, sizeof *G.trees);
    size_t nitems = o->lattice ? o->lattice->nitems : 0;
    G.item_rule = xmalloc((nitems ? nitems : 1) * sizeof *G.item_rule);
    for (size_t i = 0; i < nitems; i++)
        G.item_rule[i] = RULE_NONE;
    uint32_t original = g->nrules;
    note_of(&G, original ? original - 1 : 0);
    bool ok = rebuild(&G, true);
    if (ok) {
        /* The samples themselves first: the program must accept them. */
        struct strbuf *inputs = xcalloc(nsamples ? nsamples : 1, sizeof *inputs);
        for (size_t i = 0; i < nsamples; i++)
            strbuf_add(&inputs[i], samples[i].text, samples[i].len);
        strbuf_addstr(&G.block, "the samples\n");
        bool yes = false;
        ok = ask(&G, inputs, nsamples, &yes);
        free_inputs(inputs, nsamples);
        if (ok && !yes) {
            for (size_t i = 0; i < G.nattempt; i++)
                if (!G.attempt[i].answer)
                    diag_add(diags, DIAG_ERROR, samples[i].name, 0, 0,
                             "the program rejects this sample; every sample must be valid");
            ok = false;
        }
        strbuf_addstr(&G.block, ok ? "  => all accepted\n" : "  => not all accepted\n");
        flush_log(&G);
    }
    for (uint32_t r = 0; ok && r < original; r++) {
        if (o->strings && o->lattice)
            ok = generalize_strings(&G, r);
        if (ok && o->repetitions)
            ok = generalize_repetitions(&G, r);
        if (ok && o->optional)
            ok = generalize_optional(&G, r);
    }
    if (res->limit_reached) {
        strbuf_addf(&G.block, "stopped: the next attempt needs more than %zu queries in all\n",
                    o->max_queries);
        flush_log(&G);
        diag_add(diags, DIAG_WARNING, NULL, 0, 0,
                 "stopped after %zu queries (--max-queries): the grammar is generalized as far "
                 "as it got", res->queries);
        ok = true;
    }
    note_of(&G, g->nrules ? g->nrules - 1 : 0);
    for (size_t i = 0; i < nsamples; i++)
        tree_free(&G.trees[i]);
    free(G.trees);
    graph_free(G.graph);
    struct query *q, *tmp;
    HASH_ITER(hh, G.cache, q, tmp) {
        HASH_DEL(G.cache, q);
        free(q->text);
        free(q);
    }
    strbuf_free(&G.block);
    free(G.item_rule);
    free(G.tried);
    free(G.attempt);
    return ok;
}

void generalize_result_free(struct generalize_result *res)
{
    for (uint32_t i = 0; i < res->nnotes; i++)
        strbuf_free(&res->notes[i]);
    free(res->notes);
    memset(res, 0, sizeof *res);
}
