/* compare: see compare.h. */
#include "gen/compare.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "parse/parse.h"

const char *gen_compare_name(int strategy)
{
    return strategy == COMPARE_RANDOM ? "random" : "kpath";
}

/* One strategy's curve as it is made. */
struct curve {
    struct generator *gen;
    struct kpath_set set;
    size_t cap;          /* of covered and bytes */
};

/* Make one more input of strategy s and count it; false when its generator
 * makes no more. */
static bool curve_next(const struct graph *g, struct curve *cv, struct gen_compare *out, int s)
{
    struct generator *gen = cv->gen;
    size_t i = out->made[s];
    while (gen->ninputs <= i)
        if (!gen_finish_tree(gen) && gen->ninputs <= i)
            return false;
    const struct gen_input *in = &gen->inputs[i];
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct diag_list d = DIAG_LIST_INIT;
    struct kpath_set *sets[1] = {&cv->set};
    if (!parse_kpaths(g, "input", in->text, in->len, &po, sets, 1, NULL, NULL, NULL, &d)) {
        struct derivation t;
        gen_input_tree(gen, i, &t);
        derivation_add_kpaths(&t, &cv->set);
        derivation_free(&t);
    }
    diag_list_free(&d);
    if (i + 2 > cv->cap) {
        size_t cap = cv->cap;
        out->covered[s] = xgrow(out->covered[s], &cap, i + 2, sizeof *out->covered[s]);
        out->bytes[s] = xgrow(out->bytes[s], &cv->cap, i + 2, sizeof *out->bytes[s]);
    }
    out->covered[s][i + 1] = cv->set.size;
    out->bytes[s][i + 1] = out->bytes[s][i] + in->len;
    out->made[s] = i + 1;
    return true;
}

bool gen_compare_run(const struct graph *g, const struct gen_options *opts, size_t n,
                     struct gen_compare *out, char **error)
{
    *out = (struct gen_compare){0};
    out->k = opts->k;
    out->n = n;
    struct kpath_space space;
    if (!kpath_space_init(&space, g, opts->k)) {
        *error = xstrdup("k is out of range");
        return false;
    }
    out->total = space.saturated ? UINT64_MAX : space.total;
    /* past n, a strategy makes inputs only to reach the other's bytes */
    size_t limit = n > SIZE_MAX / 100 ? SIZE_MAX : n * 100;
    struct curve cv[COMPARE_NSTRATEGIES] = {{0}};
    bool ok = true;
    for (int s = 0; s < COMPARE_NSTRATEGIES && ok; s++) {
        struct gen_options o = *opts;
        o.strategy = s == COMPARE_RANDOM ? GEN_RANDOM : GEN_KPATH;
        o.count = (uint32_t)(limit > UINT32_MAX ? UINT32_MAX : limit);
        o.drop_redundant = false;
        o.recurrent = false;
        o.only_path = NULL;
        o.targets = NULL;
        o.ntargets = 0;
        cv[s].cap = n + 1;
        out->covered[s] = xcalloc(cv[s].cap, sizeof *out->covered[s]);
        out->bytes[s] = xcalloc(cv[s].cap, sizeof *out->bytes[s]);
        kpath_set_init(&cv[s].set, &space);
        cv[s].gen = gen_new(g, &o, error);
        if (!cv[s].gen) {
            ok = false;
            break;
        }
        while (out->made[s] < n && curve_next(g, &cv[s], out, s))
            ;
    }
    if (ok) {
        for (int s = 0; s < COMPARE_NSTRATEGIES; s++)
            if (out->bytes[s][out->made[s]] > out->span)
                out->span = out->bytes[s][out->made[s]];
        for (int s = 0; s < COMPARE_NSTRATEGIES; s++)
            while (out->bytes[s][out->made[s]] < out->span && out->made[s] < limit &&
                   curve_next(g, &cv[s], out, s))
                ;
    }
    /* a strategy that made fewer than n inputs stays at its last value */
    for (int s = 0; s < COMPARE_NSTRATEGIES && ok; s++)
        for (size_t i = out->made[s] + 1; i <= n; i++) {
            out->covered[s][i] = out->covered[s][out->made[s]];
            out->bytes[s][i] = out->bytes[s][out->made[s]];
        }
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        if (cv[s].gen)
            gen_free(cv[s].gen);
        if (cv[s].set.sp)
            kpath_set_free(&cv[s].set);
    }
    kpath_space_free(&space);
    if (!ok)
        gen_compare_free(out);
    return ok;
}

uint64_t gen_compare_at_input(const struct gen_compare *c, int strategy, size_t i)
{
    size_t made = c->made[strategy];
    return c->covered[strategy][i < made ? i : made];
}

uint64_t gen_compare_at_bytes(const struct gen_compare *c, int strategy, uint64_t b)
{
    const uint64_t *bytes = c->bytes[strategy];
    size_t lo = 0, hi = c->made[strategy]; /* the answer is in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (bytes[mid] <= b)
            lo = mid;
        else
            hi = mid - 1;
    }
    return c->covered[strategy][lo];
}

void gen_compare_free(struct gen_compare *c)
{
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        free(c->covered[s]);
        c->covered[s] = NULL;
        free(c->bytes[s]);
        c->bytes[s] = NULL;
    }
    c->n = 0;
}
