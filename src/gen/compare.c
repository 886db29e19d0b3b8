/* compare: see compare.h. */
#include "gen/compare.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "parse/parse.h"

const char *gen_compare_name(int strategy)
{
    return strategy == COMPARE_RANDOM ? "random" : "kpath";
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
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++)
        out->covered[s] = xcalloc(n + 1, sizeof *out->covered[s]);
    bool ok = true;
    for (int s = 0; s < COMPARE_NSTRATEGIES && ok; s++) {
        struct gen_options o = *opts;
        o.strategy = s == COMPARE_RANDOM ? GEN_RANDOM : GEN_KPATH;
        o.count = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
        o.drop_redundant = false;
        o.recurrent = false;
        o.only_path = NULL;
        o.targets = NULL;
        o.ntargets = 0;
        struct generator *gen = gen_new(g, &o, error);
        if (!gen) {
            ok = false;
            break;
        }
        gen_run(gen);
        struct kpath_set set;
        kpath_set_init(&set, &space);
        size_t made = gen->ninputs < n ? gen->ninputs : n;
        for (size_t i = 0; i < made; i++) {
            const struct gen_input *in = &gen->inputs[i];
            struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
            struct diag_list d = DIAG_LIST_INIT;
            struct kpath_set *sets[1] = {&set};
            if (!parse_kpaths(g, "input", in->text, in->len, &po, sets, 1, NULL, NULL, NULL, &d)) {
                struct derivation t;
                gen_input_tree(gen, i, &t);
                derivation_add_kpaths(&t, &set);
                derivation_free(&t);
            }
            diag_list_free(&d);
            out->covered[s][i + 1] = set.size;
        }
        for (size_t i = made; i < n; i++)
            out->covered[s][i + 1] = set.size;
        out->made[s] = made;
        kpath_set_free(&set);
        gen_free(gen);
    }
    kpath_space_free(&space);
    if (!ok)
        gen_compare_free(out);
    return ok;
}

void gen_compare_free(struct gen_compare *c)
{
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        free(c->covered[s]);
        c->covered[s] = NULL;
    }
    c->n = 0;
}
