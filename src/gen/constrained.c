#include "gen/constrained.h"

#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "grammar/grammar.h"
#include "base/rng.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define INF UINT32_MAX
#define DEAD UINT32_MAX

void constrained_options_default(struct constrained_options *o)
{
    o->max_depth = GEN_DEFAULT_MAX_DEPTH;
    o->max_repetitions = GEN_DEFAULT_MAX_REPETITIONS;
    o->seed = GEN_DEFAULT_SEED;
    o->attempts = 200;
}

/* ---- the prohibited paths as an automaton ----------------------------------------- */

/* State q is the prefix of length plen[q] of prohibited path pat[q]; state 0
 * is the empty prefix.  delta[q * nsymbolic + symbolic_index] is the state
 * after one more symbolic node, DEAD when that completes a prohibited path. */
struct automaton {
    const struct constrained_path *pats;
    size_t npats;
    uint32_t nstates;
    uint32_t *pat, *plen;
    uint32_t *delta;
};

static bool same_ids(const uint32_t *a, const uint32_t *b, uint32_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

static void automaton_build(struct automaton *a, const struct graph *g,
                            const struct constrained_path *pats, size_t npats)
{
    memset(a, 0, sizeof *a);
    a->pats = pats;
    a->npats = npats;
    size_t cap = 1;
    for (size_t i = 0; i < npats; i++)
        cap += pats[i].len;
    a->pat = xcalloc(cap, sizeof *a->pat);
    a->plen = xcalloc(cap, sizeof *a->plen);
    a->nstates = 1;
    for (size_t i = 0; i < npats; i++)
        for (uint32_t len = 1; len < pats[i].len; len++) {
            bool seen = false;
            for (uint32_t q = 1; q < a->nstates && !seen; q++)
                seen = a->plen[q] == len && same_ids(pats[a->pat[q]].ids, pats[i].ids, len);
            if (!seen) {
                a->pat[a->nstates] = (uint32_t)i;
                a->plen[a->nstates++] = len;
            }
        }
    uint32_t maxlen = 1;
    for (size_t i = 0; i < npats; i++)
        if (pats[i].len > maxlen)
            maxlen = pats[i].len;
    uint32_t *w = xcalloc(maxlen + 1, sizeof *w);
    a->delta = xcalloc((size_t)a->nstates * g->nsymbolic + 1, sizeof *a->delta);
    for (uint32_t q = 0; q < a->nstates; q++)
        for (uint32_t si = 0; si < g->nsymbolic; si++) {
            uint32_t wl = a->plen[q];
            if (wl)
                memcpy(w, pats[a->pat[q]].ids, wl * sizeof *w);
            w[wl++] = g->symbolic[si];
            uint32_t next = 0;
            bool dead = false;
            for (size_t i = 0; i < npats && !dead; i++)
                dead = pats[i].len <= wl && same_ids(w + wl - pats[i].len, pats[i].ids, pats[i].len);
            /* The longest suffix of w that is a state. */
            for (uint32_t start = 0; !dead && start < wl && !next; start++)
                for (uint32_t s = 1; s < a->nstates && !next; s++)
                    if (a->plen[s] == wl - start &&
                        same_ids(pats[a->pat[s]].ids, w + start, wl - start))
                        next = s;
            a->delta[(size_t)q * g->nsymbolic + si] = dead ? DEAD : next;
        }
    free(w);
}

static void automaton_free(struct automaton *a)
{
    free(a->pat);
    free(a->plen);
    free(a->delta);
}

static bool is_symbolic(const struct graph *g, uint32_t n)
{
    return g->nodes[n].symbolic_index != NODE_NONE;
}

/* The state below an instance of n in state q. */
static uint32_t state_below(const struct graph *g, const struct automaton *a, uint32_t q,
                            uint32_t n)
{
    if (!is_symbolic(g, n))
        return q;
    return a->delta[(size_t)q * g->nsymbolic + g->nodes[n].symbolic_index];
}

/* ---- least depth avoiding the prohibited paths ------------------------------------ */

/* md[q * nnodes + n]: the least depth of a complete subtree of n, in state q,
 * that completes no prohibited path (INF when there is none).  Values only
 * decrease from INF, so repeated passes reach the fixpoint. */
static uint32_t *min_depth_avoiding(const struct graph *g, const struct automaton *a)
{
    size_t nn = g->nnodes, total = (size_t)a->nstates * nn;
    uint32_t *md = xmalloc((total + 1) * sizeof *md);
    for (size_t i = 0; i < total; i++)
        md[i] = INF;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t q = 0; q < a->nstates; q++)
            for (uint32_t n = 0; n < g->nnodes; n++) {
                const struct graph_node *node = &g->nodes[n];
                const uint32_t *kids = graph_children(g, n);
                uint32_t below = state_below(g, a, q, n), v = INF;
                if (below == DEAD)
                    continue;
                const uint32_t *row = md + (size_t)below * nn;
                switch (node->kind) {
                case NODE_REF:
                    v = row[kids[0]] == INF ? INF : row[kids[0]] + 1;
                    break;
                case NODE_LIT:
                case NODE_CLASS:
                    v = 0;
                    break;
                case NODE_ALT:
                    for (uint32_t i = 0; i < node->nchildren; i++)
                        if (row[kids[i]] < v)
                            v = row[kids[i]];
                    break;
                case NODE_CAT:
                    v = 0;
                    for (uint32_t i = 0; i < node->nchildren; i++)
                        if (row[kids[i]] > v)
                            v = row[kids[i]];
                    break;
                case NODE_QUANT:
                    v = node->expr->u.quant.min == 0 ? 0 : row[kids[0]];
                    break;
                }
                if (v < md[(size_t)q * nn + n]) {
                    md[(size_t)q * nn + n] = v;
                    changed = true;
                }
            }
    }
    return md;
}

/* ---- distances to a required path ------------------------------------------------- */

/* For required path r (length L): progress p is the longest suffix of the
 * chain of symbolic ancestors that is a prefix of r (Knuth-Morris-Pratt).
 * rd[(q * L + p) * nnodes + n]: the fewest steps down from a slot of n to an
 * instance completing r, through subtrees that can all be closed without a
 * prohibited path; INF when impossible. */
struct required {
    const uint32_t *ids;
    uint32_t len;
    uint32_t *fail;  /* KMP failure function */
    uint32_t *rd;
};

static uint32_t kmp_step(const struct required *r, uint32_t p, uint32_t s)
{
    if (p == r->len)
        p = r->fail[p - 1];
    while (p > 0 && r->ids[p] != s)
        p = r->fail[p - 1];
    return r->ids[p] == s ? p + 1 : 0;
}

static void required_build(struct required *r, const struct graph *g, const struct automaton *a,
                           const uint32_t *md, const uint32_t *ids, uint32_t len)
{
    r->ids = ids;
    r->len = len;
    r->fail = xcalloc(len, sizeof *r->fail);
    for (uint32_t i = 1, k = 0; i < len; i++) {
        while (k > 0 && ids[i] != ids[k])
            k = r->fail[k - 1];
        if (ids[i] == ids[k])
            k++;
        r->fail[i] = k;
    }
    size_t nn = g->nnodes, total = (size_t)a->nstates * len * nn;
    r->rd = xmalloc((total + 1) * sizeof *r->rd);
    for (size_t i = 0; i < total; i++)
        r->rd[i] = INF;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t q = 0; q < a->nstates; q++)
            for (uint32_t p = 0; p < len; p++)
                for (uint32_t n = 0; n < g->nnodes; n++) {
                    if (md[(size_t)q * nn + n] == INF)
                        continue;
                    const struct graph_node *node = &g->nodes[n];
                    const uint32_t *kids = graph_children(g, n);
                    uint32_t below = state_below(g, a, q, n), p2 = p, v = INF;
                    if (is_symbolic(g, n)) {
                        p2 = kmp_step(r, p, n);
                        if (p2 == len)
                            v = 0;
                    }
                    if (v) {
                        const uint32_t *row = r->rd + ((size_t)below * len + p2) * nn;
                        uint32_t best = INF;
                        if (node->kind == NODE_REF || node->kind == NODE_ALT ||
                            node->kind == NODE_CAT ||
                            (node->kind == NODE_QUANT && node->expr->u.quant.max >= 1))
                            for (uint32_t i = 0; i < node->nchildren; i++)
                                if (row[kids[i]] < best)
                                    best = row[kids[i]];
                        v = best == INF ? INF : best + 1;
                    }
                    size_t at = ((size_t)q * len + p) * nn + n;
                    if (v < r->rd[at]) {
                        r->rd[at] = v;
                        changed = true;
                    }
                }
    }
}

static uint32_t required_distance(const struct required *r, const struct graph *g, uint32_t q,
                                  uint32_t p, uint32_t n)
{
    return r->rd[((size_t)q * r->len + p) * g->nnodes + n];
}

static void required_free(struct required *r)
{
    free(r->fail);
    free(r->rd);
}

/* ---- the generator ---------------------------------------------------------------- */

struct constrained_gen {
    const struct graph *graph;
    struct constrained_options opts;
    struct constraints c;   /* owned copies of the paths */
    struct constrained_path *paths;    /* owned: required then prohibited */
    struct automaton a;
    uint32_t *md;
    struct required *req;         /* per required path */
    struct rng rng;
    char **texts;                 /* owned: the texts given out */
    size_t ntexts, texts_cap;
    uint64_t tries;
};

static void add_path_name(const struct graph *g, const struct constrained_path *p, struct strbuf *out)
{
    for (uint32_t i = 0; i < p->len; i++) {
        if (i)
            strbuf_addstr(out, " -> ");
        graph_node_name(g, p->ids[i], out);
    }
}

static bool contains_factor(const struct constrained_path *big, const struct constrained_path *small)
{
    for (uint32_t i = 0; i + small->len <= big->len; i++)
        if (same_ids(big->ids + i, small->ids, small->len))
            return true;
    return false;
}

/* Can required path r occur in a tree without any of pats[0..n)? */
static bool required_possible(const struct graph *g, const struct constrained_path *r,
                              const struct constrained_path *pats, size_t n)
{
    struct automaton a;
    automaton_build(&a, g, pats, n);
    uint32_t *md = min_depth_avoiding(g, &a);
    struct required req;
    required_build(&req, g, &a, md, r->ids, r->len);
    bool ok = required_distance(&req, g, 0, 0, 0) != INF;
    required_free(&req);
    free(md);
    automaton_free(&a);
    return ok;
}

/* Report every conflict; true when there is none. */
static bool check_conflicts(struct constrained_gen *t, struct diag_list *diags)
{
    const struct graph *g = t->graph;
    const struct constraints *c = &t->c;
    struct strbuf msg = STRBUF_INIT;
    bool ok = true;
    for (size_t i = 0; i < c->nrequired; i++)
        for (size_t j = 0; j < c->nprohibited; j++)
            if (contains_factor(&c->required[i], &c->prohibited[j])) {
                strbuf_reset(&msg);
                strbuf_addstr(&msg, "unsatisfiable: required ");
                add_path_name(g, &c->required[i], &msg);
                strbuf_addstr(&msg, " contains prohibited ");
                add_path_name(g, &c->prohibited[j], &msg);
                diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", strbuf_str(&msg));
                ok = false;
            }
    if (!ok) {
        strbuf_free(&msg);
        return false;
    }
    if (t->md[0] == INF) {
        strbuf_reset(&msg);
        strbuf_addstr(&msg, "unsatisfiable: every input contains one of the prohibited ");
        for (size_t j = 0; j < c->nprohibited; j++) {
            if (j)
                strbuf_addstr(&msg, ", ");
            add_path_name(g, &c->prohibited[j], &msg);
        }
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", strbuf_str(&msg));
        ok = false;
    }
    for (size_t i = 0; ok && i < c->nrequired; i++) {
        if (required_distance(&t->req[i], g, 0, 0, 0) != INF)
            continue;
        strbuf_reset(&msg);
        strbuf_addstr(&msg, "unsatisfiable: no input contains required ");
        add_path_name(g, &c->required[i], &msg);
        if (!c->nprohibited) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", strbuf_str(&msg));
            ok = false;
            continue;
        }
        strbuf_addstr(&msg, " without prohibited ");
        /* Name the prohibited paths that block it on their own, else all. */
        size_t named = 0;
        for (size_t j = 0; j < c->nprohibited; j++)
            if (!required_possible(g, &c->required[i], &c->prohibited[j], 1)) {
                if (named++)
                    strbuf_addstr(&msg, ", ");
                add_path_name(g, &c->prohibited[j], &msg);
            }
        for (size_t j = 0; !named && j < c->nprohibited; j++) {
            if (j)
                strbuf_addstr(&msg, ", ");
            add_path_name(g, &c->prohibited[j], &msg);
        }
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", strbuf_str(&msg));
        ok = false;
    }
    if (ok && t->md[0] > t->opts.max_depth) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                 "unsatisfiable within the depth limit: the shallowest input%s needs depth %u "
                 "(limit %u)", c->nprohibited ? " without the prohibited k-paths" : "", t->md[0],
                 t->opts.max_depth);
        ok = false;
    }
    strbuf_free(&msg);
    return ok;
}

struct constrained_gen *constrained_new(const struct graph *g, const struct constraints *c,
                              const struct constrained_options *o, struct diag_list *diags)
{
    struct constrained_gen *t = xcalloc(1, sizeof *t);
    t->graph = g;
    t->opts = *o;
    size_t np = c->nrequired + c->nprohibited;
    t->paths = xcalloc(np + 1, sizeof *t->paths);
    for (size_t i = 0; i < np; i++) {
        const struct constrained_path *src =
            i < c->nrequired ? &c->required[i] : &c->prohibited[i - c->nrequired];
        t->paths[i].len = src->len;
        t->paths[i].ids = xmemdup(src->ids, src->len * sizeof *src->ids);
    }
    t->c.required = t->paths;
    t->c.nrequired = c->nrequired;
    t->c.prohibited = t->paths + c->nrequired;
    t->c.nprohibited = c->nprohibited;
    automaton_build(&t->a, g, t->c.prohibited, t->c.nprohibited);
    t->md = min_depth_avoiding(g, &t->a);
    t->req = xcalloc(c->nrequired + 1, sizeof *t->req);
    for (size_t i = 0; i < c->nrequired; i++)
        required_build(&t->req[i], g, &t->a, t->md, t->c.required[i].ids, t->c.required[i].len);
    rng_seed(&t->rng, o->seed);
    if (!check_conflicts(t, diags)) {
        constrained_free(t);
        return NULL;
    }
    return t;
}

void constrained_free(struct constrained_gen *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->c.nrequired; i++)
        required_free(&t->req[i]);
    free(t->req);
    free(t->md);
    automaton_free(&t->a);
    for (size_t i = 0; i < t->c.nrequired + t->c.nprohibited; i++)
        free((uint32_t *)t->paths[i].ids);
    free(t->paths);
    for (size_t i = 0; i < t->ntexts; i++)
        free(t->texts[i]);
    free(t->texts);
    free(t);
}

/* Per instance of the tree being built. */
struct slot_info {
    uint32_t *state;    /* automaton state of the chain above */
    uint32_t *depth;    /* reference instances above */
    uint32_t *goal;     /* the required path the slot works towards, or INF */
    uint32_t *progress; /* per instance, nrequired KMP positions */
    size_t cap;
};

static void slots_reserve(struct slot_info *s, size_t need, size_t nreq)
{
    if (need <= s->cap)
        return;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need)
        cap *= 2;
    s->state = xrealloc(s->state, cap * sizeof *s->state);
    s->depth = xrealloc(s->depth, cap * sizeof *s->depth);
    s->goal = xrealloc(s->goal, cap * sizeof *s->goal);
    s->progress = xrealloc(s->progress, cap * (nreq + 1) * sizeof *s->progress);
    s->cap = cap;
}

/* Does candidate child c fit: closable without a prohibited path, within the
 * depth limit, given the child's state and depth? */
static bool fits(const struct constrained_gen *t, uint32_t q, uint32_t depth, uint32_t c)
{
    uint32_t v = t->md[(size_t)q * t->graph->nnodes + c];
    return v != INF && depth + v <= t->opts.max_depth;
}

static uint32_t least_depth(const struct constrained_gen *t, uint32_t q, uint32_t c)
{
    return t->md[(size_t)q * t->graph->nnodes + c];
}

/* Uniform among the entries of cand[0..n) whose score is the least. */
static uint32_t pick_least(struct rng *rng, const uint32_t *cand, const uint32_t *score, uint32_t n)
{
    uint32_t least = INF, nleast = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (score[j] < least)
            least = score[j], nleast = 0;
        nleast += score[j] == least;
    }
    uint32_t pick = (uint32_t)rng_below(rng, nleast);
    for (uint32_t j = 0; j < n; j++)
        if (score[j] == least && pick-- == 0)
            return cand[j];
    return cand[0];
}

/* Build one tree, slot by slot in pre-order.  A slot without a goal takes
 * the required path, not contained and not claimed by another slot, that is
 * nearest below it (if any) and claims it; a slot with a goal chooses the
 * alternative nearest to it and hands the goal to the one child on the way
 * (a sequence's nearest item), so two parts of a tree never chase the same
 * path.  Other slots close with the least deep alternatives (random among
 * equals) and the fewest repetitions.  With `explore` (every attempt but
 * the first) a quarter of the choices are uniform among what fits instead,
 * so retries differ and inputs vary. */
static void build_tree(struct constrained_gen *t, struct derivation *tree, struct slot_info *s, bool explore)
{
    const struct graph *g = t->graph;
    size_t nreq = t->c.nrequired;
    derivation_init(tree, g, 0);
    bool *done = xcalloc(nreq + 1, sizeof *done), *claimed = xcalloc(nreq + 1, sizeof *claimed);
    uint32_t *below = xcalloc(nreq + 1, sizeof *below);
    uint32_t *stack = xcalloc(16, sizeof *stack), *cand = NULL, *score = NULL;
    size_t nstack = 0, stack_cap = 16, cand_cap = 0, score_cap = 0;
    slots_reserve(s, 1, nreq);
    s->state[0] = 0;
    s->depth[0] = 0;
    s->goal[0] = INF;
    memset(s->progress, 0, (nreq + 1) * sizeof *s->progress);
    stack[nstack++] = 0;
    while (nstack) {
        uint32_t i = stack[--nstack];
        uint32_t n = tree->insts[i].node;
        const struct graph_node *node = &g->nodes[n];
        uint32_t q = state_below(g, &t->a, s->state[i], n);
        uint32_t depth = s->depth[i] + (node->kind == NODE_REF);
        const uint32_t *progress = s->progress + (size_t)i * (nreq + 1);
        for (size_t r = 0; r < nreq; r++) {
            below[r] = is_symbolic(g, n) ? kmp_step(&t->req[r], progress[r], n) : progress[r];
            if (below[r] == t->req[r].len)
                done[r] = true;
        }
        uint32_t goal = s->goal[i];
        if (goal != INF && done[goal])
            goal = INF;
        if (goal == INF) {
            /* Claim the nearest open required path below this slot. */
            uint32_t best = INF;
            for (uint32_t r = 0; r < nreq; r++) {
                if (done[r] || claimed[r])
                    continue;
                uint32_t d = required_distance(&t->req[r], g, s->state[i], progress[r], n);
                if (d < best)
                    best = d, goal = r;
            }
            if (goal != INF)
                claimed[goal] = true;
        }
        const uint32_t *kids = graph_children(g, n);
        uint32_t nk = node->nchildren;
        cand = xgrow(cand, &cand_cap, nk + 1, sizeof *cand);
        score = xgrow(score, &score_cap, nk + 1, sizeof *score);
        /* Distance from each child to the goal (INF without one). */
        for (uint32_t c = 0; c < nk; c++)
            score[c] = goal == INF ? INF
                                   : required_distance(&t->req[goal], g, q, below[goal], kids[c]);
        uint32_t decision = 0, goal_child = INF; /* which child (by position) gets the goal */
        bool random_choice = explore && rng_below(&t->rng, 4) == 0;
        if (node->kind == NODE_ALT) {
            uint32_t nfit = 0;
            for (uint32_t c = 0; c < nk; c++)
                if (fits(t, q, depth, kids[c])) {
                    cand[nfit] = c;
                    score[nfit++] = score[c];
                }
            bool toward = false;
            for (uint32_t j = 0; j < nfit; j++)
                toward = toward || score[j] != INF;
            if (random_choice) {
                decision = cand[rng_below(&t->rng, nfit)];
            } else if (toward) {
                decision = pick_least(&t->rng, cand, score, nfit);
            } else {
                for (uint32_t j = 0; j < nfit; j++)
                    score[j] = least_depth(t, q, kids[cand[j]]);
                decision = pick_least(&t->rng, cand, score, nfit);
            }
            goal_child = 0;
        } else if (node->kind == NODE_QUANT) {
            uint32_t lo = node->expr->u.quant.min, hi = node->expr->u.quant.max;
            uint32_t cap = lo > t->opts.max_repetitions ? lo : t->opts.max_repetitions;
            if (hi > cap)
                hi = cap;
            if (!fits(t, q, depth, kids[0]))
                decision = lo;
            else if (random_choice)
                decision = lo + (uint32_t)rng_below(&t->rng, (uint64_t)(hi - lo) + 1);
            else if (score[0] != INF && hi >= 1)
                decision = lo ? lo : 1;
            else
                decision = lo;
            goal_child = 0;
        } else if (node->kind == NODE_CAT) {
            for (uint32_t c = 0; c < nk; c++)
                cand[c] = c;
            goal_child = pick_least(&t->rng, cand, score, nk);
        } else if (node->kind == NODE_REF) {
            goal_child = 0;
        } else if (node->kind == NODE_CLASS) {
            decision = gen_random_class_char(node->expr, &t->rng);
        }
        derivation_expand(tree, i, decision);
        uint32_t nkids = tree->insts[i].nchildren;
        slots_reserve(s, tree->len, nreq);
        stack = xgrow(stack, &stack_cap, nstack + nkids, sizeof *stack);
        bool handed = false;
        for (uint32_t j = nkids; j-- > 0;) {
            uint32_t child = derivation_children(tree, i)[j];
            s->state[child] = q;
            s->depth[child] = depth;
            s->goal[child] = INF;
            memcpy(s->progress + (size_t)child * (nreq + 1), below, nreq * sizeof *below);
            stack[nstack++] = child;
        }
        /* The goal goes to one child: the chosen alternative, the first
         * repetition, the sequence's nearest item, the rule's node.  When no
         * child can lead there any more, the path is free for other slots. */
        if (goal != INF && goal_child != INF && nkids) {
            uint32_t at = node->kind == NODE_CAT ? goal_child : 0;
            uint32_t child = derivation_children(tree, i)[at];
            if (required_distance(&t->req[goal], g, q, below[goal], tree->insts[child].node) != INF) {
                s->goal[child] = goal;
                handed = true;
            }
        }
        if (goal != INF && !handed && !done[goal])
            claimed[goal] = false;
    }
    free(stack);
    free(cand);
    free(score);
    free(done);
    free(claimed);
    free(below);
}

struct check_ctx {
    const struct constrained_path *paths;
    size_t n;
    uint32_t len;
    bool *seen;
};

static void mark_path(const uint32_t *path, void *ctx)
{
    struct check_ctx *c = ctx;
    for (size_t i = 0; i < c->n; i++)
        if (c->paths[i].len == c->len && same_ids(c->paths[i].ids, path, c->len))
            c->seen[i] = true;
}

/* seen[i]: does the tree contain paths[i]? */
static void find_paths(const struct derivation *tree, const struct constrained_path *paths, size_t n,
                       bool *seen)
{
    memset(seen, 0, n * sizeof *seen);
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i; j++)
            first = first && paths[j].len != paths[i].len;
        if (!first)
            continue;
        struct check_ctx c = {paths, n, paths[i].len, seen};
        derivation_foreach_kpath(tree, paths[i].len, mark_path, &c);
    }
}

bool constrained_satisfied(const struct graph *g, const struct constraints *c,
                      const struct derivation *tree)
{
    (void)g;
    size_t n = c->nrequired > c->nprohibited ? c->nrequired : c->nprohibited;
    bool *seen = xcalloc(n + 1, sizeof *seen);
    bool ok = true;
    find_paths(tree, c->required, c->nrequired, seen);
    for (size_t i = 0; i < c->nrequired; i++)
        ok = ok && seen[i];
    find_paths(tree, c->prohibited, c->nprohibited, seen);
    for (size_t i = 0; i < c->nprohibited; i++)
        ok = ok && !seen[i];
    free(seen);
    return ok;
}

bool constrained_next(struct constrained_gen *t, struct derivation *out)
{
    struct slot_info s = {0};
    struct strbuf text = STRBUF_INIT;
    bool found = false;
    for (uint32_t attempt = 0; attempt < t->opts.attempts && !found; attempt++) {
        build_tree(t, out, &s, attempt > 0);
        t->tries++;
        if (derivation_complete(out) && constrained_satisfied(t->graph, &t->c, out)) {
            strbuf_reset(&text);
            derivation_text(out, &text);
            bool fresh = true;
            for (size_t i = 0; i < t->ntexts && fresh; i++)
                fresh = strcmp(t->texts[i], strbuf_str(&text)) != 0;
            if (fresh) {
                t->texts = xgrow(t->texts, &t->texts_cap, t->ntexts + 1, sizeof *t->texts);
                t->texts[t->ntexts++] = xstrdup(strbuf_str(&text));
                found = true;
                break;
            }
        }
        derivation_free(out);
    }
    if (!found)
        memset(out, 0, sizeof *out);
    free(s.state);
    free(s.depth);
    free(s.goal);
    free(s.progress);
    strbuf_free(&text);
    return found;
}
