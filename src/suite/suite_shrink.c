#include "suite/suite_shrink.h"

#include <stdlib.h>
#include <string.h>

#include "graph/derivation.h"
#include "graph/written.h"
#include "suite/tree_edit.h"
#include "grammar/grammar.h"
#include "base/saturate.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

struct shrinker {
    const struct generator *gen;
    const struct graph *g;
    const struct size_table *sizes; /* borrowed; may be NULL */
    uint32_t *holders;              /* per rank: inputs of the suite holding it */
    uint64_t budget;
    struct suite_shrink_stats *stats;
    struct tree_editor ed;          /* the edits (tree_edit.h) and the measured tree */
    uint64_t *ranks;                /* the trial tree's ranks, reused */
    size_t ranks_cap;
};

/* The holder counts and the scratch a shrinker owns. */
static void shrinker_free(struct shrinker *s)
{
    free(s->holders);
    free(s->ranks);
    tree_editor_free(&s->ed);
}

static bool spent(const struct shrinker *s)
{
    return s->stats->work >= s->budget;
}

/* The current input of one shrink: its tree, text length, tree nodes and
 * ranks (ascending, distinct). */
struct current {
    struct derivation tree;
    size_t len;
    uint64_t *ranks;
    size_t nranks, cap;
};

static size_t text_len(const struct derivation *t)
{
    struct strbuf sb = STRBUF_INIT;
    derivation_text(t, &sb);
    size_t n = sb.len;
    strbuf_free(&sb);
    return n;
}

/* Try one edit on cur; keep it (true) when the tree gets smaller, fits the
 * limits and the suite keeps every k-path. */
/* For an ANTLR grammar: does its lexer read t's written text back as t's
 * tokens (graph/written.h)?  The generator made its trees so (gen/mend.h);
 * an edit must not undo that (a blank between two names dropped). */
static bool reads_back(const struct derivation *t)
{
    if (!graph_written_lexer(t->graph, NULL))
        return true;
    struct strbuf text = STRBUF_INIT;
    bool ok = derivation_written_text(t, &text);
    strbuf_free(&text);
    return ok;
}

static bool try_edit(struct shrinker *s, struct current *cur, const struct tree_edit *ed)
{
    const struct generator *gen = s->gen;
    s->stats->trials++;
    struct derivation out;
    bool ok = tree_edit_apply(&s->ed, &cur->tree, ed, &out);
    s->stats->work = sat_add(s->stats->work, sat_mul(out.len, gen->opts.k + 1));
    size_t len = ok ? text_len(&out) : 0;
    ok = ok && (len < cur->len || (len == cur->len && out.len < cur->tree.len)) &&
         (out.len <= gen->opts.max_size || out.len <= cur->tree.len) &&
         derivation_depth(&out) <= gen->opts.max_depth;
    size_t n = 0;
    if (ok) {
        n = gen_tree_ranks(gen, &out, false, &s->ranks, &s->ranks_cap);
        /* Every rank cur holds and out does not must have another holder. */
        for (size_t a = 0, b = 0; ok && a < cur->nranks; a++) {
            while (b < n && s->ranks[b] < cur->ranks[a])
                b++;
            if ((b == n || s->ranks[b] != cur->ranks[a]) && s->holders[cur->ranks[a]] < 2)
                ok = false;
        }
        ok = ok && reads_back(&out);
    }
    if (!ok) {
        derivation_free(&out);
        return false;
    }
    for (size_t a = 0; a < cur->nranks; a++)
        s->holders[cur->ranks[a]]--;
    for (size_t b = 0; b < n; b++)
        s->holders[s->ranks[b]]++;
    cur->ranks = xgrow(cur->ranks, &cur->cap, n + 1, sizeof *cur->ranks);
    memcpy(cur->ranks, s->ranks, n * sizeof *cur->ranks);
    cur->nranks = n;
    derivation_free(&cur->tree);
    cur->tree = out;
    cur->len = len;
    s->stats->kept++;
    return true;
}

/* Try the edits at pre-order position p of cur's tree (measured).  Returns
 * the position to go on from: past the subtree after a kept smallest edit,
 * p again after another kept edit, p + 1 when nothing was kept. */
static size_t edits_at(struct shrinker *s, struct current *cur, size_t p)
{
    const struct graph *g = s->g;
    const struct derivation *t = &cur->tree;
    uint32_t e = s->ed.preorder[p];
    uint32_t n = t->insts[e].node;
    uint32_t d = s->gen->opts.max_depth - s->ed.refs_above[e];
    if (s->sizes && s->ed.weight[e] > tree_edit_smallest_weight(&s->ed, n, d)) {
        struct tree_edit ed = {TREE_EDIT_SMALLEST, e, 0, 1, NULL};
        if (try_edit(s, cur, &ed)) {
            tree_edit_measure(&s->ed, &cur->tree);
            return p + s->ed.subtree[s->ed.preorder[p]];
        }
    }
    uint32_t hoists = 0;
    for (size_t q = p + 1; q < p + s->ed.subtree[e] && hoists < SUITE_SHRINK_MAX_HOISTS && !spent(s);
         q++) {
        uint32_t h = s->ed.preorder[q];
        if (t->insts[h].node != n)
            continue;
        hoists++;
        struct tree_edit ed = {TREE_EDIT_HOIST, e, h, 1, NULL};
        if (try_edit(s, cur, &ed)) {
            tree_edit_measure(&s->ed, &cur->tree);
            return p;
        }
    }
    const struct graph_node *node = &g->nodes[n];
    if (node->kind == NODE_QUANT) {
        for (uint32_t c = t->insts[e].nchildren; c-- > 0 && !spent(s);) {
            if (t->insts[e].nchildren <= node->expr->u.quant.min)
                break;
            struct tree_edit ed = {TREE_EDIT_DROP, e, c, 1, NULL};
            if (try_edit(s, cur, &ed)) {
                tree_edit_measure(&s->ed, &cur->tree);
                return p;
            }
        }
    }
    return p + 1;
}

/* Write cur back into the input it came from. */
static void store(struct current *cur, struct gen_input *in)
{
    derivation_packed_free(&in->tree);
    derivation_pack(&cur->tree, &in->tree);
    struct strbuf text = STRBUF_INIT;
    derivation_written_text(&cur->tree, &text);
    free(in->text);
    in->text = strbuf_detach(&text, &in->len);
    in->depth = derivation_depth(&cur->tree);
    in->derivation_depth = gen_derivation_depth(&cur->tree);
}

/* Longest first, then suite order. */
struct by_length {
    size_t len, index;
};

static int longer_first(const void *a, const void *b)
{
    const struct by_length *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void suite_shrink(const struct generator *gen, const struct size_table *sizes,
                  struct gen_input *inputs, size_t n, uint64_t budget,
                  struct suite_shrink_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    if (!n || gen->space.saturated)
        return;
    struct shrinker s = {.gen = gen, .g = gen->graph, .sizes = sizes, .budget = budget,
                         .stats = stats};
    tree_editor_init(&s.ed, gen->graph, sizes, gen->opts.max_depth);
    /* The suite keeps the characters greedy varied (gen.c, varied_class_char). */
    s.ed.keep_classes = true;
    s.holders = xcalloc((size_t)gen->space.total + 1, sizeof *s.holders);
    for (size_t i = 0; i < n; i++) {
        struct derivation t;
        derivation_unpack(&inputs[i].tree, gen->graph, &t);
        size_t m = gen_tree_ranks(gen, &t, false, &s.ranks, &s.ranks_cap);
        for (size_t j = 0; j < m; j++)
            s.holders[s.ranks[j]]++;
        derivation_free(&t);
    }
    struct by_length *order = xmalloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = (struct by_length){inputs[i].len, i};
    qsort(order, n, sizeof *order, longer_first);
    for (size_t o = 0; o < n && !spent(&s); o++) {
        struct gen_input *in = &inputs[order[o].index];
        struct current cur = {.len = in->len};
        derivation_unpack(&in->tree, gen->graph, &cur.tree);
        cur.nranks = gen_tree_ranks(gen, &cur.tree, false, &cur.ranks, &cur.cap);
        uint64_t kept = stats->kept;
        tree_edit_measure(&s.ed, &cur.tree);
        for (size_t p = 0; p < cur.tree.len && !spent(&s);)
            p = edits_at(&s, &cur, p);
        if (stats->kept != kept)
            store(&cur, in);
        derivation_free(&cur.tree);
        free(cur.ranks);
    }
    stats->budget_spent = spent(&s);
    free(order);
    shrinker_free(&s);
}

/* Add delta to the holder count of each of n ranks. */
static void holders_add(uint32_t *holders, const uint64_t *ranks, size_t n, int delta)
{
    for (size_t j = 0; j < n; j++)
        holders[ranks[j]] += (uint32_t)delta;
}

static bool all_held(const uint32_t *holders, const uint64_t *ranks, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (!holders[ranks[j]])
            return false;
    return true;
}

/* Graft donor's subtree at f into host at e (the same graph node), dropping
 * the donor: kept when the host stays within the limits and the suite
 * without the donor still holds every k-path (the holder counts say). */
static bool try_graft(struct shrinker *s, struct current *host, struct current *donor, uint32_t e,
                      uint32_t f)
{
    const struct generator *gen = s->gen;
    s->stats->trials++;
    struct tree_edit ed = {TREE_EDIT_GRAFT, e, f, 1, &donor->tree};
    struct derivation out;
    bool ok = tree_edit_apply(&s->ed, &host->tree, &ed, &out);
    s->stats->work = sat_add(s->stats->work, sat_mul(out.len + host->tree.len + donor->tree.len,
                                                     gen->opts.k + 1));
    ok = ok && out.len <= gen->opts.max_size && derivation_depth(&out) <= gen->opts.max_depth &&
         (!gen->opts.pack_size || out.len <= gen->opts.pack_size);
    if (!ok) {
        derivation_free(&out);
        return false;
    }
    size_t n = gen_tree_ranks(gen, &out, false, &s->ranks, &s->ranks_cap);
    holders_add(s->holders, donor->ranks, donor->nranks, -1);
    holders_add(s->holders, host->ranks, host->nranks, -1);
    holders_add(s->holders, s->ranks, n, 1);
    /* The read-back check runs the lexer over the whole text: last, after
     * the holder counts have ruled out most grafts. */
    if (!all_held(s->holders, donor->ranks, donor->nranks) ||
        !all_held(s->holders, host->ranks, host->nranks) || !reads_back(&out)) {
        holders_add(s->holders, s->ranks, n, -1);
        holders_add(s->holders, host->ranks, host->nranks, 1);
        holders_add(s->holders, donor->ranks, donor->nranks, 1);
        derivation_free(&out);
        return false;
    }
    host->ranks = xgrow(host->ranks, &host->cap, n + 1, sizeof *host->ranks);
    memcpy(host->ranks, s->ranks, n * sizeof *host->ranks);
    host->nranks = n;
    derivation_free(&host->tree);
    host->tree = out;
    s->stats->kept++;
    return true;
}

static void current_load(const struct generator *gen, const struct gen_input *in,
                         struct current *cur)
{
    memset(cur, 0, sizeof *cur);
    cur->len = in->len;
    derivation_unpack(&in->tree, gen->graph, &cur->tree);
    cur->nranks = gen_tree_ranks(gen, &cur->tree, false, &cur->ranks, &cur->cap);
}

static void current_free(struct current *cur)
{
    derivation_free(&cur->tree);
    free(cur->ranks);
}

/* Does the donor graft into the host somewhere (see try_graft)?  Tries the
 * donor's first SUITE_GRAFT_TOP instances in pre-order (the subtrees that
 * carry most of it) against the host's first SUITE_SHRINK_MAX_HOISTS
 * instances of the same node each. */
static bool graft_into(struct shrinker *s, struct current *host, struct current *donor,
                       const uint32_t *donor_top, size_t ntop)
{
    tree_edit_measure(&s->ed, &host->tree);
    for (size_t q = 0; q < ntop && !spent(s); q++) {
        uint32_t f = donor_top[q], nf = donor->tree.insts[f].node, tried = 0;
        for (size_t p = 0; p < host->tree.len && tried < SUITE_SHRINK_MAX_HOISTS && !spent(s);
             p++) {
            uint32_t e = s->ed.preorder[p];
            if (host->tree.insts[e].node != nf)
                continue;
            tried++;
            if (try_graft(s, host, donor, e, f))
                return true;
        }
    }
    return false;
}

void suite_graft(const struct generator *gen, struct gen_input *inputs, size_t *n,
                 uint64_t budget, struct suite_shrink_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    if (*n < 2 || gen->space.saturated)
        return;
    struct shrinker s = {.gen = gen, .g = gen->graph, .budget = budget, .stats = stats};
    tree_editor_init(&s.ed, gen->graph, NULL, gen->opts.max_depth);
    s.holders = xcalloc((size_t)gen->space.total + 1, sizeof *s.holders);
    struct current *cur = xcalloc(*n, sizeof *cur);
    for (size_t i = 0; i < *n; i++) {
        current_load(gen, &inputs[i], &cur[i]);
        holders_add(s.holders, cur[i].ranks, cur[i].nranks, 1);
        stats->work = sat_add(stats->work, sat_mul(cur[i].tree.len, gen->opts.k + 1));
    }
    bool *alive = xmalloc(*n * sizeof *alive), *changed = xcalloc(*n, sizeof *changed);
    struct by_length *order = xmalloc(*n * sizeof *order);
    for (size_t i = 0; i < *n; i++) {
        alive[i] = true;
        order[i] = (struct by_length){inputs[i].len, i};
    }
    /* Hosts longest first (order), donors shortest first (order reversed). */
    qsort(order, *n, sizeof *order, longer_first);
    uint32_t top[SUITE_GRAFT_TOP];
    for (size_t d = *n; d-- > 0 && !spent(&s);) {
        size_t y = order[d].index;
        /* The donor's first instances in pre-order. */
        tree_edit_measure(&s.ed, &cur[y].tree);
        size_t ntop = cur[y].tree.len < SUITE_GRAFT_TOP ? cur[y].tree.len : SUITE_GRAFT_TOP;
        memcpy(top, s.ed.preorder, ntop * sizeof *top);
        for (size_t h = 0; h < *n && !spent(&s); h++) {
            size_t x = order[h].index;
            if (x == y || !alive[x])
                continue;
            if (graft_into(&s, &cur[x], &cur[y], top, ntop)) {
                alive[y] = false;
                changed[x] = true;
                break;
            }
        }
    }
    stats->budget_spent = spent(&s);
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        if (!alive[i]) {
            gen_input_free(&inputs[i]);
        } else {
            if (changed[i])
                store(&cur[i], &inputs[i]);
            inputs[kept++] = inputs[i];
        }
        current_free(&cur[i]);
    }
    *n = kept;
    free(cur);
    free(alive);
    free(changed);
    free(order);
    shrinker_free(&s);
}
