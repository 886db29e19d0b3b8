/* skip_paths: hiding the k-paths of an ANTLR import's skip rules.  See
 * skip_paths.h for the contract. */
#include "graph/skip_paths.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

bool skip_paths_is_skip_rule(const char *name)
{
    /* The importer's names (import_antlr.c): `_skip`, and `_skip_M` for a
     * lexer mode M; a grammar's own rule cannot start with "_" in ANTLR. */
    return strcmp(name, "_skip") == 0 || strncmp(name, "_skip_", 6) == 0;
}

static bool is_skip_ref(const struct graph *g, uint32_t id)
{
    const struct expr *e = g->nodes[id].expr;
    return g->nodes[id].kind == NODE_REF && e && e->kind == EXPR_REF &&
           skip_paths_is_skip_rule(e->u.ref.name);
}

void skip_paths_init(struct skip_paths *sp, const struct graph *g)
{
    sp->hidden = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *sp->hidden);
    sp->nhidden = 0;
    bool any = false;
    for (uint32_t i = 0; i < g->nnodes && !any; i++)
        any = is_skip_ref(g, i);
    if (!any || g->nnodes == 0)
        return;
    bool *seen = xcalloc(g->nnodes, sizeof *seen);
    uint32_t *queue = xmalloc(g->nnodes * sizeof *queue);
    uint32_t head = 0, tail = 0;
    if (!is_skip_ref(g, 0)) {
        seen[0] = true;
        queue[tail++] = 0;
    }
    while (head < tail) {
        uint32_t n = queue[head++];
        const uint32_t *kids = graph_children(g, n);
        for (uint32_t c = 0; c < g->nodes[n].nchildren; c++) {
            uint32_t kid = kids[c];
            if (seen[kid] || is_skip_ref(g, kid))
                continue;
            seen[kid] = true;
            queue[tail++] = kid;
        }
    }
    for (uint32_t i = 0; i < g->nnodes; i++) {
        sp->hidden[i] = !seen[i];
        sp->nhidden += !seen[i];
    }
    free(queue);
    free(seen);
}

void skip_paths_free(struct skip_paths *sp)
{
    free(sp->hidden);
    sp->hidden = NULL;
    sp->nhidden = 0;
}

bool skip_paths_hides(const struct skip_paths *sp, const uint32_t *path, uint32_t k)
{
    if (sp->nhidden == 0)
        return false;
    for (uint32_t i = 0; i < k; i++)
        if (sp->hidden[path[i]])
            return true;
    return false;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t skip_paths_count_shown(const struct skip_paths *sp, const struct kpath_space *space,
                                const bool *first_ok)
{
    const struct graph *g = space->graph;
    /* c[n]: the shown j-paths starting at n, for j = 1 .. k in turn. */
    uint64_t *c = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *c);
    uint64_t *next = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *next);
    for (uint32_t s = 0; s < g->nsymbolic; s++)
        c[g->symbolic[s]] = !sp->hidden[g->symbolic[s]];
    for (uint32_t j = 2; j <= space->k; j++) {
        for (uint32_t s = 0; s < g->nsymbolic; s++) {
            uint32_t n = g->symbolic[s];
            uint64_t sum = 0;
            if (!sp->hidden[n]) {
                const uint32_t *succ = graph_successors(g, n);
                for (uint32_t i = 0; i < g->nodes[n].nsucc; i++)
                    sum = sat_add(sum, c[succ[i]]);
            }
            next[n] = sum;
        }
        uint64_t *t = c;
        c = next;
        next = t;
    }
    uint64_t total = 0;
    for (uint32_t s = 0; s < g->nsymbolic; s++)
        if (!first_ok || first_ok[g->symbolic[s]])
            total = sat_add(total, c[g->symbolic[s]]);
    free(c);
    free(next);
    return total;
}
