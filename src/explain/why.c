#include "explain/why.h"

#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "gen/learn.h"
#include "base/xalloc.h"

/* Alternatives with probability 0 on the chain from symbolic node `from`
 * (through its rule node) down to its successor `to`. */
static void zeros_between(const struct graph *g, const double *p, uint32_t from, uint32_t to,
                          struct why_report *r, size_t *cap)
{
    uint32_t top = graph_children(g, from)[0];
    for (uint32_t m = to; m != top;) {
        uint32_t parent = graph_parents(g, m)[0];
        const struct graph_node *pn = &g->nodes[parent];
        if (pn->kind == NODE_ALT) {
            for (uint32_t i = 0; i < pn->nchildren; i++) {
                if (graph_children(g, parent)[i] == m && p[pn->first_child + i] <= 0) {
                    r->zeros = xgrow(r->zeros, cap, r->nzeros + 1, sizeof *r->zeros);
                    r->zeros[r->nzeros++] = (struct why_zero){parent, i};
                }
            }
        }
        m = parent;
    }
}

/* Can `target` be reached from the root without alternatives of probability 0? */
static bool reachable_without_zeros(const struct graph *g, const double *p, uint32_t target)
{
    bool *seen = xcalloc((size_t)g->nnodes + 1, sizeof *seen);
    uint32_t *queue = xmalloc(((size_t)g->nnodes + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    seen[0] = true;
    queue[tail++] = 0;
    bool found = false;
    while (head < tail && !found) {
        uint32_t n = queue[head++];
        found = n == target;
        const struct graph_node *node = &g->nodes[n];
        for (uint32_t i = 0; i < node->nchildren; i++) {
            uint32_t c = graph_children(g, n)[i];
            if (node->kind == NODE_ALT && p[node->first_child + i] <= 0)
                continue;
            if (!seen[c]) {
                seen[c] = true;
                queue[tail++] = c;
            }
        }
    }
    free(seen);
    free(queue);
    return found;
}

/* The longest prefix (from_end false) or suffix that an input covers. */
static void longest_covered(const uint32_t *path, uint32_t k, const struct why_options *o,
                            bool from_end, uint32_t *length, size_t *input)
{
    *length = 0;
    *input = SIZE_MAX;
    for (uint32_t j = k; j-- > 1;) {
        const uint32_t *part = from_end ? path + (k - j) : path;
        for (size_t i = 0; i < o->ninputs; i++) {
            if (kpath_set_contains(&o->inputs[i].sets[j - 1], part)) {
                *length = j;
                *input = i;
                return;
            }
        }
    }
}

/* The generator's smallest input containing the path within `depth` (the
 * k-path generator, one target, shortest close-off). */
static bool build_example(const struct graph *g, const uint32_t *path, uint32_t k,
                          uint32_t depth, const struct pin_set *pins, char **text, size_t *len,
                          uint32_t *tree_depth, uint32_t *derivation_depth, bool *exact)
{
    struct gen_options o;
    gen_options_default(&o);
    o.closeoff = GEN_CLOSE_SHORTEST; /* the smallest input holding the path */
    o.k = k;
    o.max_depth = depth;
    o.only_path = path;
    o.pins = pins;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    free(error);
    if (!gen)
        return false;
    gen_run(gen);
    bool made = gen->ninputs > 0;
    *exact = gen_smallest_exact(gen);
    if (made) {
        *text = xmemdup(gen->inputs[0].text, gen->inputs[0].len + 1);
        *len = gen->inputs[0].len;
        *tree_depth = gen->inputs[0].depth;
        *derivation_depth = gen->inputs[0].derivation_depth;
    }
    gen_free(gen);
    return made;
}

void why_explain(const struct graph *g, const uint32_t *path, uint32_t k,
                 const struct why_options *opts, struct why_report *r)
{
    memset(r, 0, sizeof *r);
    r->covered_by = r->prefix_input = r->suffix_input = SIZE_MAX;

    /* A path under the pins is measured, and its example built, in a pinned
     * context, as C (workspace_cover_path) makes it: so the example is the
     * input C adds. */
    r->outside_pins = opts->pins && opts->pins->len && !pin_set_covers_path(opts->pins, path);
    const struct pin_set *context =
        opts->pins && opts->pins->len && !r->outside_pins ? opts->pins : NULL;

    /* Depth: the generator's own measure. */
    struct gen_options go;
    gen_options_default(&go);
    go.closeoff = GEN_CLOSE_SHORTEST; /* as build_example and C make it */
    go.k = k;
    go.only_path = path;
    go.pins = context;
    char *error = NULL;
    struct generator *gen = gen_new(g, &go, &error);
    free(error);
    r->needed_depth = gen ? gen_needed_depth(gen, path) : UINT32_MAX;
    gen_free(gen);
    r->too_deep = r->needed_depth > opts->max_depth;

    /* Probabilities. */
    double *own = NULL;
    const double *p = opts->probabilities;
    if (!p) {
        own = xmalloc(probability_table_size(g) * sizeof *own);
        probabilities_from_grammar(g, own);
        p = own;
    }
    size_t cap = 0;
    for (uint32_t i = 1; i < k; i++)
        zeros_between(g, p, path[i - 1], path[i], r, &cap);
    r->start_needs_zero = !reachable_without_zeros(g, p, path[0]);
    free(own);

    for (size_t i = 0; i < opts->ninputs && r->covered_by == SIZE_MAX; i++)
        if (kpath_set_contains(&opts->inputs[i].sets[k - 1], path))
            r->covered_by = i;
    longest_covered(path, k, opts, false, &r->prefix, &r->prefix_input);
    longest_covered(path, k, opts, true, &r->suffix, &r->suffix_input);

    if (r->needed_depth != UINT32_MAX) {
        r->example_within_limit = !r->too_deep;
        uint32_t limit = r->too_deep ? r->needed_depth : opts->max_depth;
        bool exact = false, unlimited_exact;
        build_example(g, path, k, limit, context, &r->example, &r->example_len,
                      &r->example_depth, &r->example_derivation_depth, &exact);
        /* Within the limit the generator's input is exact when its size
         * table is affordable (size_table.h).  Without a depth limit its
         * way is the smallest one (each leg's smallest way, the lightest
         * pin): when that input fits the limit, it is the example and the
         * example is the smallest; otherwise it is a lower bound. */
        char *text = NULL;
        uint32_t derivation;
        if (r->example && build_example(g, path, k, WHY_NO_DEPTH_LIMIT, context, &text,
                                        &r->smallest_len, &r->smallest_depth, &derivation,
                                        &unlimited_exact)) {
            r->example_smallest = exact || r->smallest_depth <= limit;
            free(text);
        }
    }
}

void why_report_free(struct why_report *r)
{
    free(r->zeros);
    free(r->example);
    memset(r, 0, sizeof *r);
}
