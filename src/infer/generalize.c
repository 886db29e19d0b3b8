/* generalize: see generalize.h. */
#include "infer/generalize.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph/derivation.h"
#include "grammar/grammar_build.h"
#include "formats/grammar_write.h"
#include "graph/graph.h"
#include "base/xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

/* One sample's first derivation tree and the text span of every instance. */
struct sample_tree {
    struct derivation tree;
    bool built;
    size_t *start, *end; /* per instance: [start, end) in the sample's text */
};

/* An input asked before, by a hash of its bytes and its length: the text
 * itself is not kept. */
struct query {
    struct membership_key key;
    size_t number; /* 1-based, in the order first asked */
    enum membership_answer answer;
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
    enum membership_answer answer;
};

/* The batch of inputs of the attempt under way (ask_begin .. ask_end). */
struct pending_ask {
    enum { ASK_IDLE, ASK_WAITING, ASK_ANSWERED, ASK_FAILED } state;
    struct strbuf *inputs;  /* owned: every input of the attempt */
    size_t n;
    struct query **entry;   /* per input: its cache entry */
    bool *again;            /* per input: answered from memory */
    struct query **fresh;   /* the entries asked now, in order */
    size_t nfresh;
    const char **texts;     /* of fresh, for the caller; borrowed from inputs */
    size_t *lens;
    enum membership_answer *answers; /* of fresh, filled in by the caller */
};

/* Where the walk of one literal along the lattice is (strings). */
struct string_walk {
    bool active;
    struct expr *lit;
    struct occ *occs;
    size_t nocc;
    bool *holds;              /* per lattice item: it holds the literal */
    bool *accepted;           /* per lattice item: asked about, all accepted */
    struct strbuf label, walk;
    size_t cur;               /* the item accepted last (SIZE_MAX: none) */
    size_t i;                 /* the next item to consider */
    size_t item;              /* the item being asked about */
    int out;                  /* enum outcome of the last attempt */
};

enum pending_kind { PENDING_NONE, PENDING_SAMPLES, PENDING_ITEM, PENDING_REPETITION,
                    PENDING_OPTIONAL };
enum phase { PHASE_STRINGS, PHASE_REPETITIONS, PHASE_OPTIONAL, PHASE_END, PHASE_DONE };

struct generalize {
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
    /* the state machine: a phase per rule, the attempt under way */
    bool ok;                  /* nothing failed so far */
    uint32_t rule, original;  /* the rule being generalized, of the first `original` */
    enum phase phase;
    enum pending_kind pending;
    struct pending_ask ask;
    struct strbuf current;    /* the attempt under way, one line */
    struct string_walk walk;
    struct expr **lits;       /* strings: the rule's literals, the next */
    size_t nlits, next_lit;
    struct expr **cats;       /* repetitions: the rule's sequences, the cursor */
    size_t ncats, cat;
    uint32_t rep_len, rep_at;
    struct expr **elements;   /* optional parts: the rule's elements, the cursor */
    size_t nelements, element;
    bool in_sequence;
    uint32_t opt_n, opt_len, opt_at;
    int opt_pass;             /* 0: parts with a literal at one end at most; 1: all */
    /* the attempt asked about: its sequence and items [at, at + len * times) */
    struct expr *try_seq;
    uint32_t try_at, try_len, try_times;
    /* optional parts: per input of the attempt, is it a combination (the
     * part omitted together with the rule's other optional parts)? */
    unsigned char *try_kind; /* enum omission_kind */
    size_t try_ninputs;
    /* optional parts: the inputs of the example groups after the first,
     * asked in a second round when the first said yes (their kinds), and
     * the outcome of the first round */
    struct strbuf *more_inputs;
    unsigned char *more_kind;
    size_t nmore;
    int first_out; /* enum outcome */
    /* the one optional item of the same sequence every combination also
     * omitted (its index), else UINT32_MAX */
    uint32_t try_sibling;
};

enum outcome { ACCEPTED, REJECTED, UNDECIDED, STOPPED };

static void free_inputs(struct strbuf *inputs, size_t n);

/* ---- small helpers ----------------------------------------------------------- */

static size_t utf8_bytes(uint32_t cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static struct strbuf *note_of(struct generalize *G, uint32_t rule)
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

static void flush_log(struct generalize *G)
{
    if (G->block.len && G->o->log)
        G->o->log(G->o->log_ctx, G->block.data, G->block.len);
    strbuf_reset(&G->block);
}

/* "g.ebnf:3:9" for an element that came from the file, else nothing. */
static void add_where(struct generalize *G, const struct expr *e, struct strbuf *out)
{
    if (e->pos.line)
        strbuf_addf(out, " (%s:%u:%u)", G->g->file, e->pos.line, e->pos.col);
}

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The current attempt's queries as "accepted #1, #7-#11; rejected #12-#14;
 * no answer #15" (timeouts, crashes), each number once, in increasing
 * order. */
static void add_attempt(const struct generalize *G, struct strbuf *out)
{
    size_t *numbers = xmalloc((G->nattempt ? G->nattempt : 1) * sizeof *numbers);
    /* yes, no, then the runs that gave no answer (timeouts, crashes) */
    for (int group = 0; group < 3; group++) {
        size_t n = 0;
        for (size_t i = 0; i < G->nattempt; i++) {
            enum membership_answer a = G->attempt[i].answer;
            int g = a == MEMBERSHIP_YES ? 0 : a == MEMBERSHIP_NO ? 1 : 2;
            if (g == group)
                numbers[n++] = G->attempt[i].number;
        }
        if (!n)
            continue;
        qsort(numbers, n, sizeof *numbers, compare_size);
        if (group && out->len && out->data[out->len - 1] != ' ')
            strbuf_addstr(out, "; ");
        strbuf_addstr(out, group == 0 ? "accepted " : group == 1 ? "rejected " : "no answer ");
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
static void record_change(struct generalize *G, uint32_t r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void record_change(struct generalize *G, uint32_t r, const char *fmt, ...)
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

static bool was_tried(struct generalize *G, enum attempt kind, const struct expr *first,
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
static void replace_at(struct generalize *G, struct expr *parent, uint32_t r, const struct expr *old,
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
static void splice(struct generalize *G, struct expr *cat, uint32_t i, uint32_t j, struct expr *item)
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

static struct expr *new_quant(struct generalize *G, struct expr *child, uint32_t min, uint32_t max,
                              uint32_t r)
{
    struct expr *q = gb_quant(G->g, child, min, max, child->pos, child->end);
    q->rule = r;
    return q;
}

/* items[0..n) as one element (a new sequence when n > 1). */
static struct expr *group_of(struct generalize *G, struct expr *const *items, size_t n, uint32_t r)
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
static uint32_t item_rule(struct generalize *G, size_t i)
{
    if (G->item_rule[i] != RULE_NONE)
        return G->item_rule[i];
    const struct lattice *l = G->o->lattice;
    const struct lattice_item *it = &l->items[i];
    const struct expr *item_rhs = it->grammar->rules[it->rule].rhs;
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
                it->grammar != l->grammar || !G->o->lattice_name ? it->grammar->file
                                                                 : G->o->lattice_name);
    strbuf_free(&name);
    G->item_rule[i] = added;
    return added;
}

/* ---- samples, trees and spans ----------------------------------------------- */

static void tree_free(struct sample_tree *t)
{
    if (t->built)
        derivation_free(&t->tree);
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
        const struct derivation_inst *in = &t->tree.insts[i];
        const struct graph_node *node = &g->nodes[in->node];
        size_t l = node->kind == NODE_LIT     ? node->expr->u.lit.len
                   : node->kind == NODE_CLASS ? utf8_bytes(in->ch)
                                              : 0;
        for (uint32_t c = 0; c < in->nchildren; c++)
            l += len[derivation_children(&t->tree, (uint32_t)i)[c]];
        len[i] = l;
    }
    for (size_t i = 0; i < n; i++) {
        size_t s = t->start[i];
        t->end[i] = s + len[i];
        const struct derivation_inst *in = &t->tree.insts[i];
        for (uint32_t c = 0; c < in->nchildren; c++) {
            uint32_t k = derivation_children(&t->tree, (uint32_t)i)[c];
            t->start[k] = s;
            s += len[k];
        }
    }
    free(len);
}

/* Build the graph of the grammar as it is now and parse every sample again. */
static bool rebuild(struct generalize *G, bool first)
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
            derivation_free(&t->tree);
            diag_add(G->diags, DIAG_ERROR, s->name, 0, 0,
                     "the grammar derives this sample only through a cycle");
            return false;
        }
        compute_spans(G->graph, t);
    }
    return true;
}

/* Where element e occurs in the samples' trees, sample by sample. */
static struct occ *occurrences(struct generalize *G, const struct expr *e, size_t *n)
{
    uint32_t node = NODE_NONE;
    for (uint32_t i = 0; i < G->graph->nnodes; i++)
        if (G->graph->nodes[i].expr == e)
            node = i;
    struct occ *found = NULL;
    size_t nfound = 0, cap = 0;
    for (size_t s = 0; node != NODE_NONE && s < G->nsamples; s++) {
        const struct derivation *t = &G->trees[s].tree;
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

static void free_inputs(struct strbuf *inputs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        strbuf_free(&inputs[i]);
    free(inputs);
}

/* Start asking about inputs[0..n) (taken over): every one the first time
 * through the oracle (one batch, numbered in order when answered), again
 * from memory.  The batch fails at once when it would pass the query limit
 * (res->limit_reached). */
static void ask_begin(struct generalize *G, struct strbuf *inputs, size_t n)
{
    struct pending_ask *A = &G->ask;
    A->inputs = inputs;
    A->n = n;
    A->entry = xcalloc(n ? n : 1, sizeof *A->entry);
    A->again = xcalloc(n ? n : 1, sizeof *A->again);
    A->fresh = xcalloc(n ? n : 1, sizeof *A->fresh);
    size_t *fresh_at = xcalloc(n ? n : 1, sizeof *fresh_at);
    A->nfresh = 0;
    for (size_t i = 0; i < n; i++) {
        const char *text = inputs[i].data ? inputs[i].data : "";
        struct membership_key key = membership_key_of(text, inputs[i].len);
        struct query *q = NULL;
        HASH_FIND(hh, G->cache, &key, sizeof key, q);
        if (q) {
            A->again[i] = true;
        } else {
            q = xcalloc(1, sizeof *q);
            q->key = key;
            HASH_ADD(hh, G->cache, key, sizeof q->key, q);
            fresh_at[A->nfresh] = i;
            A->fresh[A->nfresh++] = q;
        }
        A->entry[i] = q;
    }
    if (G->o->max_queries && G->res->queries + A->nfresh > G->o->max_queries) {
        G->res->limit_reached = true;
        A->state = ASK_FAILED;
        free(fresh_at);
        return;
    }
    size_t m = A->nfresh ? A->nfresh : 1;
    A->texts = xcalloc(m, sizeof *A->texts);
    A->lens = xcalloc(m, sizeof *A->lens);
    A->answers = xcalloc(m, sizeof *A->answers);
    for (size_t i = 0; i < A->nfresh; i++) {
        const struct strbuf *in = &inputs[fresh_at[i]];
        A->texts[i] = in->data ? in->data : "";
        A->lens[i] = in->len;
    }
    free(fresh_at);
    A->state = A->nfresh ? ASK_WAITING : ASK_ANSWERED;
}

static const char *answer_word(enum membership_answer a)
{
    switch (a) {
    case MEMBERSHIP_YES: return "yes";
    case MEMBERSHIP_NO: return "no";
    case MEMBERSHIP_TIMEOUT: return "timeout";
    case MEMBERSHIP_CRASH: return "crash";
    }
    return "?";
}

/* At most `max` bytes of text[0..len) as a literal, and how long it was
 * when cut. */
static void add_cut_label(const char *text, size_t len, size_t max, struct strbuf *out)
{
    grammar_lit_label(text, len > max ? max : len, out);
    if (len > max)
        strbuf_addf(out, "...(%zu bytes)", len);
}

/* A log header's description of elements, cut when long (a literal of a
 * large sample would otherwise be repeated whole). */
static void cut_description(struct strbuf *what)
{
    if (what->len <= 100)
        return;
    size_t keep = 80;
    while (keep > 0 && ((unsigned char)what->data[keep] & 0xC0) == 0x80)
        keep--; /* not inside a UTF-8 sequence */
    size_t was = what->len;
    what->len = keep;
    what->data[keep] = '\0';
    strbuf_addf(what, "...(%zu bytes)", was);
}

/* An input as the log shows it: whole when short, else as its edit of the
 * sample it shares the most bytes with at its two ends. */
static void add_input_label(const struct generalize *G, const char *text, size_t len,
                            struct strbuf *out)
{
    if (len <= GENERALIZE_LOG_WHOLE || !G->nsamples) {
        grammar_lit_label(text, len, out);
        return;
    }
    size_t best = 0, best_pre = 0, best_suf = 0;
    for (size_t s = 0; s < G->nsamples; s++) {
        const struct generalize_sample *x = &G->samples[s];
        size_t m = x->len < len ? x->len : len, pre = 0, suf = 0;
        while (pre < m && x->text[pre] == text[pre])
            pre++;
        while (suf < m - pre && x->text[x->len - 1 - suf] == text[len - 1 - suf])
            suf++;
        if (s == 0 || pre + suf > best_pre + best_suf) {
            best = s;
            best_pre = pre;
            best_suf = suf;
        }
    }
    const struct generalize_sample *x = &G->samples[best];
    if (best_pre == len && x->len == len) {
        strbuf_addf(out, "%s unchanged", x->name);
        return;
    }
    strbuf_addf(out, "%s at %zu: ", x->name, best_pre);
    add_cut_label(x->text + best_pre, x->len - best_pre - best_suf, 60, out);
    strbuf_addstr(out, " -> ");
    add_cut_label(text + best_pre, len - best_pre - best_suf, 60, out);
}

/* The batch is answered (or failed): number the new queries, log each
 * input, free the batch.  *verdict: ACCEPTED when every answer is yes,
 * REJECTED when one is no, else UNDECIDED (timeouts or crashes only).
 * False when the oracle failed or the query limit was reached. */
static bool ask_end(struct generalize *G, enum outcome *verdict)
{
    struct pending_ask *A = &G->ask;
    bool ok = A->state == ASK_ANSWERED;
    for (size_t i = 0; ok && i < A->nfresh; i++) {
        A->fresh[i]->number = ++G->res->queries;
        A->fresh[i]->answer = A->answers[i];
        G->res->accepted += A->answers[i] == MEMBERSHIP_YES;
        G->res->timeouts += A->answers[i] == MEMBERSHIP_TIMEOUT;
        G->res->crashes += A->answers[i] == MEMBERSHIP_CRASH;
    }
    if (!ok) {
        for (size_t i = 0; i < A->nfresh; i++) {
            HASH_DEL(G->cache, A->fresh[i]);
            free(A->fresh[i]);
        }
    } else {
        bool any_no = false, all_yes = true;
        for (size_t i = 0; i < A->n; i++) {
            const struct query *q = A->entry[i];
            G->res->asked++;
            all_yes = all_yes && q->answer == MEMBERSHIP_YES;
            any_no = any_no || q->answer == MEMBERSHIP_NO;
            strbuf_addf(&G->block, "    #%-4zu %-3s  ", q->number, answer_word(q->answer));
            add_input_label(G, A->inputs[i].data ? A->inputs[i].data : "", A->inputs[i].len,
                            &G->block);
            if (A->again[i])
                strbuf_addstr(&G->block, "  (asked before)");
            strbuf_addch(&G->block, '\n');
            G->attempt = xgrow(G->attempt, &G->attempt_cap, G->nattempt + 1, sizeof *G->attempt);
            G->attempt[G->nattempt++] = (struct asked){q->number, q->answer};
        }
        *verdict = all_yes ? ACCEPTED : any_no ? REJECTED : UNDECIDED;
        if (*verdict == UNDECIDED) {
            G->res->undecided++;
            strbuf_addstr(&G->block, "  (a run timed out or crashed: no answer; not taken)\n");
        }
    }
    free_inputs(A->inputs, A->n);
    free(A->entry);
    free(A->again);
    free(A->fresh);
    free(A->texts);
    free(A->lens);
    free(A->answers);
    memset(A, 0, sizeof *A);
    return ok;
}

/* The attempt whose header is the log block's first line starts asking. */
static void start_attempt(struct generalize *G, enum pending_kind kind, struct strbuf *inputs,
                          size_t n)
{
    G->pending = kind;
    strbuf_reset(&G->current);
    const char *nl = memchr(G->block.data, '\n', G->block.len);
    strbuf_add(&G->current, G->block.data, nl ? (size_t)(nl - G->block.data) : G->block.len);
    ask_begin(G, inputs, n);
}

/* The sample s with text[from, to) replaced by `with`. */
static void edited_sample(const struct generalize_sample *s, size_t from, size_t to,
                          const char *with, size_t with_len, struct strbuf *out)
{
    strbuf_add(out, s->text, from);
    strbuf_add(out, with, with_len);
    strbuf_add(out, s->text + to, s->len - to);
}

/* ---- 0. the samples themselves ------------------------------------------------- */

static void start_samples(struct generalize *G)
{
    struct strbuf *inputs = xcalloc(G->nsamples ? G->nsamples : 1, sizeof *inputs);
    for (size_t i = 0; i < G->nsamples; i++)
        strbuf_add(&inputs[i], G->samples[i].text, G->samples[i].len);
    strbuf_addstr(&G->block, "the samples\n");
    start_attempt(G, PENDING_SAMPLES, inputs, G->nsamples);
}

/* The program must accept every sample. */
static bool conclude_samples(struct generalize *G, enum outcome out)
{
    bool ok = out != STOPPED;
    if (out == REJECTED || out == UNDECIDED) {
        for (size_t i = 0; i < G->nattempt && i < G->nsamples; i++) {
            enum membership_answer a = G->attempt[i].answer;
            if (a == MEMBERSHIP_YES)
                continue;
            /* the samples are the first batch: query #k is its input k - 1 */
            size_t fresh = G->attempt[i].number - 1;
            const char *why = G->o->why ? G->o->why(G->o->why_ctx, fresh) : "";
            const char *what = a == MEMBERSHIP_NO        ? "the program rejects this sample"
                               : a == MEMBERSHIP_TIMEOUT ? "the program timed out on this sample"
                                                         : "the program crashed on this sample";
            diag_add(G->diags, DIAG_ERROR, G->samples[i].name, 0, 0, "%s%s%s%s; every sample "
                     "must be valid", what, *why ? " (" : "", why, *why ? ")" : "");
        }
        ok = false;
    }
    strbuf_addstr(&G->block, ok ? "  => all accepted\n" : "  => not all accepted\n");
    flush_log(G);
    return ok;
}

/* ---- 1. strings ---------------------------------------------------------------- */

/* Ask with lattice item i's examples in place of every occurrence. */
static void start_item(struct generalize *G, size_t item)
{
    const struct string_walk *W = &G->walk;
    const struct lattice_item *it = &G->o->lattice->items[item];
    size_t n = W->nocc * it->nexamples;
    struct strbuf *inputs = xcalloc(n ? n : 1, sizeof *inputs);
    size_t k = 0;
    for (size_t o = 0; o < W->nocc; o++) {
        const struct sample_tree *t = &G->trees[W->occs[o].sample];
        for (size_t x = 0; x < it->nexamples; x++)
            edited_sample(&G->samples[W->occs[o].sample], t->start[W->occs[o].inst],
                          t->end[W->occs[o].inst], it->examples[x]->u.lit.text,
                          it->examples[x]->u.lit.len, &inputs[k++]);
    }
    strbuf_addf(&G->block, "  %s:\n", it->name);
    G->walk.item = item;
    start_attempt(G, PENDING_ITEM, inputs, n);
}

/* Remove alternative `e` of an alternation when an earlier or later one is
 * now the same element ("1" | "22" both became digits). */
static void drop_duplicate_alternative(struct generalize *G, struct expr *e)
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

/* Start the walk of literal `lit` of the rule (nothing when it derived no
 * text in the samples). */
static void walk_start(struct generalize *G, struct expr *lit)
{
    struct string_walk *W = &G->walk;
    const struct lattice *l = G->o->lattice;
    size_t nocc;
    struct occ *occs = occurrences(G, lit, &nocc);
    if (!nocc) {
        free(occs);
        return;
    }
    *W = (struct string_walk){.active = true, .lit = lit, .occs = occs, .nocc = nocc,
                              .label = STRBUF_INIT, .walk = STRBUF_INIT, .cur = SIZE_MAX,
                              .out = REJECTED};
    W->holds = xcalloc(l->nitems, sizeof *W->holds);
    W->accepted = xcalloc(l->nitems, sizeof *W->accepted);
    for (size_t i = 0; i < l->nitems; i++)
        W->holds[i] = lattice_contains(l, i, lit->u.lit.text, lit->u.lit.len);
    grammar_lit_label(lit->u.lit.text, lit->u.lit.len, &W->label);
    cut_description(&W->label);
    strbuf_addf(&G->block, "%s: string %s", G->g->rules[G->rule].name, W->label.data);
    add_where(G, lit, &G->block);
    strbuf_addstr(&G->block, ", along the lattice\n");
    G->nattempt = 0;
}

/* The walk is over: the literal becomes the last item accepted, or stays. */
static bool walk_finish(struct generalize *G)
{
    struct string_walk *W = &G->walk;
    uint32_t r = G->rule;
    bool ok = W->out != STOPPED;
    if (ok && W->cur != SIZE_MAX) {
        /* The accepted items no other accepted item generalizes: one
         * becomes a reference, several an alternation of references. */
        const struct lattice *l = G->o->lattice;
        struct expr **refs = xcalloc(l->nitems, sizeof *refs);
        size_t nrefs = 0;
        struct strbuf names = STRBUF_INIT;
        struct expr *lit = W->lit;
        for (size_t i = 0; i < l->nitems; i++) {
            if (!W->accepted[i])
                continue;
            bool top = true;
            for (size_t j = i + 1; j < l->nitems && top; j++)
                top = !(W->accepted[j] && lattice_generalizes(l, j, i));
            if (!top)
                continue;
            uint32_t target = item_rule(G, i);
            const char *name = G->g->rules[target].name;
            struct expr *ref = gb_ref(G->g, name, strlen(name), lit->pos, lit->end);
            ref->rule = r;
            ref->u.ref.target = target;
            refs[nrefs++] = ref;
            strbuf_addf(&names, "%s%s", names.len ? " | " : "", name);
        }
        struct expr *with = refs[0];
        if (nrefs > 1) {
            with = gb_alt(G->g, refs, nrefs, NULL, lit->pos, lit->end);
            with->rule = r;
        }
        free(refs);
        replace_at(G, lit->parent, r, lit, with);
        drop_duplicate_alternative(G, with);
        strbuf_addf(&G->block, "  => %s becomes %s\n", W->label.data, names.data);
        record_change(G, r, "string %s -> %s (%s)", W->label.data, names.data, W->walk.data);
        strbuf_free(&names);
        ok = rebuild(G, false);
    } else if (ok) {
        strbuf_addf(&G->block, "  => %s stays\n", W->label.data);
    }
    flush_log(G);
    strbuf_free(&W->walk);
    strbuf_free(&W->label);
    free(W->holds);
    free(W->accepted);
    free(W->occs);
    memset(W, 0, sizeof *W);
    return ok;
}

/* The items in file order (each is written below the items it
 * generalizes): an item that holds the literal is asked about when it is
 * among the most specific that hold it (none of the items it generalizes
 * does) or when it generalizes an item accepted before, so the walk goes on
 * from every accepted item, not only the first.  1: an item is being asked
 * about; 0: the walk is over; -1: it failed. */
static int walk_next(struct generalize *G)
{
    struct string_walk *W = &G->walk;
    const struct lattice *l = G->o->lattice;
    while (W->out != STOPPED && W->i < l->nitems) {
        size_t i = W->i++;
        if (!W->holds[i])
            continue;
        bool minimal = true, above = false;
        for (size_t b = 0; b < l->items[i].nbelow; b++) {
            minimal = minimal && !W->holds[l->items[i].below[b]];
            above = above || W->accepted[l->items[i].below[b]];
        }
        if (minimal || above) {
            start_item(G, i);
            return 1;
        }
    }
    return walk_finish(G) ? 0 : -1;
}

static void walk_conclude(struct generalize *G, enum outcome out)
{
    struct string_walk *W = &G->walk;
    W->out = out;
    if (out == STOPPED)
        return;
    const char *name = G->o->lattice->items[W->item].name;
    const char *said = out == ACCEPTED ? "accepted" : out == REJECTED ? "rejected" : "undecided";
    strbuf_addf(&W->walk, "%s%s %s", W->walk.len ? ", " : "", name, said);
    if (out == ACCEPTED) {
        W->accepted[W->item] = true;
        W->cur = W->item;
    }
}

/* The next literal of the rule to walk.  1: asking; 0: no more; -1: failed. */
static int strings_next(struct generalize *G)
{
    for (;;) {
        if (G->walk.active) {
            int st = walk_next(G);
            if (st)
                return st;
            continue;
        }
        if (!G->lits) {
            G->lits = rule_elements(G->g, G->rule, EXPR_LIT, &G->nlits);
            G->next_lit = 0;
        }
        if (G->next_lit >= G->nlits) {
            free(G->lits);
            G->lits = NULL;
            return 0;
        }
        struct expr *lit = G->lits[G->next_lit++];
        if (lit->u.lit.len)
            walk_start(G, lit);
    }
}

/* ---- 2. repetitions -------------------------------------------------------------- */

/* Text spans [from, to) of a sample, with the instance that derived them
 * and what to put in their place (nothing: omitted). */
struct span {
    size_t from, to;
    uint32_t inst;
    const char *with;
    size_t with_len;
};

/* The inputs of an omission, per occurrence: the part left out alone (A),
 * with the rule's other optional parts left out too (B), A and B with the
 * rule's lattice items given another of their examples (C, D), and the
 * sample with those items only (E: when the program rejects it, C and D
 * say nothing of the omission). */
enum omission_kind { OMIT_ALONE, OMIT_WITH, OMIT_ALONE_ITEMS, OMIT_WITH_ITEMS, OMIT_ITEMS_ONLY };
/* A try_kind byte: the kind in its low 3 bits, above them the example
 * group: the inputs of group w give the lattice items around the omission
 * their w-th example other than their own text (group 0 is the first). */
#define KIND_BITS 3
#define KIND_OF(b) ((b) & ((1u << KIND_BITS) - 1))
#define GROUP_OF(b) ((b) >> KIND_BITS)
#define KIND_IN(kind, group) ((unsigned char)((kind) | ((group) << KIND_BITS)))
#define MAX_EXAMPLE_GROUPS 8

static int compare_span(const void *a, const void *b)
{
    size_t x = ((const struct span *)a)->from, y = ((const struct span *)b)->from;
    return x < y ? -1 : x > y;
}

/* Sample s with edits[0..n) made (disjoint; sorted here). */
static void apply_edits(const struct generalize_sample *s, struct span *edits, size_t n,
                        struct strbuf *out)
{
    qsort(edits, n, sizeof *edits, compare_span);
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        strbuf_add(out, s->text + at, edits[k].from - at);
        strbuf_add(out, edits[k].with, edits[k].with_len);
        at = edits[k].to;
    }
    strbuf_add(out, s->text + at, s->len - at);
}

static struct span *other_optional(struct generalize *G, uint32_t r, size_t s, uint32_t inst,
                                   size_t from, size_t to, size_t *n, struct span **subs,
                                   size_t *nsubs, size_t group);

/* The answers of the attempt's inputs by kind (G->try_kind).  *alone: every
 * edit by itself accepted (also with the lattice items given other
 * examples, where the program accepts those items so: per example group);
 * *with: every combination with the rule's other optional parts.  Frees
 * try_kind. */
static void verdict_peek(const struct generalize *G, bool *alone, bool *with)
{
    bool items[MAX_EXAMPLE_GROUPS];
    for (size_t w = 0; w < MAX_EXAMPLE_GROUPS; w++)
        items[w] = true;
    *alone = *with = true;
    for (size_t k = 0; k < G->nattempt && k < G->try_ninputs; k++)
        if (KIND_OF(G->try_kind[k]) == OMIT_ITEMS_ONLY)
            items[GROUP_OF(G->try_kind[k])] &= G->attempt[k].answer == MEMBERSHIP_YES;
    for (size_t k = 0; k < G->nattempt && k < G->try_ninputs; k++) {
        bool yes = G->attempt[k].answer == MEMBERSHIP_YES;
        size_t w = GROUP_OF(G->try_kind[k]);
        switch ((enum omission_kind)KIND_OF(G->try_kind[k])) {
        case OMIT_ALONE: *alone = *alone && yes; break;
        case OMIT_WITH: *with = *with && yes; break;
        case OMIT_ALONE_ITEMS: *alone = *alone && (yes || !items[w]); break;
        case OMIT_WITH_ITEMS: *with = *with && (yes || !items[w]); break;
        case OMIT_ITEMS_ONLY: break;
        }
    }
}

static void verdict_of(struct generalize *G, bool *alone, bool *with)
{
    verdict_peek(G, alone, with);
    free(G->try_kind);
    G->try_kind = NULL;
    G->try_ninputs = 0;
}


/* Are items [a, a+L) and [b, b+L) of cat the same? */
static bool same_group(const struct expr *cat, uint32_t a, uint32_t b, uint32_t L)
{
    for (uint32_t i = 0; i < L; i++)
        if (!expr_equal(cat->children[a + i], cat->children[b + i]))
            return false;
    return true;
}

/* Ask about the group [i, i+L) of cat, which occurs k times in a row, 1 to
 * GENERALIZE_MAX_REPETITIONS times; false (not a repetition, nothing
 * asked) when the sequence derived nothing in the samples. */
static bool start_repetition(struct generalize *G, struct expr *cat, uint32_t i, uint32_t L,
                             uint32_t k)
{
    size_t nocc;
    struct occ *occs = occurrences(G, cat, &nocc);
    if (!nocc) {
        free(occs);
        return false;
    }
    struct strbuf what = STRBUF_INIT;
    for (uint32_t c = 0; c < L; c++) {
        if (c)
            strbuf_addch(&what, ' ');
        grammar_write_expr(G->g, cat->children[i + c], &what);
    }
    cut_description(&what);
    strbuf_addf(&G->block, "%s: repetition of %s", G->g->rules[G->rule].name, what.data);
    add_where(G, cat->children[i], &G->block);
    strbuf_addf(&G->block, ", %u times in the sample%s; try 1 to %d\n", k,
                G->nsamples == 1 ? "" : "s", GENERALIZE_MAX_REPETITIONS);
    strbuf_free(&what);
    G->nattempt = 0;
    /* each input also with the rule's lattice items holding other examples
     * (and the sample with those alone): "/"+ after a scheme widened to
     * lower holds for http, not for every scheme */
    size_t n = nocc * (2 * GENERALIZE_MAX_REPETITIONS + 1);
    struct strbuf *inputs = xcalloc(n, sizeof *inputs);
    unsigned char *kind = xcalloc(n, sizeof *kind);
    size_t m = 0;
    for (size_t o = 0; o < nocc; o++) {
        const struct generalize_sample *s = &G->samples[occs[o].sample];
        const struct sample_tree *t = &G->trees[occs[o].sample];
        const uint32_t *kids = derivation_children(&t->tree, occs[o].inst);
        size_t from = t->start[kids[i]], to = t->end[kids[i + k * L - 1]], base = m;
        for (uint32_t times = 1; times <= GENERALIZE_MAX_REPETITIONS; times++) {
            struct strbuf *in = &inputs[m++];
            strbuf_add(in, s->text, from);
            for (uint32_t x = 0; x < times; x++) {
                uint32_t first = i + (x % k) * L;
                size_t a = t->start[kids[first]], b = t->end[kids[first + L - 1]];
                strbuf_add(in, s->text + a, b - a);
            }
            strbuf_add(in, s->text + to, s->len - to);
            kind[m - 1] = OMIT_ALONE;
        }
        size_t nspan, nsubs;
        struct span *subs;
        struct span *spans = other_optional(G, cat->rule, occs[o].sample, occs[o].inst, from, to,
                                            &nspan, &subs, &nsubs, 0);
        if (nsubs) {
            struct span *edits = xcalloc(nsubs + 1, sizeof *edits);
            memcpy(edits, subs, nsubs * sizeof *edits);
            apply_edits(s, edits, nsubs, &inputs[m]);
            kind[m++] = OMIT_ITEMS_ONLY;
            for (uint32_t times = 1; times <= GENERALIZE_MAX_REPETITIONS; times++) {
                /* the input just as above, in place of the run */
                const struct strbuf *plain = &inputs[base + times - 1];
                size_t with_len = plain->len - (s->len - (to - from));
                memcpy(edits, subs, nsubs * sizeof *edits);
                edits[nsubs] = (struct span){from, to, 0, plain->data + from, with_len};
                apply_edits(s, edits, nsubs + 1, &inputs[m]);
                kind[m++] = OMIT_ALONE_ITEMS;
            }
            free(edits);
        }
        free(spans);
        free(subs);
    }
    free(occs);
    free(G->try_kind);
    G->try_kind = kind;
    G->try_ninputs = m;
    n = m;
    G->try_seq = cat;
    G->try_at = i;
    G->try_len = L;
    G->try_times = k;
    start_attempt(G, PENDING_REPETITION, inputs, n);
    return true;
}

static bool conclude_repetition(struct generalize *G, enum outcome out)
{
    uint32_t r = G->rule, i = G->try_at, L = G->try_len, k = G->try_times;
    struct expr *cat = G->try_seq;
    bool alone, with;
    verdict_of(G, &alone, &with);
    bool taken = out != STOPPED && alone;
    if (taken) {
        struct expr *group = group_of(G, cat->children + i, L, r);
        struct expr *q = new_quant(G, group, 1, QUANT_INFINITE, r);
        splice(G, cat, i, i + k * L, q);
        struct strbuf now = STRBUF_INIT;
        grammar_write_expr(G->g, q, &now);
        strbuf_addf(&G->block, "  => %s\n", now.data);
        record_change(G, r, "repetition %s (1 to %d times)", now.data,
                      GENERALIZE_MAX_REPETITIONS);
        strbuf_free(&now);
    } else if (out == REJECTED || out == UNDECIDED) {
        strbuf_addf(&G->block, "  => not a repetition\n");
    }
    flush_log(G);
    return taken;
}

/* The next run of equal groups in a sequence of the rule, shortest groups
 * first; after a change the rule is searched again from its start.  1:
 * asking; 0: no more. */
static int repetitions_next(struct generalize *G)
{
    if (!G->cats) {
        G->cats = rule_elements(G->g, G->rule, EXPR_CAT, &G->ncats);
        G->cat = 0;
        G->rep_len = 1;
        G->rep_at = 0;
    }
    while (G->cat < G->ncats) {
        struct expr *cat = G->cats[G->cat];
        uint32_t n = cat->nchildren, L = G->rep_len, i = G->rep_at;
        if (L > n / 2) {
            G->cat++;
            G->rep_len = 1;
            G->rep_at = 0;
            continue;
        }
        if (i + 2 * L > n) {
            G->rep_len++;
            G->rep_at = 0;
            continue;
        }
        uint32_t k = 1;
        while (i + (k + 1) * L <= n && same_group(cat, i, i + k * L, L))
            k++;
        if (k < 2 || was_tried(G, TRY_REPETITION, cat->children[i], NULL, L)) {
            G->rep_at++;
            continue;
        }
        /* rejected (or nothing to ask): not the same run again, shorter */
        G->rep_at = i + k * L;
        /* a run followed by the start of its group once more, x (s x)^k
         * read as (x s)^k x, repeats from where the items after it fit:
         * x (s x)+, a label ("." label)+ as a person writes it */
        uint32_t p = 0;
        while (p + 1 < L && i + k * L + p < n &&
               expr_equal(cat->children[i + k * L + p], cat->children[i + p]))
            p++;
        if (p && was_tried(G, TRY_REPETITION, cat->children[i + p], NULL, L))
            p = 0;
        if (start_repetition(G, cat, i + p, L, k))
            return 1;
    }
    free(G->cats);
    G->cats = NULL;
    return 0;
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

static bool word_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Would taking bytes [from, to) out of the sample join two words into one
 * (the text taken out has no letter or digit, and letters or digits touch
 * on both sides)?  Then a yes says nothing of the omission. */
static bool fuses_words(const struct generalize_sample *s, size_t from, size_t to)
{
    if (from == 0 || to >= s->len || !word_byte(s->text[from - 1]) || !word_byte(s->text[to]))
        return false;
    for (size_t i = from; i < to; i++)
        if (word_byte(s->text[i]))
            return false;
    return true;
}

#define NO_SIBLING UINT32_MAX

/* The rule's other optional parts where instance `inst` (in sample s's
 * tree) is: the outermost instances of elements that may be left out (x?,
 * x*) within the same occurrence of the rule's right-hand side (not inside
 * other rules), that derived text outside [from, to) and whose omission
 * alone joins no two words.  A malloc'd array of *n, in text order.
 * *subs: the lattice items' texts there outside [from, to), each with its
 * group-th example (from 0) other than that text, where it has one. */
static struct span *other_optional(struct generalize *G, uint32_t r, size_t s, uint32_t inst,
                                   size_t from, size_t to, size_t *n, struct span **subs,
                                   size_t *nsubs, size_t group)
{
    size_t subs_cap = 0;
    *subs = NULL;
    *nsubs = 0;
    const struct sample_tree *t = &G->trees[s];
    const struct derivation *d = &t->tree;
    const struct expr *rhs = G->g->rules[r].rhs;
    uint32_t top = inst;
    while (top != DTREE_NONE && G->graph->nodes[d->insts[top].node].expr != rhs)
        top = d->insts[top].parent;
    *n = 0;
    if (top == DTREE_NONE)
        return NULL;
    struct span *found = NULL;
    size_t nfound = 0, found_cap = 0, depth = 0, cap = 0;
    uint32_t *stack = xgrow(NULL, &cap, 1, sizeof *stack);
    stack[depth++] = top;
    while (depth) {
        uint32_t k = stack[--depth];
        size_t a = t->start[k], b = t->end[k];
        if (a == b || (a >= from && b <= to))
            continue; /* nothing to omit, or omitted anyway */
        const struct graph_node *node = &G->graph->nodes[d->insts[k].node];
        if (k != top && node->kind == NODE_REF) {
            /* a lattice item's text: another of its examples in its place */
            const struct lattice *l = G->o->lattice;
            for (size_t i = 0; l && i < l->nitems; i++) {
                if (G->item_rule[i] != node->expr->u.ref.target || (a < to && b > from))
                    continue;
                const struct lattice_item *it = &l->items[i];
                for (size_t x = 0, other = 0; x < it->nexamples; x++) {
                    const struct expr *ex = it->examples[x];
                    if (ex->u.lit.len == b - a &&
                        memcmp(ex->u.lit.text, G->samples[s].text + a, b - a) == 0)
                        continue;
                    if (other++ < group)
                        continue;
                    *subs = xgrow(*subs, &subs_cap, *nsubs + 1, sizeof **subs);
                    (*subs)[(*nsubs)++] = (struct span){a, b, k, ex->u.lit.text, ex->u.lit.len};
                    break;
                }
                break;
            }
            continue;
        }
        if (k != top && (b <= from || a >= to) && node->kind == NODE_QUANT &&
            node->expr->u.quant.min == 0) {
            if (!fuses_words(&G->samples[s], a, b)) {
                found = xgrow(found, &found_cap, nfound + 1, sizeof *found);
                found[nfound++] = (struct span){a, b, k, "", 0};
            }
            continue;
        }
        const uint32_t *kids = derivation_children(d, k);
        stack = xgrow(stack, &cap, depth + d->insts[k].nchildren, sizeof *stack);
        for (uint32_t c = d->insts[k].nchildren; c-- > 0;)
            stack[depth++] = kids[c];
    }
    free(stack);
    *n = nfound;
    return found;
}

/* Ask about the samples without items [i, j) of seq; false (not optional,
 * nothing asked) when they derived no text anywhere.  Where the rule has
 * other optional parts, the omission is also asked together with all of
 * them left out (the combination the grammar would otherwise allow
 * without anyone asking). */
static bool start_optional(struct generalize *G, struct expr *seq, uint32_t i, uint32_t j)
{
    bool is_cat = seq->kind == EXPR_CAT;
    size_t nocc;
    struct occ *occs = occurrences(G, seq, &nocc);
    struct strbuf *inputs = xcalloc(5 * nocc + 6, sizeof *inputs);
    unsigned char *kind = xcalloc(5 * nocc + 6, sizeof *kind);
    size_t n = 0, nmore = 0, more_cap = 3 * MAX_EXAMPLE_GROUPS * nocc + 1;
    struct strbuf *more = xcalloc(more_cap, sizeof *more);
    unsigned char *more_kind = xcalloc(more_cap, sizeof *more_kind);
    uint32_t sibling = NO_SIBLING - 1; /* none seen yet */
    for (size_t o = 0; o < nocc; o++) {
        const struct sample_tree *t = &G->trees[occs[o].sample];
        size_t from = t->start[occs[o].inst], to = t->end[occs[o].inst];
        const uint32_t *kids = derivation_children(&t->tree, occs[o].inst);
        if (is_cat) {
            from = t->start[kids[i]];
            to = t->end[kids[j - 1]];
        }
        if (from == to)
            continue; /* nothing to omit here: no evidence either way */
        if (fuses_words(&G->samples[occs[o].sample], from, to))
            continue; /* "1+2" without "+" is one number, not two: no evidence */
        edited_sample(&G->samples[occs[o].sample], from, to, "", 0, &inputs[n++]);
        size_t nspan, nsubs;
        struct span *subs;
        struct span *spans = other_optional(G, seq->rule, occs[o].sample, occs[o].inst, from,
                                            to, &nspan, &subs, &nsubs, 0);
        const struct generalize_sample *smp = &G->samples[occs[o].sample];
        struct span *edits = xcalloc(nspan + 1, sizeof *edits);
        edits[0] = (struct span){from, to, 0, "", 0};
        if (nspan) {
            uint32_t c = NO_SIBLING;
            if (is_cat && nspan == 1 && t->tree.insts[spans[0].inst].parent == occs[o].inst)
                for (uint32_t k = 0; k < seq->nchildren; k++)
                    if (kids[k] == spans[0].inst)
                        c = k;
            sibling = sibling == NO_SIBLING - 1 || sibling == c ? c : NO_SIBLING;
            memcpy(edits + 1, spans, nspan * sizeof *edits);
            apply_edits(smp, edits, 1 + nspan, &inputs[n]);
            kind[n++] = OMIT_WITH;
        }
        /* the items given other examples, each of them in turn (a part
         * that may go before a path may not go before every text the path
         * holds): alone, then with the omissions */
        for (size_t w = 0; nsubs && w < MAX_EXAMPLE_GROUPS; w++) {
            struct strbuf *to_in = inputs;
            unsigned char *to_kind = kind;
            size_t *to_n = &n;
            if (w) {
                to_in = more;
                to_kind = more_kind;
                to_n = &nmore;
                size_t ignored;
                free(subs);
                free(other_optional(G, seq->rule, occs[o].sample, occs[o].inst, from, to,
                                    &ignored, &subs, &nsubs, w));
                if (!nsubs)
                    break;
            }
            free(edits);
            edits = xcalloc(nspan + nsubs + 1, sizeof *edits);
            memcpy(edits, subs, nsubs * sizeof *edits);
            apply_edits(smp, edits, nsubs, &to_in[*to_n]);
            to_kind[(*to_n)++] = KIND_IN(OMIT_ITEMS_ONLY, w);
            edits[0] = (struct span){from, to, 0, "", 0};
            memcpy(edits + 1, subs, nsubs * sizeof *edits);
            apply_edits(smp, edits, 1 + nsubs, &to_in[*to_n]);
            to_kind[(*to_n)++] = KIND_IN(OMIT_ALONE_ITEMS, w);
            if (nspan) {
                memcpy(edits + 1 + nsubs, spans, nspan * sizeof *edits);
                apply_edits(smp, edits, 1 + nsubs + nspan, &to_in[*to_n]);
                to_kind[(*to_n)++] = KIND_IN(OMIT_WITH_ITEMS, w);
            }
        }
        free(edits);
        free(spans);
        free(subs);
    }
    free(occs);
    G->try_sibling = sibling == NO_SIBLING - 1 ? NO_SIBLING : sibling;
    /* A whole alternative omitted makes the rule derive nothing: asked
     * where the rule's other alternatives derived text too (a value that
     * may be empty after a path may not be empty as a scheme). */
    const struct expr *rhs = G->g->rules[seq->rule].rhs;
    bool whole = (!is_cat || (i == 0 && j == seq->nchildren)) &&
                 (seq == rhs || (seq->parent == rhs && rhs->kind == EXPR_ALT));
    if (n && whole) {
        size_t nrule;
        struct occ *ro = occurrences(G, rhs, &nrule);
        for (size_t o = 0, extra = 0; o < nrule && extra < 5; o++) {
            const struct sample_tree *t = &G->trees[ro[o].sample];
            size_t from = t->start[ro[o].inst], to = t->end[ro[o].inst];
            if (from == to || fuses_words(&G->samples[ro[o].sample], from, to))
                continue;
            inputs[n] = (struct strbuf)STRBUF_INIT;
            edited_sample(&G->samples[ro[o].sample], from, to, "", 0, &inputs[n]);
            bool again = false;
            for (size_t k = 0; k < n && !again; k++)
                again = inputs[k].len == inputs[n].len &&
                        memcmp(inputs[k].data, inputs[n].data, inputs[n].len) == 0;
            if (again) {
                strbuf_free(&inputs[n]);
                continue;
            }
            kind[n] = OMIT_ALONE;
            n++;
            extra++;
        }
        free(ro);
    }
    if (!n) {
        free_inputs(inputs, n);
        free(kind);
        free_inputs(more, nmore);
        free(more_kind);
        return false;
    }
    free_inputs(G->more_inputs, G->nmore);
    free(G->more_kind);
    G->more_inputs = more;
    G->more_kind = more_kind;
    G->nmore = nmore;
    G->first_out = ACCEPTED;
    struct strbuf what = STRBUF_INIT;
    for (uint32_t c = i; c < j; c++) {
        const struct expr *e = is_cat ? seq->children[c] : seq;
        bool paren = is_cat && e->kind == EXPR_ALT;
        strbuf_addstr(&what, c > i ? " " : "");
        strbuf_addstr(&what, paren ? "(" : "");
        grammar_write_expr(G->g, e, &what);
        strbuf_addstr(&what, paren ? ")" : "");
    }
    cut_description(&what);
    strbuf_addf(&G->block, "%s: omit %s", G->g->rules[G->rule].name, what.data);
    add_where(G, is_cat ? seq->children[i] : seq, &G->block);
    strbuf_addch(&G->block, '\n');
    strbuf_free(&what);
    G->nattempt = 0;
    G->try_seq = seq;
    G->try_at = i;
    G->try_len = j - i;
    free(G->try_kind);
    G->try_kind = kind;
    G->try_ninputs = n;
    start_attempt(G, PENDING_OPTIONAL, inputs, n);
    return true;
}

/* Items [i, j) of seq may be left out, and so may the optional item c of
 * the same sequence, but not both: the items from the first to the last of
 * them become (... c ... (i..j)? ...) | (... (i..j) ...), what was asked. */
static struct expr *either_optional(struct generalize *G, struct expr *seq, uint32_t i, uint32_t j,
                                    uint32_t c)
{
    uint32_t r = G->rule, lo = c < i ? c : i, hi = c + 1 > j ? c + 1 : j;
    struct expr **with = xcalloc(hi - lo, sizeof *with), **without = xcalloc(hi - lo, sizeof *with);
    size_t nwith = 0, nwithout = 0;
    for (uint32_t k = lo; k < hi; k++)
        if (k != c)
            without[nwithout++] = copy_expr(G->g, seq->children[k], r);
    for (uint32_t k = lo; k < hi; k++) {
        struct expr *e = seq->children[k];
        if (k == c) {
            if (e->u.quant.max == 1) {
                with[nwith++] = e->children[0];
            } else {
                e->u.quant.min = 1;
                with[nwith++] = e;
            }
        } else if (k == i) {
            struct expr *group = group_of(G, seq->children + i, j - i, r);
            if (group->kind == EXPR_QUANT && group->u.quant.min == 1)
                group->u.quant.min = 0;
            else
                group = new_quant(G, group, 0, 1, r);
            with[nwith++] = group;
        } else if (k < i || k >= j) {
            with[nwith++] = e;
        }
    }
    struct expr *alts[2] = {group_of(G, with, nwith, r), group_of(G, without, nwithout, r)};
    struct expr *alt = gb_alt(G->g, alts, 2, NULL, alts[0]->pos, alts[0]->end);
    alt->rule = r;
    free(with);
    free(without);
    splice(G, seq, lo, hi, alt);
    return alt;
}

/* True when the grammar changed. */
static bool conclude_optional(struct generalize *G, enum outcome out)
{
    uint32_t r = G->rule, i = G->try_at, j = G->try_at + G->try_len;
    struct expr *seq = G->try_seq;
    bool is_cat = seq->kind == EXPR_CAT, changed = false;
    bool alone, with;
    if (G->nmore) {
        /* the first round said yes: now the items' other examples */
        struct strbuf *more = G->more_inputs;
        unsigned char *more_kind = G->more_kind;
        size_t nmore = G->nmore;
        G->more_inputs = NULL;
        G->more_kind = NULL;
        G->nmore = 0;
        verdict_peek(G, &alone, &with);
        if (out != STOPPED && alone && with) {
            G->try_kind = xrealloc(G->try_kind, G->try_ninputs + nmore);
            memcpy(G->try_kind + G->try_ninputs, more_kind, nmore);
            G->try_ninputs += nmore;
            free(more_kind);
            G->first_out = out;
            start_attempt(G, PENDING_OPTIONAL, more, nmore);
            return false;
        }
        free_inputs(more, nmore);
        free(more_kind);
    }
    if (out != STOPPED && G->first_out != ACCEPTED)
        out = out == REJECTED || G->first_out == REJECTED ? REJECTED : UNDECIDED;
    G->first_out = ACCEPTED;
    verdict_of(G, &alone, &with);
    if (out != STOPPED && alone && with) {
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
        record_change(G, r, "optional %s (omitted%s)", now.data,
                      out == ACCEPTED ? "" : "; the other examples of the items rejected alone");
        strbuf_free(&now);
        changed = true;
    } else if (out != STOPPED && alone && !with && G->try_sibling != NO_SIBLING && is_cat &&
               G->try_sibling < seq->nchildren &&
               (G->try_sibling < i || G->try_sibling >= j)) {
        struct strbuf other = STRBUF_INIT, now = STRBUF_INIT;
        grammar_write_expr(G->g, seq->children[G->try_sibling], &other);
        cut_description(&other);
        struct expr *alt = either_optional(G, seq, i, j, G->try_sibling);
        strbuf_addch(&now, '(');
        grammar_write_expr(G->g, alt, &now);
        strbuf_addch(&now, ')');
        cut_description(&now);
        strbuf_addf(&G->block, "  => omitted alone yes, with %s no: %s\n", other.data,
                    now.data);
        record_change(G, r, "optional, but not with %s omitted too: %s", other.data, now.data);
        strbuf_free(&other);
        strbuf_free(&now);
        changed = true;
    } else if (out == REJECTED && !alone && with && G->try_sibling != NO_SIBLING && is_cat &&
               (G->try_sibling + 1 == i || G->try_sibling == j) &&
               !(seq->nchildren == j - i + 1 && seq->parent && nullable(seq->parent))) {
        /* Not alone, but together with the optional item next to it: the
         * two go as one ("{" (members? last)? "}": a JSON object's last
         * member without the ones before leaves a "," behind).  A
         * sequence of just the two that is optional already allows it
         * (the combination asked was not new). */
        uint32_t lo = G->try_sibling < i ? G->try_sibling : i;
        uint32_t hi = G->try_sibling == j ? j + 1 : j;
        struct strbuf other = STRBUF_INIT, now = STRBUF_INIT;
        grammar_write_expr(G->g, seq->children[G->try_sibling], &other);
        cut_description(&other);
        struct expr *q = new_quant(G, group_of(G, seq->children + lo, hi - lo, r), 0, 1, r);
        splice(G, seq, lo, hi, q);
        grammar_write_expr(G->g, q, &now);
        cut_description(&now);
        strbuf_addf(&G->block, "  => omitted alone no, with %s yes: %s\n", other.data, now.data);
        record_change(G, r, "optional together with %s: %s", other.data, now.data);
        strbuf_free(&other);
        strbuf_free(&now);
        changed = true;
    } else if (out == REJECTED || out == UNDECIDED) {
        strbuf_addstr(&G->block, alone && !with && out == REJECTED
                                     ? "  => not optional (alone yes; with the rule's other "
                                       "optional parts omitted too, no)\n"
                                     : "  => not optional\n");
    }
    flush_log(G);
    return changed;
}

/* Is [i, j) of seq a part as a person delimits one: no literal in it but
 * one at its start or end ("@" after a user, ":" before a port)?  Those are
 * asked first, so a URL's user, port and path each become optional before a
 * longer omission ("http://user", the user read as a host) swallows them. */
static bool delimited(const struct expr *seq, uint32_t i, uint32_t j)
{
    if (seq->kind != EXPR_CAT)
        return true;
    uint32_t lits = 0;
    for (uint32_t k = i; k < j; k++)
        if (seq->children[k]->kind == EXPR_LIT) {
            if (k != i && k != j - 1)
                return false;
            lits++;
        }
    return lits <= 1;
}

/* The next subsequence of a sequence of the rule to omit: longest first,
 * then leftmost (parts delimited by literals before the others); after a change the rule is searched again from its start.
 * 1: asking; 0: no more. */
static int optional_next(struct generalize *G)
{
    if (!G->elements) {
        G->elements = rule_elements(G->g, G->rule, -1, &G->nelements);
        G->element = 0;
        G->in_sequence = false;
        G->opt_pass = 0;
    }
    for (;;) {
        if (G->element >= G->nelements) {
            if (G->opt_pass == 1)
                break;
            G->opt_pass = 1; /* then every part, from the start */
            G->element = 0;
            G->in_sequence = false;
            continue;
        }
        struct expr *seq = G->elements[G->element];
        bool is_cat = seq->kind == EXPR_CAT;
        if (!G->in_sequence) {
            if (!is_sequence(seq)) {
                G->element++;
                continue;
            }
            G->opt_n = is_cat ? seq->nchildren : 1;
            /* Omitting a whole occurrence of a repeated group is one
             * repetition less, no evidence that the group is optional. */
            const struct expr *p = seq->parent;
            G->opt_len = p && p->kind == EXPR_QUANT && p->u.quant.max > 1 ? G->opt_n - 1
                                                                          : G->opt_n;
            G->opt_at = 0;
            G->in_sequence = true;
        }
        uint32_t len = G->opt_len, i = G->opt_at;
        if (len < 1) {
            G->element++;
            G->in_sequence = false;
            continue;
        }
        if (i + len > G->opt_n) {
            G->opt_len--;
            G->opt_at = 0;
            continue;
        }
        uint32_t j = i + len;
        G->opt_at++;
        struct expr *first = is_cat ? seq->children[i] : seq;
        struct expr *last = is_cat ? seq->children[j - 1] : seq;
        if (nullable(first) || nullable(last))
            continue;
        if (G->opt_pass == 0 && !delimited(seq, i, j))
            continue; /* the second pass asks it */
        if (was_tried(G, TRY_OPTIONAL, first, last, 0))
            continue;
        if (start_optional(G, seq, i, j))
            return 1;
    }
    free(G->elements);
    G->elements = NULL;
    return 0;
}

/* ---- the state machine -------------------------------------------------------- */

void generalize_options_default(struct generalize_options *o)
{
    memset(o, 0, sizeof *o);
    o->po.max_input_size = PARSE_DEFAULT_MAX_INPUT;
    o->po.max_memory = PARSE_DEFAULT_MAX_MEMORY;
    o->max_queries = GENERALIZE_DEFAULT_MAX_QUERIES;
    o->strings = o->repetitions = o->optional = true;
}

struct generalize *generalize_begin(struct grammar *g, const struct generalize_sample *samples,
                                    size_t nsamples, const struct generalize_options *o,
                                    struct generalize_result *res, struct diag_list *diags)
{
    memset(res, 0, sizeof *res);
    struct generalize *G = xcalloc(1, sizeof *G);
    *G = (struct generalize){.g = g, .samples = samples, .nsamples = nsamples, .o = o,
                             .res = res, .diags = diags, .block = STRBUF_INIT,
                             .current = STRBUF_INIT, .ok = true, .phase = PHASE_STRINGS};
    G->trees = xcalloc(nsamples ? nsamples : 1, sizeof *G->trees);
    size_t nitems = o->lattice ? o->lattice->nitems : 0;
    G->item_rule = xmalloc((nitems ? nitems : 1) * sizeof *G->item_rule);
    for (size_t i = 0; i < nitems; i++)
        G->item_rule[i] = RULE_NONE;
    G->original = g->nrules;
    note_of(G, G->original ? G->original - 1 : 0);
    if (rebuild(G, true))
        start_samples(G); /* the program must accept them first */
    else {
        G->ok = false;
        G->phase = PHASE_END;
    }
    return G;
}

/* The attempt asked about is answered (or failed): conclude it.  False when
 * the run cannot go on. */
static bool conclude(struct generalize *G)
{
    enum outcome out = REJECTED;
    if (!ask_end(G, &out))
        out = STOPPED;
    enum pending_kind kind = G->pending;
    G->pending = PENDING_NONE;
    strbuf_reset(&G->current);
    switch (kind) {
    case PENDING_SAMPLES: return conclude_samples(G, out);
    case PENDING_ITEM:
        walk_conclude(G, out);
        return true; /* walk_next finishes the walk, failed or not */
    case PENDING_REPETITION:
        if (conclude_repetition(G, out)) {
            free(G->cats); /* search the rule again */
            G->cats = NULL;
            return rebuild(G, false);
        }
        return out != STOPPED;
    case PENDING_OPTIONAL:
        if (conclude_optional(G, out)) {
            free(G->elements);
            G->elements = NULL;
            return rebuild(G, false);
        }
        return out != STOPPED;
    case PENDING_NONE: break;
    }
    return true;
}

/* Move on to the next attempt (or phase, or rule); false when it failed. */
static bool advance(struct generalize *G)
{
    const struct generalize_options *o = G->o;
    while (G->pending == PENDING_NONE && G->phase < PHASE_END) {
        if (G->rule >= G->original) {
            G->phase = PHASE_END;
            break;
        }
        int st = 0;
        if (G->phase == PHASE_STRINGS && o->strings && o->lattice)
            st = strings_next(G);
        else if (G->phase == PHASE_REPETITIONS && o->repetitions)
            st = repetitions_next(G);
        else if (G->phase == PHASE_OPTIONAL && o->optional)
            st = optional_next(G);
        if (st < 0)
            return false;
        if (st == 0 && G->phase == PHASE_OPTIONAL) {
            G->rule++;
            G->phase = PHASE_STRINGS;
        } else if (st == 0) {
            G->phase++;
        }
    }
    return true;
}

/* After the last attempt: a run stopped at the query limit is a result. */
static void end_run(struct generalize *G)
{
    if (G->res->limit_reached) {
        strbuf_addf(&G->block, "stopped: the next attempt needs more than %zu queries in all\n",
                    G->o->max_queries);
        flush_log(G);
        diag_add(G->diags, DIAG_WARNING, NULL, 0, 0,
                 "stopped after %zu queries (--max-queries): the grammar is generalized as far "
                 "as it got", G->res->queries);
        G->ok = true;
    }
    G->phase = PHASE_DONE;
}

enum generalize_state generalize_step(struct generalize *G)
{
    if (G->ask.state == ASK_WAITING)
        return GENERALIZE_ASK;
    if (G->pending != PENDING_NONE) {
        if (!conclude(G)) {
            G->ok = false;
            G->phase = PHASE_END;
        }
    } else if (G->phase < PHASE_END) {
        if (!advance(G)) {
            G->ok = false;
            G->phase = PHASE_END;
        }
        if (G->ask.state == ASK_WAITING)
            return GENERALIZE_ASK;
    }
    if (G->pending == PENDING_NONE && G->phase == PHASE_END)
        end_run(G);
    return G->phase == PHASE_DONE ? GENERALIZE_DONE : GENERALIZE_MORE;
}

size_t generalize_questions(struct generalize *G, const char *const **texts, const size_t **lens,
                            enum membership_answer **answers)
{
    if (G->ask.state != ASK_WAITING)
        return 0;
    *texts = G->ask.texts;
    *lens = G->ask.lens;
    *answers = G->ask.answers;
    return G->ask.nfresh;
}

void generalize_answered(struct generalize *G, bool ok)
{
    if (G->ask.state == ASK_WAITING)
        G->ask.state = ok ? ASK_ANSWERED : ASK_FAILED;
}

void generalize_progress(const struct generalize *G, struct generalize_progress *p)
{
    p->queries = G->res->queries;
    p->asking = G->ask.state == ASK_WAITING ? G->ask.nfresh : 0;
    bool on_rules = G->pending != PENDING_SAMPLES && G->rule < G->original;
    p->rule = on_rules ? G->g->rules[G->rule].name : NULL;
    p->rule_index = G->rule;
    p->rules = G->original;
    p->attempt = G->current.len ? G->current.data : NULL;
}

bool generalize_finish(struct generalize *G)
{
    if (!G)
        return false;
    bool ok = G->ok && G->phase == PHASE_DONE;
    if (G->pending != PENDING_NONE) {
        G->ask.state = ASK_FAILED; /* given up: its inputs were never answered */
        enum outcome ignored;
        ask_end(G, &ignored);
    }
    if (G->walk.active) {
        strbuf_free(&G->walk.walk);
        strbuf_free(&G->walk.label);
        free(G->walk.holds);
        free(G->walk.accepted);
        free(G->walk.occs);
    }
    free(G->lits);
    free(G->cats);
    free(G->elements);
    free(G->try_kind);
    free_inputs(G->more_inputs, G->nmore);
    free(G->more_kind);
    note_of(G, G->g->nrules ? G->g->nrules - 1 : 0);
    for (size_t i = 0; i < G->nsamples; i++)
        tree_free(&G->trees[i]);
    free(G->trees);
    graph_free(G->graph);
    struct query *q, *tmp;
    HASH_ITER(hh, G->cache, q, tmp) {
        HASH_DEL(G->cache, q);
        free(q);
    }
    strbuf_free(&G->block);
    strbuf_free(&G->current);
    free(G->item_rule);
    free(G->tried);
    free(G->attempt);
    free(G);
    return ok;
}

bool generalize_run(struct grammar *g, const struct generalize_sample *samples, size_t nsamples,
                    const struct generalize_options *o, struct generalize_result *res,
                    struct diag_list *diags)
{
    struct generalize *G = generalize_begin(g, samples, nsamples, o, res, diags);
    enum generalize_state st;
    while ((st = generalize_step(G)) != GENERALIZE_DONE) {
        if (st != GENERALIZE_ASK)
            continue;
        const char *const *texts = NULL;
        const size_t *lens = NULL;
        enum membership_answer *answers = NULL;
        size_t n = generalize_questions(G, &texts, &lens, &answers);
        generalize_answered(G, o->ask(o->ask_ctx, texts, lens, n, answers, diags));
    }
    return generalize_finish(G);
}

void generalize_result_free(struct generalize_result *res)
{
    for (uint32_t i = 0; i < res->nnotes; i++)
        strbuf_free(&res->notes[i]);
    free(res->notes);
    memset(res, 0, sizeof *res);
}
