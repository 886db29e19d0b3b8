#include "suite/suite_shrink.h"

#include <stdlib.h>
#include <string.h>

#include "graph/derivation.h"
#include "grammar/grammar.h"
#include "base/saturate.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

enum edit_kind { EDIT_SMALLEST, EDIT_HOIST, EDIT_DROP, EDIT_GRAFT };

/* One edit of the subtree at instance `at` (see the header): for a hoist,
 * `arg` is the descendant instance taking its place; for fewer copies, the
 * index of the repetition left out; for a graft, the instance of `donor`
 * (another input's tree) whose subtree takes its place. */
struct edit {
    enum edit_kind kind;
    uint32_t at, arg;
    const struct derivation *donor;
};

/* A slot of the tree being built: a new instance, the old instance it copies
 * (DTREE_NONE: fill it in the smallest way), and the depth left for it
 * (reference nodes, its own included). */
struct slot {
    uint32_t inst, old, depth;
    bool donor; /* old is an instance of the edit's donor tree */
};

struct shrinker {
    const struct generator *gen;
    const struct graph *g;
    const struct size_table *sizes; /* borrowed; may be NULL */
    uint32_t *holders;              /* per rank: inputs of the suite holding it */
    uint64_t budget;
    struct suite_shrink_stats *stats;
    /* Scratch, reused. */
    struct slot *slots;
    size_t slots_cap;
    uint64_t *ranks;                /* the trial tree's ranks */
    size_t ranks_cap;
    /* Per instance of the current tree. */
    uint32_t *preorder, *subtree, *refs_above, *stack;
    uint64_t *weight;
    size_t inst_cap, stack_cap;
};

/* The holder counts and the scratch a shrinker owns. */
static void shrinker_free(struct shrinker *s)
{
    free(s->holders);
    free(s->slots);
    free(s->ranks);
    free(s->preorder);
    free(s->subtree);
    free(s->refs_above);
    free(s->stack);
    free(s->weight);
}

static bool is_ref(const struct graph *g, uint32_t n)
{
    return g->nodes[n].kind == NODE_REF;
}

static bool spent(const struct shrinker *s)
{
    return s->stats->work >= s->budget;
}

/* The alternative of alt node n whose smallest subtree within depth d is the
 * lightest (the first of equals); UINT32_MAX when none fits. */
static uint32_t smallest_alternative(const struct shrinker *s, uint32_t n, uint32_t d)
{
    uint32_t best = UINT32_MAX;
    uint64_t best_w = METRIC_INFINITE;
    for (uint32_t i = 0; i < s->g->nodes[n].nchildren; i++) {
        uint64_t w = size_table_weight(s->sizes, graph_children(s->g, n)[i], d);
        if (w < best_w)
            best = i, best_w = w;
    }
    return best;
}

/* Build into *out the tree t with edit `ed` applied.  False when the
 * smallest fill finds nothing within the depth left (cannot happen when its
 * weight was finite, but a trial never trusts that). */
static bool rebuild(struct shrinker *s, const struct derivation *t, const struct edit *ed,
                    struct derivation *out)
{
    const struct graph *g = s->g;
    derivation_init(out, g, t->insts[0].node);
    size_t top = 0;
    s->slots = xgrow(s->slots, &s->slots_cap, 1, sizeof *s->slots);
    s->slots[top++] = (struct slot){0, 0, s->gen->opts.max_depth, false};
    while (top) {
        struct slot sl = s->slots[--top];
        uint32_t n = out->insts[sl.inst].node;
        const struct graph_node *node = &g->nodes[n];
        bool drop = false;
        if (!sl.donor && sl.old == ed->at) {
            if (ed->kind == EDIT_SMALLEST) {
                sl.old = DTREE_NONE;
            } else if (ed->kind == EDIT_HOIST) {
                sl.old = ed->arg;
            } else if (ed->kind == EDIT_GRAFT) {
                sl.old = ed->arg;
                sl.donor = true;
            } else {
                drop = true;
            }
        }
        const struct derivation *src = sl.donor ? ed->donor : t;
        uint32_t decision = 0;
        if (sl.old != DTREE_NONE) {
            decision = derivation_decision(src, sl.old) - drop;
        } else if (node->kind == NODE_ALT) {
            decision = smallest_alternative(s, n, sl.depth);
            if (decision == UINT32_MAX)
                return false;
        } else if (node->kind == NODE_QUANT) {
            decision = node->expr->u.quant.min;
        } else if (node->kind == NODE_CLASS) {
            decision = grammar_class_default_char(node->expr);
        }
        if (is_ref(g, n) && sl.depth == 0)
            return false;
        if (!derivation_expand(out, sl.inst, decision))
            return false;
        uint32_t nkids = out->insts[sl.inst].nchildren;
        uint32_t child_depth = sl.depth - is_ref(g, n);
        s->slots = xgrow(s->slots, &s->slots_cap, top + nkids, sizeof *s->slots);
        /* Children go on the stack last first, so the first is built next. */
        for (uint32_t c = nkids; c-- > 0;) {
            uint32_t old = DTREE_NONE;
            if (sl.old != DTREE_NONE)
                old = derivation_children(src, sl.old)[drop && c >= ed->arg ? c + 1 : c];
            s->slots[top++] =
                (struct slot){derivation_children(out, sl.inst)[c], old, child_depth, sl.donor};
        }
    }
    return true;
}

/* Pre-order, subtree sizes, references above and weights (graph.h's
 * min_weight measure) of every instance of t. */
static void measure(struct shrinker *s, const struct derivation *t)
{
    const struct graph *g = s->g;
    size_t len = t->len;
    if (len > s->inst_cap) {
        s->inst_cap = len * 2;
        s->preorder = xrealloc(s->preorder, s->inst_cap * sizeof *s->preorder);
        s->subtree = xrealloc(s->subtree, s->inst_cap * sizeof *s->subtree);
        s->refs_above = xrealloc(s->refs_above, s->inst_cap * sizeof *s->refs_above);
        s->weight = xrealloc(s->weight, s->inst_cap * sizeof *s->weight);
    }
    size_t top = 0, at = 0;
    s->stack = xgrow(s->stack, &s->stack_cap, 1, sizeof *s->stack);
    s->stack[top++] = 0;
    while (top) {
        uint32_t i = s->stack[--top];
        s->preorder[at++] = i;
        const struct derivation_inst *in = &t->insts[i];
        s->stack = xgrow(s->stack, &s->stack_cap, top + in->nchildren, sizeof *s->stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            s->stack[top++] = derivation_children(t, i)[c];
    }
    /* Parents come before their children in the array. */
    for (size_t i = 0; i < len; i++) {
        uint32_t p = t->insts[i].parent;
        s->refs_above[i] = p == DTREE_NONE ? 0 : s->refs_above[p] + is_ref(g, t->insts[p].node);
    }
    for (size_t i = len; i-- > 0;) {
        const struct derivation_inst *in = &t->insts[i];
        const struct graph_node *node = &g->nodes[in->node];
        uint64_t w = node->kind == NODE_LIT || node->kind == NODE_CLASS ? node->min_weight : 1;
        uint32_t size = 1;
        for (uint32_t c = 0; c < in->nchildren; c++) {
            uint32_t ch = derivation_children(t, (uint32_t)i)[c];
            w = sat_add(w, s->weight[ch]);
            size += s->subtree[ch];
        }
        s->weight[i] = w;
        s->subtree[i] = size;
    }
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
static bool try_edit(struct shrinker *s, struct current *cur, const struct edit *ed)
{
    const struct generator *gen = s->gen;
    s->stats->trials++;
    struct derivation out;
    bool ok = rebuild(s, &cur->tree, ed, &out);
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
    uint32_t e = s->preorder[p];
    uint32_t n = t->insts[e].node;
    uint32_t d = s->gen->opts.max_depth - s->refs_above[e];
    if (s->sizes && s->weight[e] > size_table_weight(s->sizes, n, d)) {
        struct edit ed = {EDIT_SMALLEST, e, 0, NULL};
        if (try_edit(s, cur, &ed)) {
            measure(s, &cur->tree);
            return p + s->subtree[s->preorder[p]];
        }
    }
    uint32_t hoists = 0;
    for (size_t q = p + 1; q < p + s->subtree[e] && hoists < SUITE_SHRINK_MAX_HOISTS && !spent(s);
         q++) {
        uint32_t h = s->preorder[q];
        if (t->insts[h].node != n)
            continue;
        hoists++;
        struct edit ed = {EDIT_HOIST, e, h, NULL};
        if (try_edit(s, cur, &ed)) {
            measure(s, &cur->tree);
            return p;
        }
    }
    const struct graph_node *node = &g->nodes[n];
    if (node->kind == NODE_QUANT) {
        for (uint32_t c = t->insts[e].nchildren; c-- > 0 && !spent(s);) {
            if (t->insts[e].nchildren <= node->expr->u.quant.min)
                break;
            struct edit ed = {EDIT_DROP, e, c, NULL};
            if (try_edit(s, cur, &ed)) {
                measure(s, &cur->tree);
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
    derivation_text(&cur->tree, &text);
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
        measure(&s, &cur.tree);
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
    struct edit ed = {EDIT_GRAFT, e, f, &donor->tree};
    struct derivation out;
    bool ok = rebuild(s, &host->tree, &ed, &out);
    s->stats->work = sat_add(s->stats->work, sat_mul(out.len + host->tree.len + donor->tree.len,
                                                     gen->opts.k + 1));
    ok = ok && out.len <= gen->opts.max_size && derivation_depth(&out) <= gen->opts.max_depth;
    if (!ok) {
        derivation_free(&out);
        return false;
    }
    size_t n = gen_tree_ranks(gen, &out, false, &s->ranks, &s->ranks_cap);
    holders_add(s->holders, donor->ranks, donor->nranks, -1);
    holders_add(s->holders, host->ranks, host->nranks, -1);
    holders_add(s->holders, s->ranks, n, 1);
    if (!all_held(s->holders, donor->ranks, donor->nranks) ||
        !all_held(s->holders, host->ranks, host->nranks)) {
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
    measure(s, &host->tree);
    for (size_t q = 0; q < ntop && !spent(s); q++) {
        uint32_t f = donor_top[q], nf = donor->tree.insts[f].node, tried = 0;
        for (size_t p = 0; p < host->tree.len && tried < SUITE_SHRINK_MAX_HOISTS && !spent(s);
             p++) {
            uint32_t e = s->preorder[p];
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
        measure(&s, &cur[y].tree);
        size_t ntop = cur[y].tree.len < SUITE_GRAFT_TOP ? cur[y].tree.len : SUITE_GRAFT_TOP;
        memcpy(top, s.preorder, ntop * sizeof *top);
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
