#include "suite/suite_min.h"

#include <stdlib.h>
#include <string.h>

#include "graph/derivation.h"
#include "algo/setcover.h"
#include "gen/size_table.h"
#include "suite/suite_shrink.h"
#include "suite/suite_split.h"
#include "base/xalloc.h"

/* The close-offs whose suites join greedy's as candidates. */
static const enum gen_closeoff extra_closeoffs[] = {GEN_CLOSE_SHORTEST, GEN_CLOSE_RANDOM};
#define NEXTRA (sizeof extra_closeoffs / sizeof extra_closeoffs[0])

bool suite_min_applies(const struct generator *gen)
{
    const struct gen_options *o = &gen->opts;
    return o->strategy == GEN_KPATH && o->closeoff == GEN_CLOSE_GREEDY && o->drop_redundant &&
           !o->recurrent && !o->only_path && gen->phase == GEN_PHASE_DONE && !gen->error &&
           !gen_keeps_inputs(gen); /* inputs that may have streamed stay as they are */
}

static uint64_t suite_bytes(const struct generator *gen)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < gen->ninputs; i++)
        sum += gen->inputs[i].len;
    return sum;
}

/* The counted ranks of a finished input (see gen_tree_ranks). */
static size_t input_ranks(const struct generator *gen, size_t i, bool only_targets,
                          uint64_t **ranks, size_t *cap)
{
    struct derivation tree;
    gen_input_tree(gen, i, &tree);
    size_t n = gen_tree_ranks(gen, &tree, only_targets, ranks, cap);
    derivation_free(&tree);
    return n;
}

/* What each input newly covers, in the new order, as gen_run would have
 * counted it; k-paths the chosen inputs hold beyond the greedy suite's join
 * gen->covered. */
static void recount(struct generator *gen)
{
    uint32_t k = gen->opts.k;
    uint8_t *seen = xcalloc((size_t)gen->space.total + 1, 1);
    uint64_t *ranks = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct gen_input *in = &gen->inputs[i];
        size_t n = input_ranks(gen, i, false, &ranks, &cap);
        gen_input_count_new(gen, in, ranks, n, seen);
        in->round = 1;
        for (uint32_t m = 0; m < in->nnew; m++)
            kpath_set_add(&gen->covered, in->new_paths + (size_t)m * k);
    }
    free(ranks);
    free(seen);
}

/* Tight candidates, for fewer bytes at the same count: for each input X of
 * greedy's suite, the k-paths no other input of it holds, covered again by
 * a greedy run that targets them alone (subset targeting: its close-off
 * counts only them, so it spends nothing on what the other inputs hold).
 * Such an input can take X's place in greedy's cover, often with fewer
 * bytes.  Each run is freed as soon as its inputs are moved out, with the
 * ranks of every k-path each holds (not only its targets).  Nothing is
 * made when the runs would cost too much: more than TIGHT_BUDGET greedy
 * inputs x graph nodes (each run is a generator of its own, about one
 * target's worth of work). */
#define TIGHT_BUDGET (UINT64_C(1) << 20)
struct tight_input {
    struct gen_input input; /* owned, moved out of a run */
    uint64_t *ranks;        /* owned; ascending */
    size_t nranks;
};
struct tight {
    struct tight_input *inputs; /* owned */
    size_t n, cap;
};

static void tight_runs(const struct generator *gen, struct tight *out)
{
    memset(out, 0, sizeof *out);
    if ((uint64_t)gen->ninputs * gen->graph->nnodes > TIGHT_BUDGET)
        return;
    uint64_t total = gen->space.total;
    uint32_t k = gen->opts.k;
    uint8_t *holders = xcalloc((size_t)total + 1, 1); /* 0, 1, 2: two or more */
    uint64_t *ranks = NULL;
    size_t cap = 0, tcap = 0;
    uint32_t *targets = NULL;
    for (size_t i = 0; i < gen->ninputs; i++) {
        size_t n = input_ranks(gen, i, true, &ranks, &cap);
        for (size_t j = 0; j < n; j++)
            holders[ranks[j]] += holders[ranks[j]] < 2;
    }
    for (size_t i = 0; i < gen->ninputs; i++) {
        size_t n = input_ranks(gen, i, true, &ranks, &cap), own = 0;
        for (size_t j = 0; j < n; j++) {
            if (holders[ranks[j]] != 1)
                continue;
            targets = xgrow(targets, &tcap, (own + 1) * k, sizeof *targets);
            kpath_unrank(&gen->space, ranks[j], targets + own++ * k);
        }
        if (!own)
            continue;
        struct gen_options o = gen->opts;
        o.targets = targets;
        o.ntargets = own;
        o.only_path = NULL;
        o.drop_redundant = true;
        char *error = NULL;
        struct generator *run = gen_new(gen->graph, &o, &error);
        free(error);
        if (!run)
            continue;
        gen_run(run);
        for (size_t j = 0; j < run->ninputs; j++) {
            size_t m = input_ranks(run, j, false, &ranks, &cap);
            out->inputs = xgrow(out->inputs, &out->cap, out->n + 1, sizeof *out->inputs);
            struct tight_input *ti = &out->inputs[out->n++];
            ti->input = run->inputs[j];
            memset(&run->inputs[j], 0, sizeof run->inputs[j]);
            ti->ranks = xmemdup(ranks, m * sizeof *ranks);
            ti->nranks = m;
        }
        gen_free(run);
    }
    free(targets);
    free(ranks);
    free(holders);
}

static void tight_free(struct tight *t)
{
    for (size_t i = 0; i < t->n; i++) {
        gen_input_free(&t->inputs[i].input);
        free(t->inputs[i].ranks);
    }
    free(t->inputs);
}

/* A deep copy of a finished input (the candidates stay their owners'). */
static void input_copy(const struct generator *gen, const struct gen_input *in,
                       struct gen_input *out)
{
    *out = *in;
    out->tree.bytes = in->tree.len ? xmemdup(in->tree.bytes, in->tree.len) : NULL;
    out->text = xmemdup(in->text, in->len + 1);
    out->new_paths = NULL;
    out->nnew = 0;
    out->target = in->target ? xmemdup(in->target, gen->opts.k * sizeof *in->target) : NULL;
}

static void free_suite(struct gen_input *suite, size_t n)
{
    for (size_t j = 0; suite && j < n; j++)
        gen_input_free(&suite[j]);
    free(suite);
}

/* Shrink a suite (suite_shrink), graft inputs into others (suite_graft;
 * then shrink again), then keep a set cover of it: the fewest
 * inputs, then bytes, that hold every k-path the suite holds (an edit may
 * add k-paths that make another input redundant).  *n shrinks with it. */
static void shrink_and_cover(const struct generator *gen, const struct size_table *sizes,
                             struct gen_input *suite, size_t *n, struct suite_shrink_stats *st,
                             struct suite_shrink_stats *grafts)
{
    suite_shrink(gen, sizes, suite, *n, SUITE_SHRINK_BUDGET, st);
    suite_graft(gen, suite, n, SUITE_SHRINK_BUDGET, grafts);
    if (grafts->kept) { /* the hosts may shrink further now */
        struct suite_shrink_stats again;
        suite_shrink(gen, sizes, suite, *n, SUITE_SHRINK_BUDGET, &again);
        st->work += again.work;
        st->trials += again.trials;
        st->kept += again.kept;
        st->budget_spent = st->budget_spent || again.budget_spent;
    }
    if (*n < 2)
        return;
    uint32_t **elements = xcalloc(*n, sizeof *elements);
    uint32_t *nelems = xcalloc(*n, sizeof *nelems);
    uint64_t *cost = xmalloc(*n * sizeof *cost);
    uint32_t *initial = xmalloc(*n * sizeof *initial);
    uint64_t *ranks = NULL;
    size_t cap = 0;
    for (size_t j = 0; j < *n; j++) {
        struct derivation tree;
        derivation_unpack(&suite[j].tree, gen->graph, &tree);
        size_t m = gen_tree_ranks(gen, &tree, false, &ranks, &cap);
        derivation_free(&tree);
        elements[j] = xmalloc((m + 1) * sizeof *elements[j]);
        for (size_t i = 0; i < m; i++)
            elements[j][i] = (uint32_t)ranks[i];
        nelems[j] = (uint32_t)m;
        cost[j] = suite[j].len;
        initial[j] = (uint32_t)j;
    }
    free(ranks);
    struct setcover_instance inst = {
        .ncandidates = (uint32_t)*n, .nelements = (uint32_t)gen->space.total, .cost = cost,
        .elements = (const uint32_t *const *)elements, .nelems = nelems,
    };
    struct setcover_options so;
    setcover_options_default(&so);
    so.initial = initial;
    so.ninitial = (uint32_t)*n;
    struct setcover_result r;
    setcover_solve(&inst, &so, &r);
    /* chosen is increasing: compact in place, free the rest. */
    size_t kept = 0;
    for (size_t j = 0, c = 0; j < *n; j++) {
        if (c < r.nchosen && r.chosen[c] == j) {
            suite[kept++] = suite[j];
            c++;
        } else {
            gen_input_free(&suite[j]);
        }
    }
    *n = kept;
    setcover_result_free(&r);
    for (size_t j = 0; j < (size_t)inst.ncandidates; j++)
        free(elements[j]);
    free(elements);
    free(nelems);
    free(cost);
    free(initial);
}

void suite_min_run(struct generator *gen, struct suite_min_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->before_inputs = rep->after_inputs = gen->ninputs;
    rep->before_bytes = rep->after_bytes = suite_bytes(gen);
    rep->kpaths = gen->space.saturated ? UINT64_MAX : gen->space.total;
    if (!suite_min_applies(gen))
        return;
    if (gen->space.saturated || gen->space.total > SUITE_MIN_MAX_KPATHS) {
        rep->outcome = SUITE_MIN_TOO_BIG;
        return;
    }
    rep->outcome = SUITE_MIN_DONE;
    rep->candidates = gen->ninputs;
    if (gen->ninputs < 1)
        return;

    /* The other close-offs' whole suites, same options and seed. */
    struct generator *extra[NEXTRA] = {0};
    for (size_t x = 0; x < NEXTRA; x++) {
        struct gen_options o = gen->opts;
        o.closeoff = extra_closeoffs[x];
        o.drop_redundant = false;
        /* Packing bounded: no candidate packs more than greedy may (the
         * shortest close-off's inputs are each the smallest for a target). */
        if (o.pack_size && o.pack_size < o.max_size)
            o.max_size = o.pack_size;
        char *error = NULL;
        extra[x] = gen_new(gen->graph, &o, &error);
        /* The same options made gen: fails only under a packing bound
         * smaller than the grammar's smallest tree; then no candidates. */
        free(error);
        if (extra[x])
            gen_run(extra[x]);
    }
    struct tight tight;
    tight_runs(gen, &tight);

    /* Candidate c: greedy's inputs first, then the shortest suite's, the
     * tight runs' (owner NULL), and the random suite's.  Two pools,
     * prefixes of the candidates: up to the tight runs' inputs
     * (pool_end[0]), and all. */
    size_t ncand = gen->ninputs + tight.n, pool_end[NEXTRA];
    for (size_t x = 0; x < NEXTRA; x++) {
        ncand += extra[x] ? extra[x]->ninputs : 0;
        if (x == 0)
            pool_end[0] = ncand;
    }
    pool_end[1] = ncand;
    struct gen_input **cand = xmalloc((ncand + 1) * sizeof *cand);
    const struct generator **owner = xmalloc((ncand + 1) * sizeof *owner);
    size_t *index = xmalloc((ncand + 1) * sizeof *index);
    size_t c = 0;
    for (size_t i = 0; i < gen->ninputs; i++, c++) {
        cand[c] = &gen->inputs[i];
        owner[c] = gen;
        index[c] = i;
    }
    for (size_t x = 0; x < NEXTRA; x++) {
        for (size_t i = 0; extra[x] && i < extra[x]->ninputs; i++, c++) {
            cand[c] = &extra[x]->inputs[i];
            owner[c] = extra[x];
            index[c] = i;
        }
        for (size_t i = 0; x == 0 && i < tight.n; i++, c++) {
            cand[c] = &tight.inputs[i].input;
            owner[c] = NULL;
            index[c] = i;
        }
    }

    /* Elements: the k-paths the greedy suite covers (by rank). */
    uint64_t total = gen->space.total;
    bool *needed = xcalloc((size_t)total + 1, sizeof *needed);
    uint32_t **elements = xcalloc(ncand + 1, sizeof *elements);
    uint32_t *nelems = xcalloc(ncand + 1, sizeof *nelems);
    uint64_t *cost = xmalloc((ncand + 1) * sizeof *cost);
    uint64_t *ranks = NULL;
    size_t cap = 0;
    for (c = 0; c < ncand; c++) {
        /* A tight input counts with every k-path it holds (its run
         * targeted a few of gen's; the filter below keeps gen's). */
        size_t n = owner[c] ? input_ranks(owner[c], index[c], true, &ranks, &cap)
                            : tight.inputs[index[c]].nranks;
        const uint64_t *r = owner[c] ? ranks : tight.inputs[index[c]].ranks;
        elements[c] = xmalloc((n + 1) * sizeof *elements[c]);
        for (size_t j = 0; j < n; j++) {
            if (c < gen->ninputs)
                needed[r[j]] = true;
            if (needed[r[j]])
                elements[c][nelems[c]++] = (uint32_t)r[j];
        }
        cost[c] = cand[c]->len;
    }
    free(ranks);
    uint32_t *initial = xmalloc((gen->ninputs + 1) * sizeof *initial);
    for (size_t i = 0; i < gen->ninputs; i++)
        initial[i] = (uint32_t)i;
    /* One cover per pool: greedy's and the shortest suite's inputs, then
     * the random suite's too (the pools are prefixes of the candidates).
     * Each is shrunk (suite_shrink: smaller trees, the same k-paths) and
     * covered again (what the shrinking made redundant goes).  Each is never
     * worse than greedy's suite in inputs, nor in bytes with as many; the
     * pool with random inputs often has fewer inputs but more bytes, and is
     * taken only when its bytes are no more than greedy's. */
    struct size_table *sizes = size_table_new(gen->graph, gen->opts.max_depth);
    struct gen_input *best = NULL;
    size_t nbest = 0;
    uint64_t best_bytes = 0;
    for (size_t x = 0; x < NEXTRA; x++) {
        struct setcover_instance inst = {
            .ncandidates = (uint32_t)pool_end[x], .nelements = (uint32_t)total, .cost = cost,
            .elements = (const uint32_t *const *)elements, .nelems = nelems,
        };
        struct setcover_options so;
        setcover_options_default(&so);
        so.initial = initial;
        so.ninitial = (uint32_t)gen->ninputs;
        struct setcover_result r;
        setcover_solve(&inst, &so, &r);
        size_t n = r.nchosen;
        struct gen_input *suite = xcalloc(n + 1, sizeof *suite);
        for (size_t j = 0; j < n; j++)
            input_copy(gen, cand[r.chosen[j]], &suite[j]);
        bool optimal = r.optimal;
        setcover_result_free(&r);
        struct suite_shrink_stats st, grafts;
        shrink_and_cover(gen, sizes, suite, &n, &st, &grafts);
        uint64_t bytes = 0;
        for (size_t j = 0; j < n; j++)
            bytes += suite[j].len;
        bool within = bytes <= rep->before_bytes;
        bool better = !best || n < nbest || (n == nbest && bytes < best_bytes);
        if (within && better) {
            free_suite(best, nbest);
            best = suite, nbest = n, best_bytes = bytes;
            rep->candidates = pool_end[x];
            rep->optimal = optimal;
            rep->shrink = st;
            rep->grafts = grafts;
        } else {
            free_suite(suite, n);
        }
    }
    size_table_free(sizes);

    if (!best) { /* each cover had fewer inputs but more bytes: greedy's stays */
        nbest = gen->ninputs;
        best = xcalloc(nbest + 1, sizeof *best);
        for (size_t j = 0; j < nbest; j++)
            input_copy(gen, &gen->inputs[j], &best[j]);
        rep->candidates = ncand;
    }

    /* Bounded packing: inputs that are a list of parts split into them
     * where that costs no bytes (suite_split.h). */
    rep->unsplit_inputs = nbest;
    if (gen->opts.pack_size)
        rep->split = suite_split(gen, &best, &nbest);

    /* The chosen suite (copies) replaces gen's, in candidate order (greedy's
     * first). */
    free_suite(gen->inputs, gen->ninputs);
    gen->inputs = best;
    gen->ninputs = nbest;
    gen->inputs_cap = nbest + 1;
    recount(gen);
    rep->after_inputs = gen->ninputs;
    rep->after_bytes = suite_bytes(gen);

    free(initial);
    for (c = 0; c < ncand; c++)
        free(elements[c]);
    free(elements);
    free(nelems);
    free(cost);
    free(needed);
    free(index);
    free(owner);
    free(cand);
    for (size_t x = 0; x < NEXTRA; x++)
        gen_free(extra[x]);
    tight_free(&tight);
}
