#include "graph/pin.h"

#include <stdlib.h>
#include <string.h>

#include "graph/kpath.h"
#include "base/saturate.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* The nodes at or below a pin's last node (a breadth-first search down). */
static bool *reach_below(const struct graph *g, uint32_t last)
{
    bool *seen = xcalloc((size_t)g->nnodes + 1, sizeof *seen);
    uint32_t *queue = xmalloc(((size_t)g->nnodes + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    seen[last] = true;
    queue[tail++] = last;
    while (head < tail) {
        uint32_t n = queue[head++];
        for (uint32_t c = 0; c < g->nodes[n].nchildren; c++) {
            uint32_t child = graph_children(g, n)[c];
            if (!seen[child]) {
                seen[child] = true;
                queue[tail++] = child;
            }
        }
    }
    free(queue);
    return seen;
}

bool pin_set_add(struct pin_set *set, const struct graph *g, const char *text,
                 struct diag_list *diags)
{
    uint32_t n = 0;
    size_t errors = diags->errors;
    uint32_t *nodes = graph_parse_path(g, text, &n, diags);
    bool ok = nodes != NULL;
    if (!nodes && diags->errors == errors)
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "pin: no node given");
    for (uint32_t i = 0; ok && i < n; i++) {
        if (!node_kind_is_symbolic(g->nodes[nodes[i]].kind)) {
            struct strbuf name = STRBUF_INIT;
            graph_node_name(g, nodes[i], &name);
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "pin '%s': '%s' is a synthetic node; a pin is a path of symbolic nodes",
                     text, strbuf_str(&name));
            strbuf_free(&name);
            ok = false;
        }
    }
    if (ok && n > 1 && !kpath_is_valid(g, nodes, (uint32_t)n)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                 "pin '%s' is not a path: each node must be reached from the one before "
                 "through synthetic nodes only", text);
        ok = false;
    }
    if (!ok) {
        free(nodes);
        return false;
    }
    set->pins = xgrow(set->pins, &set->cap, set->len + 1, sizeof *set->pins);
    struct pin *pin = &set->pins[set->len++];
    *pin = (struct pin){nodes, (uint32_t)n, reach_below(g, nodes[n - 1])};
    if (!set->below)
        set->below = xcalloc((size_t)g->nnodes + 1, sizeof *set->below);
    for (uint32_t i = 0; i < g->nnodes; i++)
        set->below[i] = set->below[i] || (pin->below[i] && node_kind_is_symbolic(g->nodes[i].kind));
    return true;
}

bool pin_set_remove(struct pin_set *set, const struct graph *g, size_t index)
{
    if (index >= set->len)
        return false;
    free(set->pins[index].nodes);
    free(set->pins[index].below);
    memmove(&set->pins[index], &set->pins[index + 1],
            (set->len - index - 1) * sizeof *set->pins);
    set->len--;
    if (set->len == 0) {
        free(set->below);
        set->below = NULL;
        return true;
    }
    /* The union again, from the pins that are left. */
    for (uint32_t i = 0; i < g->nnodes; i++) {
        bool below = false;
        for (size_t p = 0; p < set->len && !below; p++)
            below = set->pins[p].below[i];
        set->below[i] = below && node_kind_is_symbolic(g->nodes[i].kind);
    }
    return true;
}

void pin_set_free(struct pin_set *set)
{
    for (size_t i = 0; i < set->len; i++) {
        free(set->pins[i].nodes);
        free(set->pins[i].below);
    }
    free(set->pins);
    free(set->below);
    memset(set, 0, sizeof *set);
}

void pin_format(const struct graph *g, const struct pin *pin, struct strbuf *out)
{
    for (uint32_t i = 0; i < pin->len; i++) {
        if (i)
            strbuf_addch(out, ' ');
        graph_node_name(g, pin->nodes[i], out);
    }
}

bool pin_set_covers_path(const struct pin_set *set, const uint32_t *path)
{
    return set->len == 0 || set->below[path[0]];
}

uint64_t pin_count_under(const struct pin_set *set, const struct kpath_space *sp)
{
    if (!set || !set->len)
        return sp->total;
    const struct graph *g = sp->graph;
    uint64_t total = 0;
    for (uint32_t i = 0; i < g->nsymbolic; i++) {
        uint32_t id = g->symbolic[i];
        if (set->below[id]) {
            uint64_t c = kpath_count_from(sp, id, sp->k);
            total = sat_add(total, c);
        }
    }
    return total;
}

/* Does instance x root a pinned context: its node is a pin's last node and
 * its nearest symbolic ancestors spell the rest of that pin? */
static bool roots_context(const struct pin_set *set, const struct derivation *t, const uint32_t *up,
                          uint32_t x)
{
    for (size_t i = 0; i < set->len; i++) {
        const struct pin *pin = &set->pins[i];
        if (t->insts[x].node != pin->nodes[pin->len - 1])
            continue;
        uint32_t at = up[x], j = pin->len - 1;
        while (j > 0 && at != DTREE_NONE && t->insts[at].node == pin->nodes[j - 1]) {
            j--;
            at = up[at];
        }
        if (j == 0)
            return true;
    }
    return false;
}

void pin_foreach_kpath(const struct pin_set *set, const struct derivation *t, uint32_t k,
                       void (*fn)(const uint32_t *path, void *ctx), void *ctx)
{
    if (!set || set->len == 0) {
        derivation_foreach_kpath(t, k, fn, ctx);
        return;
    }
    const struct graph *g = t->graph;
    /* up[i]: nearest symbolic proper ancestor.  inside[i]: how many symbolic
     * instances from the nearest context root (itself included) down to i
     * (itself included), 0 outside every context.  Parents come first. */
    uint32_t *up = xmalloc((t->len + 1) * sizeof *up);
    uint32_t *inside = xmalloc((t->len + 1) * sizeof *inside);
    uint32_t *path = xmalloc(((size_t)k + 1) * sizeof *path);
    for (size_t i = 0; i < t->len; i++) {
        uint32_t p = t->insts[i].parent;
        bool symbolic = node_kind_is_symbolic(g->nodes[t->insts[i].node].kind);
        up[i] = p == DTREE_NONE ? DTREE_NONE
              : node_kind_is_symbolic(g->nodes[t->insts[p].node].kind) ? p : up[p];
        uint32_t above = p == DTREE_NONE ? 0 : inside[p];
        inside[i] = above ? above + symbolic : 0;
        if (symbolic && inside[i] == 0 && roots_context(set, t, up, (uint32_t)i))
            inside[i] = 1;
        if (!symbolic || inside[i] < k)
            continue;
        uint32_t at = (uint32_t)i;
        for (uint32_t j = k; j-- > 0;) {
            path[j] = t->insts[at].node;
            at = up[at];
        }
        fn(path, ctx);
    }
    free(up);
    free(inside);
    free(path);
}

struct adder {
    struct kpath_set *set;
    uint64_t added;
};

static void add_one(const uint32_t *path, void *ctx)
{
    struct adder *a = ctx;
    a->added += kpath_set_add(a->set, path);
}

uint64_t pin_add_kpaths(const struct pin_set *pins, const struct derivation *t, struct kpath_set *set)
{
    struct adder a = {set, 0};
    pin_foreach_kpath(pins, t, set->sp->k, add_one, &a);
    return a.added;
}
