#include "bonsai.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "input_kpaths.h"
#include "strbuf.h"
#include "xalloc.h"

void bonsai_options_default(struct bonsai_options *o)
{
    o->k = GEN_DEFAULT_K;
    o->max_depth = BONSAI_DEFAULT_MAX_DEPTH;
    o->max_repetitions = BONSAI_DEFAULT_MAX_REPETITIONS;
    o->max_bytes = BONSAI_DEFAULT_MAX_BYTES;
    o->random_count = BONSAI_DEFAULT_RANDOM_COUNT;
    o->seed = GEN_DEFAULT_SEED;
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
    b->scratch = xcalloc(o->k, sizeof *b->scratch);
    b->scratch_ptrs = xcalloc(o->k, sizeof *b->scratch_ptrs);
    for (uint32_t j = 0; j < o->k; j++) {
        kpath_space_init(&b->spaces[j], g, j + 1);
        kpath_set_init(&b->covered[j], &b->spaces[j]);
        kpath_set_init(&b->scratch[j], &b->spaces[j]);
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

void bonsai_free(struct bonsai *b)
{
    if (!b)
        return;
    for (uint32_t i = 0; i < b->npoints; i++)
        free(b->points[i].covered);
    free(b->points);
    for (size_t i = 0; i < b->ninputs; i++) {
        free(b->inputs[i].text);
        dtree_free(&b->inputs[i].tree);
    }
    free(b->inputs);
    for (uint32_t j = 0; j < b->opts.k; j++) {
        kpath_set_free(&b->covered[j]);
        kpath_set_free(&b->scratch[j]);
        kpath_space_free(&b->spaces[j]);
    }
    free(b->covered);
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

/* Keep the input when it fits the point and adds a j-path for some j.  Its
 * k-paths are those of its text, parsed (every derivation tree of an
 * ambiguous text counts, as in kpath coverage), not only of the tree the
 * generator built.  False (b->error set) when the text does not parse. */
static bool consider(struct bonsai *b, uint32_t point, const struct gen_input *in, bool random)
{
    struct bonsai_point *p = &b->points[point];
    p->generated++;
    if (in->len > p->max_bytes || in->depth > p->depth)
        return true;
    uint32_t k = b->opts.k;
    for (uint32_t j = 0; j < k; j++) {
        kpath_set_clear(&b->scratch[j]);
        b->scratch_ptrs[j] = &b->scratch[j];
    }
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct diag_list diags = DIAG_LIST_INIT;
    if (!input_kpaths_text(b->graph, "generated input", in->text, in->len, &po, b->scratch_ptrs,
                           k, NULL, NULL, &diags)) {
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
    bool adds = false;
    for (uint32_t j = 0; j < k && !adds; j++) {
        struct novelty n = {&b->covered[j], false};
        kpath_set_foreach(&b->scratch[j], find_new, &n);
        adds = n.found;
    }
    if (!adds)
        return true;
    uint64_t added = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint64_t before = b->covered[j].size;
        kpath_set_union(&b->covered[j], &b->scratch[j]);
        added += b->covered[j].size - before;
    }
    b->inputs = xgrow(b->inputs, &b->inputs_cap, b->ninputs + 1, sizeof *b->inputs);
    char *text = xmalloc(in->len + 1);
    memcpy(text, in->text, in->len + 1);
    struct bonsai_input *kept = &b->inputs[b->ninputs++];
    *kept = (struct bonsai_input){.text = text, .len = in->len, .point = point,
                                  .random = random, .depth = in->depth, .new_paths = added};
    dtree_copy(&kept->tree, &in->tree);
    b->total_bytes += in->len;
    p->kept++;
    p->kept_bytes += in->len;
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
        kpath_set_foreach(&b->covered[b->opts.k - 1], mark_one, gen);
    gen_run(gen);
    if (gen->error) {
        free(b->error);
        b->error = xstrdup(gen->error);
        gen_free(gen);
        return NULL;
    }
    return gen;
}

struct candidate {
    const struct gen_input *in;
    bool random;
    size_t order; /* generation order, for a stable sort */
};

static int cmp_candidate(const void *x, const void *y)
{
    const struct candidate *a = x, *b = y;
    if (a->in->len != b->in->len)
        return a->in->len < b->in->len ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

bool bonsai_step(struct bonsai *b)
{
    if (b->next >= b->npoints || b->error)
        return false;
    uint32_t point = b->next++;
    /* Both generators' inputs are considered together, shortest first
     * (small first within a point too), so a short input is kept before a
     * long one that would cover the same. */
    struct generator *gens[2] = {run_generator(b, point, GEN_KPATH), NULL};
    bool ok = gens[0] != NULL;
    if (ok && b->opts.random_count)
        ok = (gens[1] = run_generator(b, point, GEN_RANDOM)) != NULL;
    size_t n = 0;
    for (int g = 0; g < 2; g++)
        n += gens[g] ? gens[g]->ninputs : 0;
    struct candidate *cands = xmalloc((n + 1) * sizeof *cands);
    n = 0;
    for (int g = 0; g < 2; g++)
        for (size_t i = 0; gens[g] && i < gens[g]->ninputs; i++, n++)
            cands[n] = (struct candidate){&gens[g]->inputs[i], g == 1, n};
    if (ok) {
        qsort(cands, n, sizeof *cands, cmp_candidate);
        for (size_t i = 0; ok && i < n; i++)
            ok = consider(b, point, cands[i].in, cands[i].random);
    }
    free(cands);
    gen_free(gens[0]);
    gen_free(gens[1]);
    struct bonsai_point *p = &b->points[point];
    p->covered = xcalloc(b->opts.k, sizeof *p->covered);
    for (uint32_t j = 0; j < b->opts.k; j++)
        p->covered[j] = b->covered[j].size;
    return ok && b->next < b->npoints;
}
