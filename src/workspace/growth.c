/* growth: see growth.h. */
#include "workspace/growth.h"

#include <stdlib.h>

#include "graph/derivation.h"
#include "graph/expansion.h"
#include "graph/kpath.h"
#include "parse/parse.h"
#include "base/xalloc.h"

void growth_compute(const struct workspace *ws, uint32_t kmax, struct coverage_growth *out)
{
    size_t n = ws->ninputs;
    out->kmax = kmax;
    out->ninputs = n;
    out->total = xcalloc(kmax, sizeof *out->total);
    out->covered = xcalloc((size_t)kmax * (n + 1), sizeof *out->covered);
    out->expansions = xcalloc(n + 1, sizeof *out->expansions);
    out->expansions_total = expansion_total(ws->graph);
    struct expansion_set used;
    expansion_set_init(&used, ws->graph);
    struct kpath_space *spaces = xcalloc(kmax, sizeof *spaces);
    struct kpath_set *sets = xcalloc(kmax, sizeof *sets);
    struct kpath_set **set_ptrs = xcalloc(kmax, sizeof *set_ptrs);
    for (uint32_t j = 0; j < kmax; j++) {
        /* kmax is at most KPATH_MAX_K, so the space always initializes */
        kpath_space_init(&spaces[j], ws->graph, j + 1);
        out->total[j] = spaces[j].saturated ? UINT64_MAX : spaces[j].total;
        kpath_set_init(&sets[j], &spaces[j]);
        set_ptrs[j] = &sets[j];
    }
    for (size_t i = 0; i < n; i++) {
        const struct ws_input *in = &ws->inputs[i];
        if (in->forest) {
            forest_add_kpaths_many(in->forest, set_ptrs, kmax);
            forest_add_expansions(in->forest, &used);
        } else if (in->has_tree) {
            for (uint32_t j = 0; j < kmax; j++)
                derivation_add_kpaths(&in->tree, &sets[j]);
            expansion_add_tree(&used, &in->tree);
        }
        out->expansions[i + 1] = used.count;
        for (uint32_t j = 0; j < kmax; j++)
            out->covered[(size_t)j * (n + 1) + i + 1] = sets[j].size;
    }
    for (uint32_t j = 0; j < kmax; j++) {
        kpath_set_free(&sets[j]);
        kpath_space_free(&spaces[j]);
    }
    free(set_ptrs);
    free(sets);
    free(spaces);
    expansion_set_free(&used);
}

void growth_free(struct coverage_growth *g)
{
    free(g->total);
    free(g->covered);
    free(g->expansions);
    g->total = g->covered = g->expansions = NULL;
    g->kmax = 0;
    g->ninputs = 0;
}

uint64_t growth_covered(const struct coverage_growth *g, uint32_t k, size_t i)
{
    return g->covered[(size_t)(k - 1) * (g->ninputs + 1) + i];
}

double growth_fraction(const struct coverage_growth *g, uint32_t k, size_t i)
{
    uint64_t total = g->total[k - 1], covered = growth_covered(g, k, i);
    if (total == 0 || covered >= total)
        return 1.0;
    return (double)covered / (double)total;
}
