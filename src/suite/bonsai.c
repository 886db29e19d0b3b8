#include "suite/bonsai.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "graph/written.h"
#include "parse/input_kpaths.h"
#include "suite/reduce.h"
#include "base/number.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* uthash allocates through our wrapper, which aborts instead of failing. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

/* A text some point considered within its bounds (it will add nothing later:
 * coverage only grows). */
struct bonsai_text {
    char *text; /* owned */
    size_t len;
    UT_hash_handle hh;
};

const char *bonsai_origin_name(enum bonsai_origin o)
{
    return o == BONSAI_KPATH ? "kpath" : o == BONSAI_RANDOM ? "random" : "mutant";
}

void bonsai_options_default(struct bonsai_options *o)
{
    o->k = GEN_DEFAULT_K;
    o->max_depth = BONSAI_DEFAULT_MAX_DEPTH;
    o->max_repetitions = BONSAI_DEFAULT_MAX_REPETITIONS;
    o->max_bytes = BONSAI_DEFAULT_MAX_BYTES;
    o->random_count = BONSAI_DEFAULT_RANDOM_COUNT;
    o->mutations = BONSAI_DEFAULT_MUTATIONS;
    o->seed = GEN_DEFAULT_SEED;
    o->features_only = false;
}

static char *format_error(const char *fmt, unsigned a, unsigned b)
{
    struct strbuf s = STRBUF_INIT;
    strbuf_addf(&s, fmt, a, b);
    return strbuf_detach(&s, NULL);
}

static int cmp_point(const void *x, const void *y)
{
    const struct bonsai_point *a = x, *b = y;
    uint64_t sa = (uint64_t)a->depth + a->repetitions + a->size_level;
    uint64_t sb = (uint64_t)b->depth + b->repetitions + b->size_level;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    if (a->repetitions != b->repetitions)
        return a->repetitions < b->repetitions ? -1 : 1;
    return a->max_bytes < b->max_bytes ? -1 : a->max_bytes > b->max_bytes;
}

struct bonsai *bonsai_new(const struct graph *g, const struct bonsai_options *o, char **error)
{
    *error = NULL;
    if (o->k < 1 || o->k > KPATH_MAX_K) {
        *error = format_error("k must be from 1 to %u, not %u", KPATH_MAX_K, o->k);
        return NULL;
    }
    if (o->max_depth < 1 || o->max_repetitions < 1 || o->max_bytes < 1) {
        *error = format_error("the bounds must be at least 1 (depth %u, repetitions %u)",
                              o->max_depth, o->max_repetitions);
        return NULL;
    }
    struct bonsai *b = xcalloc(1, sizeof *b);
    b->graph = g;
    b->opts = *o;
    rng_seed(&b->rng, o->seed);
    b->spaces = xcalloc(o->k, sizeof *b->spaces);
    b->covered = xcalloc(o->k, sizeof *b->covered);
    b->explored = xcalloc(o->k, sizeof *b->explored);
    b->scratch = xcalloc(o->k, sizeof *b->scratch);
    b->scratch_ptrs = xcalloc(o->k, sizeof *b->scratch_ptrs);
    for (uint32_t j = 0; j < o->k; j++) {
        kpath_space_init(&b->spaces[j], g, j + 1);
        kpath_set_init(&b->covered[j], &b->spaces[j]);
        kpath_set_init(&b->explored[j], &b->spaces[j]);
        kpath_set_init(&b->scratch[j], &b->spaces[j]);
    }
    /* Refuse up front what no lattice point could do, before the caller
     * makes anything: a depth axis below the smallest input (every point's
     * generators would be refused: an empty corpus), and a k whose k-paths
     * overflow the k-path strategy's agenda (gen_new's messages). */
    struct gen_options probe_opts;
    gen_options_default(&probe_opts);
    probe_opts.strategy = GEN_KPATH;
    probe_opts.closeoff = GEN_CLOSE_SHORTEST;
    probe_opts.k = 1;
    probe_opts.max_depth = o->max_depth;
    probe_opts.max_repetitions = o->max_repetitions;
    struct generator *probe = gen_new(g, &probe_opts, error);
    if (!probe) {
        bonsai_free(b);
        return NULL;
    }
    gen_free(probe);
    const struct kpath_space *top = &b->spaces[o->k - 1];
    if (top->saturated || top->total > GEN_MAX_AGENDA) {
        uint32_t fits = o->k - 1;
        while (fits && (b->spaces[fits - 1].saturated ||
                        b->spaces[fits - 1].total > GEN_MAX_AGENDA))
            fits--;
        struct strbuf sb = STRBUF_INIT;
        strbuf_addf(&sb, "k %u is too large: the grammar has ", o->k);
        number_add_count(&sb, top->total);
        strbuf_addf(&sb, " %u-paths, more than the k-path strategy's agenda holds (%llu); ",
                    o->k, (unsigned long long)GEN_MAX_AGENDA);
        if (fits)
            strbuf_addf(&sb, "the largest k below it that fits is %u", fits);
        else
            strbuf_addstr(&sb, "no smaller k fits");
        *error = strbuf_detach(&sb, NULL);
        bonsai_free(b);
        return NULL;
    }
    uint32_t sizes[34], nsizes = 0;
    for (uint64_t s = BONSAI_SMALLEST_BYTES; s < o->max_bytes; s *= 2)
        sizes[nsizes++] = (uint32_t)s;
    sizes[nsizes++] = o->max_bytes;
    uint64_t n = (uint64_t)o->max_depth * o->max_repetitions * nsizes;
    if (n > 1000000u) {
        *error = format_error("the lattice is too large (depth %u x repetitions %u): at most "
                              "a million points", o->max_depth, o->max_repetitions);
        bonsai_free(b);
        return NULL;
    }
    b->npoints = (uint32_t)n;
    b->points = xcalloc(n, sizeof *b->points);
    uint32_t i = 0;
    for (uint32_t d = 1; d <= o->max_depth; d++)
        for (uint32_t r = 1; r <= o->max_repetitions; r++)
            for (uint32_t s = 0; s < nsizes; s++)
                b->points[i++] = (struct bonsai_point){.depth = d, .repetitions = r,
                                                       .max_bytes = sizes[s], .size_level = s + 1};
    qsort(b->points, n, sizeof *b->points, cmp_point);
    return b;
}

static void free_candidates(struct bonsai *b)
{
    for (size_t i = 0; i < b->ncands; i++) {
        derivation_free(&b->cands[i].tree);
        free(b->cands[i].text);
        free(b->cands[i].features);
    }
    free(b->cands);
    b->cands = NULL;
    b->ncands = 0;
}

void bonsai_free(struct bonsai *b)
{
    if (!b)
        return;
    free_candidates(b);
    struct bonsai_text *t, *tmp;
    HASH_ITER(hh, b->seen_texts, t, tmp) {
        HASH_DEL(b->seen_texts, t);
        free(t->text);
        free(t);
    }
    free(b->feature_seen);
    free(b->shortest);
    for (uint32_t i = 0; i < b->npoints; i++)
        free(b->points[i].covered);
    free(b->points);
    for (size_t i = 0; i < b->ninputs; i++) {
        free(b->inputs[i].text);
        free(b->inputs[i].features);
        derivation_free(&b->inputs[i].tree);
    }
    free(b->inputs);
    for (uint32_t j = 0; j < b->opts.k; j++) {
        kpath_set_free(&b->covered[j]);
        kpath_set_free(&b->explored[j]);
        kpath_set_free(&b->scratch[j]);
        kpath_space_free(&b->spaces[j]);
    }
    free(b->covered);
    free(b->explored);
    free(b->scratch);
    free(b->scratch_ptrs);
    free(b->spaces);
    free(b->error);
    free(b);
}

struct novelty {
    const struct kpath_set *covered;
    bool found;
};

static bool find_new(const uint32_t *path, void *ctx)
{
    struct novelty *n = ctx;
    n->found = !kpath_set_contains(n->covered, path);
    return !n->found; /* stop at the first new one */
}

/* Room for feature id f in feature_seen and shortest. */
static void feature_slot(struct bonsai *b, uint32_t f)
{
    if (f < b->feature_slots)
        return;
    uint32_t slots = f + 1 > 2 * b->feature_slots ? f + 1 : 2 * b->feature_slots;
    b->feature_seen = xrealloc(b->feature_seen, slots * sizeof *b->feature_seen);
    b->shortest = xrealloc(b->shortest, slots * sizeof *b->shortest);
    for (uint32_t i = b->feature_slots; i < slots; i++) {
        b->feature_seen[i] = false;
        b->shortest[i] = SIZE_MAX;
    }
    b->feature_slots = slots;
}

/* Parse a text's j-paths (j = 1..k) into the scratch sets, cleared first.
 * False (b->error set) when it does not parse. */
static bool scratch_kpaths(struct bonsai *b, const char *text, size_t len)
{
    uint32_t k = b->opts.k;
    for (uint32_t j = 0; j < k; j++) {
        kpath_set_clear(&b->scratch[j]);
        b->scratch_ptrs[j] = &b->scratch[j];
    }
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct diag_list diags = DIAG_LIST_INIT;
    if (!input_kpaths_text(b->graph, "generated input", text, len, &po, b->scratch_ptrs, k,
                           NULL, NULL, &diags)) {
        struct strbuf msg = STRBUF_INIT;
        strbuf_addstr(&msg, "a generated input does not parse (a bug): ");
        if (diags.len)
            diag_format(&diags.items[0], &msg);
        free(b->error);
        b->error = strbuf_detach(&msg, NULL);
        diag_list_free(&diags);
        return false;
    }
    diag_list_free(&diags);
    return true;
}

/* Keep the candidate when it fits the point and adds a j-path for some j
 * (unless features_only) or a behaviour feature, or (features_only) is
 * shorter than every kept input reaching one of its features.  Its k-paths
 * are those of its text, parsed (every derivation tree of an ambiguous text
 * counts, as in kpath coverage), not only of the tree the generator built.
 * False (b->error set) when the text does not parse. */
static bool consider(struct bonsai *b, uint32_t point, struct bonsai_candidate *c)
{
    struct bonsai_point *p = &b->points[point];
    if (!c->fits)
        return true;
    uint32_t k = b->opts.k;
    if (!scratch_kpaths(b, c->text, c->len))
        return false;
    bool adds = false;
    for (uint32_t j = 0; j < k && !adds && !b->opts.features_only; j++) {
        struct novelty n = {&b->covered[j], false};
        kpath_set_foreach(&b->scratch[j], find_new, &n);
        adds = n.found;
    }
    for (uint32_t i = 0; i < c->nfeatures && !adds; i++)
        adds = c->features[i] >= b->feature_slots || !b->feature_seen[c->features[i]];
    for (uint32_t i = 0; i < c->nfeatures && !adds && b->opts.features_only; i++)
        adds = c->len < b->shortest[c->features[i]]; /* every feature is seen here */
    for (uint32_t j = 0; j < k; j++)
        kpath_set_union(&b->explored[j], &b->scratch[j]);
    if (!adds)
        return true;
    uint64_t added = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint64_t before = b->covered[j].size;
        kpath_set_union(&b->covered[j], &b->scratch[j]);
        added += b->covered[j].size - before;
    }
    uint32_t new_features = 0;
    for (uint32_t i = 0; i < c->nfeatures; i++) {
        uint32_t f = c->features[i];
        feature_slot(b, f);
        if (!b->feature_seen[f]) {
            b->feature_seen[f] = true;
            new_features++;
        }
        if (c->len < b->shortest[f])
            b->shortest[f] = c->len;
    }
    b->features += new_features;
    b->inputs = xgrow(b->inputs, &b->inputs_cap, b->ninputs + 1, sizeof *b->inputs);
    struct bonsai_input *kept = &b->inputs[b->ninputs++];
    *kept = (struct bonsai_input){.text = c->text, .len = c->len, .point = point,
                                  .origin = c->origin, .depth = c->depth, .new_paths = added,
                                  .new_features = new_features, .features = c->features,
                                  .nfeatures = c->nfeatures};
    kept->tree = c->tree; /* moved */
    c->text = NULL;
    c->features = NULL;
    c->nfeatures = 0;
    memset(&c->tree, 0, sizeof c->tree);
    b->total_bytes += c->len;
    p->kept++;
    p->kept_bytes += c->len;
    return true;
}

static bool mark_one(const uint32_t *path, void *ctx)
{
    gen_mark_covered(ctx, path);
    return true;
}

/* Run one generator within the point's bounds; NULL (b->error set) on failure. */
static struct generator *run_generator(struct bonsai *b, uint32_t point,
                                       enum gen_strategy strategy)
{
    const struct bonsai_point *p = &b->points[point];
    struct gen_options o;
    gen_options_default(&o);
    /* each point adds small inputs for what it newly reaches */
    o.closeoff = GEN_CLOSE_SHORTEST;
    o.strategy = strategy;
    o.k = b->opts.k;
    o.max_depth = p->depth;
    o.max_repetitions = p->repetitions;
    o.seed = rng_next(&b->rng);
    o.count = strategy == GEN_KPATH ? 0 : b->opts.random_count;
    char *error = NULL;
    struct generator *gen = gen_new(b->graph, &o, &error);
    if (!gen) {
        free(b->error);
        b->error = error;
        return NULL;
    }
    if (strategy == GEN_KPATH)
        kpath_set_foreach(&b->explored[b->opts.k - 1], mark_one, gen);
    gen_run(gen);
    if (gen->error) {
        free(b->error);
        b->error = xstrdup(gen->error);
        gen_free(gen);
        return NULL;
    }
    return gen;
}

static void add_candidate(struct bonsai *b, size_t *cap, struct derivation *tree_moved,
                          enum bonsai_origin origin)
{
    struct strbuf text = STRBUF_INIT;
    if (!derivation_written_text(tree_moved, &text)) {
        /* ANTLR's lexer reads no text of this tree as its tokens (an ID
         * derived as "if", where the keyword wins): no input of the
         * grammar, which the parse of its text would reject. */
        strbuf_free(&text);
        derivation_free(tree_moved);
        return;
    }
    b->cands = xgrow(b->cands, cap, b->ncands + 1, sizeof *b->cands);
    struct bonsai_candidate *c = &b->cands[b->ncands++];
    memset(c, 0, sizeof *c);
    c->text = strbuf_detach(&text, &c->len);
    if (!c->text)
        c->text = xstrdup("");
    c->tree = *tree_moved;
    c->depth = derivation_depth(&c->tree);
    c->origin = origin;
}

/* Per instance of a complete tree: where its subtree's decisions start in
 * the tree's pre-order decision list (derivation_decisions) and how many there are.
 * Children come after their parents in the array, so one backward pass counts
 * and one explicit-stack pre-order walk places (nothing recurses). */
static void decision_blocks(const struct derivation *t, uint32_t *start, uint32_t *count)
{
    for (size_t i = t->len; i-- > 0;) {
        const struct derivation_inst *in = &t->insts[i];
        uint32_t n = derivation_needs_decision(t->graph, in->node) ? 1 : 0;
        for (uint32_t c = 0; c < in->nchildren; c++)
            n += count[derivation_children(t, (uint32_t)i)[c]];
        count[i] = n;
    }
    uint32_t *stack = xmalloc((t->len + 1) * sizeof *stack);
    size_t depth = 0;
    uint32_t d = 0;
    stack[depth++] = 0;
    while (depth) {
        uint32_t i = stack[--depth];
        const struct derivation_inst *in = &t->insts[i];
        start[i] = d;
        d += derivation_needs_decision(t->graph, in->node) ? 1 : 0;
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, i)[c];
    }
    free(stack);
}

/* A tree with its pre-order decisions and decision blocks, for splicing. */
struct splice_tree {
    const struct derivation *tree;
    struct derivation rebuilt; /* a random input's tree, rebuilt from the generator's */
    uint32_t *decisions, *start, *count;
    size_t ndecisions;
};

struct donor {
    uint32_t tree, inst;
};

static bool below(const struct bonsai_point *q, const struct bonsai_point *p)
{
    return q->depth <= p->depth && q->repetitions <= p->repetitions &&
           q->size_level <= p->size_level;
}

/* The point's mutants: seeds are the kept inputs of the points below it;
 * donors of subtrees the seeds and the point's random inputs. */
static void add_mutants(struct bonsai *b, uint32_t point, const struct generator *random,
                        size_t *cap)
{
    const struct graph *g = b->graph;
    const struct bonsai_point *p = &b->points[point];
    size_t nseeds = 0;
    uint32_t *seeds = xmalloc((b->ninputs + 1) * sizeof *seeds);
    for (size_t i = 0; i < b->ninputs; i++)
        if (below(&b->points[b->inputs[i].point], p))
            seeds[nseeds++] = (uint32_t)i;
    if (!nseeds || !b->opts.mutations) {
        free(seeds);
        return;
    }
    size_t nrandom = random ? random->ninputs : 0, ntrees = nseeds + nrandom;
    struct splice_tree *trees = xcalloc(ntrees, sizeof *trees);
    /* Donors by graph node: CSR over the reference instances of every tree. */
    uint32_t *per_node = xcalloc(g->nnodes + 1, sizeof *per_node);
    for (size_t t = 0; t < ntrees; t++) {
        struct splice_tree *st = &trees[t];
        if (t >= nseeds)
            gen_input_tree(random, t - nseeds, &st->rebuilt);
        const struct derivation *tree = t < nseeds ? &b->inputs[seeds[t]].tree : &st->rebuilt;
        st->tree = tree;
        st->decisions = derivation_decisions(tree, &st->ndecisions);
        st->start = xmalloc((tree->len + 1) * sizeof *st->start);
        st->count = xmalloc((tree->len + 1) * sizeof *st->count);
        decision_blocks(tree, st->start, st->count);
        for (size_t i = 0; i < tree->len; i++)
            if (g->nodes[tree->insts[i].node].kind == NODE_REF)
                per_node[tree->insts[i].node + 1]++;
    }
    for (uint32_t n = 0; n < g->nnodes; n++)
        per_node[n + 1] += per_node[n];
    struct donor *donors = xmalloc((per_node[g->nnodes] + 1) * sizeof *donors);
    uint32_t *fill = xmalloc((g->nnodes + 1) * sizeof *fill);
    memcpy(fill, per_node, g->nnodes * sizeof *fill);
    for (size_t t = 0; t < ntrees; t++)
        for (size_t i = 0; i < trees[t].tree->len; i++) {
            uint32_t node = trees[t].tree->insts[i].node;
            if (g->nodes[node].kind == NODE_REF)
                donors[fill[node]++] = (struct donor){(uint32_t)t, (uint32_t)i};
        }
    uint32_t *refs = NULL, *spliced = NULL;
    size_t refs_cap = 0, spliced_cap = 0;
    for (uint32_t m = 0; m < b->opts.mutations; m++) {
        const struct splice_tree *seed = &trees[rng_below(&b->rng, nseeds)];
        size_t nrefs = 0;
        for (size_t i = 0; i < seed->tree->len; i++)
            if (g->nodes[seed->tree->insts[i].node].kind == NODE_REF) {
                refs = xgrow(refs, &refs_cap, nrefs + 1, sizeof *refs);
                refs[nrefs++] = (uint32_t)i;
            }
        if (!nrefs)
            continue;
        uint32_t at = refs[rng_below(&b->rng, nrefs)];
        uint32_t node = seed->tree->insts[at].node;
        uint32_t first = per_node[node], n = per_node[node + 1] - first;
        const struct donor *d = &donors[first + rng_below(&b->rng, n)];
        const struct splice_tree *dt = &trees[d->tree];
        if (dt == seed && d->inst == at)
            continue; /* the same subtree: no mutant */
        size_t total = seed->ndecisions - seed->count[at] + dt->count[d->inst];
        spliced = xgrow(spliced, &spliced_cap, total + 1, sizeof *spliced);
        size_t k = 0;
        memcpy(spliced, seed->decisions, seed->start[at] * sizeof *spliced);
        k += seed->start[at];
        memcpy(spliced + k, dt->decisions + dt->start[d->inst],
               dt->count[d->inst] * sizeof *spliced);
        k += dt->count[d->inst];
        size_t after = seed->start[at] + seed->count[at];
        memcpy(spliced + k, seed->decisions + after,
               (seed->ndecisions - after) * sizeof *spliced);
        struct derivation mutant;
        derivation_init(&mutant, g, seed->tree->insts[0].node);
        size_t bad_at;
        if (derivation_replay(&mutant, spliced, total, &bad_at) < 0 || !derivation_complete(&mutant)) {
            derivation_free(&mutant); /* cannot happen: the blocks derive the same node */
            continue;
        }
        add_candidate(b, cap, &mutant, BONSAI_MUTANT);
        b->points[point].mutants++;
    }
    free(refs);
    free(spliced);
    free(fill);
    free(donors);
    free(per_node);
    for (size_t t = 0; t < ntrees; t++) {
        if (t >= nseeds)
            derivation_free(&trees[t].rebuilt);
        free(trees[t].decisions);
        free(trees[t].start);
        free(trees[t].count);
    }
    free(trees);
    free(seeds);
}

/* Was this text considered within bounds before?  If not, remember it. */
static bool seen_before(struct bonsai *b, const char *text, size_t len)
{
    struct bonsai_text *t;
    HASH_FIND(hh, b->seen_texts, text, len, t);
    if (t)
        return true;
    t = xcalloc(1, sizeof *t);
    t->text = xmalloc(len + 1);
    memcpy(t->text, text, len + 1);
    t->len = len;
    HASH_ADD_KEYPTR(hh, b->seen_texts, t->text, t->len, t);
    return false;
}

bool bonsai_begin_point(struct bonsai *b)
{
    if (b->next >= b->npoints || b->error || b->in_point)
        return false;
    uint32_t point = b->next;
    b->in_point = true;
    /* A point shallower than the smallest input has no input of its own
     * (gen_new refuses it); its mutants may still fit. */
    bool too_shallow = b->graph->nnodes && b->graph->nodes[0].min_depth > b->points[point].depth;
    struct generator *gens[2] = {too_shallow ? NULL : run_generator(b, point, GEN_KPATH), NULL};
    bool ok = too_shallow || gens[0] != NULL;
    if (ok && !too_shallow && b->opts.random_count)
        ok = (gens[1] = run_generator(b, point, GEN_RANDOM)) != NULL;
    size_t cap = 0;
    for (int g = 0; ok && g < 2; g++)
        for (size_t i = 0; gens[g] && i < gens[g]->ninputs; i++) {
            struct derivation copy;
            gen_input_tree(gens[g], i, &copy);
            add_candidate(b, &cap, &copy, g == 0 ? BONSAI_KPATH : BONSAI_RANDOM);
        }
    if (ok)
        add_mutants(b, point, gens[1], &cap);
    gen_free(gens[0]);
    gen_free(gens[1]);
    if (!ok) {
        free_candidates(b);
        return false;
    }
    /* Shortest first (ties: in the order made: kpath, random, mutants), so
     * a short input is kept before a long one that would cover the same. */
    if (b->ncands > 1) {
        /* qsort is not stable: sort (length, index) pairs. */
        struct order { size_t len, index; } *ord = xmalloc(b->ncands * sizeof *ord);
        for (size_t i = 0; i < b->ncands; i++)
            ord[i] = (struct order){b->cands[i].len, i};
        for (size_t i = 1; i < b->ncands; i++) { /* insertion sort: stable, small n */
            struct order o = ord[i];
            size_t j = i;
            for (; j > 0 && ord[j - 1].len > o.len; j--)
                ord[j] = ord[j - 1];
            ord[j] = o;
        }
        struct bonsai_candidate *sorted = xmalloc(b->ncands * sizeof *sorted);
        for (size_t i = 0; i < b->ncands; i++)
            sorted[i] = b->cands[ord[i].index];
        free(b->cands);
        b->cands = sorted;
        free(ord);
    }
    struct bonsai_point *p = &b->points[point];
    for (size_t i = 0; i < b->ncands; i++) {
        struct bonsai_candidate *c = &b->cands[i];
        p->generated++;
        c->fits = c->len <= p->max_bytes && c->depth <= p->depth &&
                  !seen_before(b, c->text, c->len);
    }
    return true;
}

void bonsai_set_features(struct bonsai *b, size_t i, const uint32_t *ids, uint32_t n)
{
    struct bonsai_candidate *c = &b->cands[i];
    free(c->features);
    c->features = xmalloc((n + 1) * sizeof *c->features);
    memcpy(c->features, ids, n * sizeof *ids);
    c->nfeatures = n;
}

bool bonsai_end_point(struct bonsai *b)
{
    if (!b->in_point)
        return false;
    uint32_t point = b->next++;
    b->in_point = false;
    bool ok = true;
    for (size_t i = 0; ok && i < b->ncands; i++)
        ok = consider(b, point, &b->cands[i]);
    free_candidates(b);
    struct bonsai_point *p = &b->points[point];
    p->covered = xcalloc(b->opts.k, sizeof *p->covered);
    for (uint32_t j = 0; j < b->opts.k; j++)
        p->covered[j] = b->covered[j].size;
    p->features = b->features;
    return ok;
}

struct prune_key {
    size_t len;
    uint32_t index;
};

/* Longest first; ties: the later kept first. */
static int cmp_prune(const void *x, const void *y)
{
    const struct prune_key *a = x, *b = y;
    if (a->len != b->len)
        return a->len > b->len ? -1 : 1;
    return a->index > b->index ? -1 : a->index < b->index;
}

bool bonsai_prune(struct bonsai *b)
{
    if (b->in_point || b->error)
        return false;
    uint32_t k = b->opts.k, n = (uint32_t)b->ninputs;
    struct reduce r;
    reduce_init(&r, k);
    const struct kpath_set **none = xcalloc(k, sizeof *none);
    for (uint32_t i = 0; i < n; i++) {
        const struct bonsai_input *in = &b->inputs[i];
        if (!b->opts.features_only && !scratch_kpaths(b, in->text, in->len)) {
            free(none);
            reduce_free(&r);
            return false;
        }
        reduce_add_input(&r, "", in->len,
                         b->opts.features_only ? none
                                               : (const struct kpath_set *const *)b->scratch_ptrs,
                         in->features, in->nfeatures);
    }
    free(none);
    struct prune_key *order = xmalloc(((size_t)n + 1) * sizeof *order);
    uint32_t *subset = xmalloc(((size_t)n + 1) * sizeof *subset);
    bool *drop = xcalloc((size_t)n + 1, sizeof *drop);
    for (uint32_t i = 0; i < n; i++) {
        order[i] = (struct prune_key){b->inputs[i].len, i};
        subset[i] = i;
    }
    if (n > 1)
        qsort(order, n, sizeof *order, cmp_prune);
    uint32_t nsub = n;
    for (uint32_t o = 0; o < n; o++) {
        uint32_t count, which = order[o].index;
        free(reduce_only(&r, subset, nsub, which, &count));
        if (count)
            continue;
        drop[which] = true;
        uint32_t m = 0;
        for (uint32_t i = 0; i < nsub; i++)
            if (subset[i] != which)
                subset[m++] = subset[i];
        nsub = m;
    }
    reduce_free(&r);
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct bonsai_input *in = &b->inputs[i];
        if (!drop[i]) {
            b->inputs[m++] = *in;
            continue;
        }
        b->pruned++;
        b->pruned_bytes += in->len;
        b->total_bytes -= in->len;
        free(in->text);
        free(in->features);
        derivation_free(&in->tree);
    }
    b->ninputs = m;
    free(order);
    free(subset);
    free(drop);
    /* Recount what the corpus covers (features_only: its j-paths may drop). */
    for (uint32_t j = 0; j < k; j++)
        kpath_set_clear(&b->covered[j]);
    for (uint32_t f = 0; f < b->feature_slots; f++)
        b->feature_seen[f] = false;
    b->features = 0;
    for (size_t i = 0; i < b->ninputs; i++) {
        const struct bonsai_input *in = &b->inputs[i];
        if (!scratch_kpaths(b, in->text, in->len))
            return false;
        for (uint32_t j = 0; j < k; j++)
            kpath_set_union(&b->covered[j], &b->scratch[j]);
        for (uint32_t x = 0; x < in->nfeatures; x++)
            if (!b->feature_seen[in->features[x]]) {
                b->feature_seen[in->features[x]] = true;
                b->features++;
            }
    }
    return true;
}

bool bonsai_step(struct bonsai *b)
{
    if (!bonsai_begin_point(b))
        return false;
    return bonsai_end_point(b) && b->next < b->npoints;
}

bool bonsai_out_of_reach(const struct bonsai *b, uint64_t limit, struct bonsai_reach *out,
                         char **error)
{
    memset(out, 0, sizeof *out);
    uint32_t k = b->opts.k;
    const struct kpath_space *sp = &b->spaces[k - 1];
    const struct kpath_set *cov = &b->covered[k - 1];
    out->uncovered = sp->total - cov->size;
    if (!out->uncovered || sp->total == UINT64_MAX) /* saturated: no ranks to walk */
        return true;
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_KPATH;
    o.k = k;
    o.max_depth = b->opts.max_depth;
    o.max_repetitions = b->opts.max_repetitions;
    struct generator *gen = gen_new(b->graph, &o, error);
    if (!gen)
        return false;
    uint32_t *path = xcalloc(k, sizeof *path);
    for (uint64_t r = 0; r < sp->total && out->examined < limit; r++) {
        if (kpath_set_contains_rank(cov, r))
            continue;
        out->examined++;
        kpath_unrank(sp, r, path);
        uint32_t need = gen_needed_depth(gen, path);
        if (need == UINT32_MAX) {
            out->in_no_tree++;
        } else if (need > b->opts.max_depth) {
            out->out_of_reach++;
            if (need > out->needed_depth)
                out->needed_depth = need;
        }
    }
    free(path);
    gen_free(gen);
    return true;
}
