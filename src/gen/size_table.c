#include "gen/size_table.h"

#include <stdlib.h>

#include "base/saturate.h"
#include "base/xalloc.h"

uint64_t size_table_max_entries = SIZE_TABLE_MAX_ENTRIES;

struct size_table {
    const struct graph *g; /* borrowed */
    uint32_t depth;        /* D */
    size_t n;              /* nodes */
    uint64_t *w;           /* (D + 1) * n: w[d * n + node] = W(node, d) */
    /* The searches' tables, allocated on first use and kept: the weight of
     * the smallest tree part above (node, r), and the parent on it (a value
     * of n + i: seeded from pin i; NODE_NONE: the root's own state). */
    uint64_t *above[2];
    uint32_t *pred[2];
    /* The tables depend on the pins only, not on the target: they are
     * computed once for the pins they were computed for. */
    bool searched;
    const struct pin_set *searched_pins;
};

static bool is_ref(const struct graph *g, uint32_t n)
{
    return g->nodes[n].kind == NODE_REF;
}

/* A quantifier with max 0 has no child instance to pass into. */
static bool passable(const struct graph *g, uint32_t p)
{
    return g->nodes[p].kind != NODE_QUANT || g->nodes[p].expr->u.quant.max > 0;
}

struct size_table *size_table_new(const struct graph *g, uint32_t max_depth)
{
    uint64_t levels = (uint64_t)max_depth + 1;
    if (!g->nnodes || levels > size_table_max_entries / g->nnodes)
        return NULL;
    struct size_table *t = xcalloc(1, sizeof *t);
    t->g = g;
    t->depth = max_depth;
    t->n = g->nnodes;
    size_t N = t->n;
    t->w = xmalloc((size_t)levels * N * sizeof *t->w);
    for (uint32_t d = 0; d <= max_depth; d++) {
        uint64_t *row = t->w + (size_t)d * N;
        /* Children of synthetic nodes have larger ids: decreasing ids see
         * them first.  A reference reads the level below. */
        for (size_t i = N; i-- > 0;) {
            const struct graph_node *x = &g->nodes[i];
            const uint32_t *kids = graph_children(g, (uint32_t)i);
            uint64_t v = METRIC_INFINITE;
            switch (x->kind) {
            case NODE_REF:
                if (d > 0)
                    v = sat_add(t->w[(size_t)(d - 1) * N + kids[0]], 1);
                break;
            case NODE_ALT:
                for (uint32_t c = 0; c < x->nchildren; c++)
                    if (row[kids[c]] < v)
                        v = row[kids[c]];
                v = sat_add(v, 1);
                break;
            case NODE_CAT:
                v = 1;
                for (uint32_t c = 0; c < x->nchildren; c++)
                    v = sat_add(v, row[kids[c]]);
                break;
            case NODE_QUANT:
                v = x->expr->u.quant.min == 0
                        ? 1
                        : sat_add(1, sat_mul(x->expr->u.quant.min, row[kids[0]]));
                break;
            default: /* leaves: their depth is 0 */
                v = x->min_weight;
                break;
            }
            row[i] = v;
        }
    }
    return t;
}

void size_table_free(struct size_table *t)
{
    if (!t)
        return;
    free(t->w);
    for (int i = 0; i < 2; i++) {
        free(t->above[i]);
        free(t->pred[i]);
    }
    free(t);
}

uint64_t size_table_weight(const struct size_table *t, uint32_t n, uint32_t d)
{
    return t->w[(size_t)(d > t->depth ? t->depth : d) * t->n + n];
}

/* What passing from p (at r references) into its child c adds: p itself and
 * its other children closed in the smallest way within the depth left, as
 * the walk builds it (a quantifier taken max(min, 1) times). */
static uint64_t edge_weight(const struct size_table *t, uint32_t p, uint32_t c, uint32_t r)
{
    const struct graph *g = t->g;
    const struct graph_node *x = &g->nodes[p];
    if (!passable(g, p) || r > t->depth)
        return METRIC_INFINITE;
    uint32_t left = t->depth - r;
    uint64_t v = 1;
    if (x->kind == NODE_CAT) {
        for (uint32_t i = 0; i < x->nchildren; i++) {
            uint32_t s = graph_children(g, p)[i];
            if (s != c)
                v = sat_add(v, size_table_weight(t, s, left));
        }
    } else if (x->kind == NODE_QUANT && x->expr->u.quant.min > 1) {
        v = sat_add(v, sat_mul(x->expr->u.quant.min - 1, size_table_weight(t, c, left)));
    }
    return v;
}

uint64_t size_table_route_weight(const struct size_table *t, const uint32_t *route, size_t len,
                                 uint32_t r0)
{
    const struct graph *g = t->g;
    if (!len || r0 > t->depth)
        return METRIC_INFINITE;
    uint32_t r = r0;
    uint64_t v = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        v = sat_add(v, edge_weight(t, route[i], route[i + 1], r));
        r += is_ref(g, route[i + 1]);
        if (r > t->depth)
            return METRIC_INFINITE;
    }
    uint32_t last = route[len - 1];
    return sat_add(v, size_table_weight(t, last, t->depth - r + is_ref(g, last)));
}

/* One forward table (see the header): `above` holds the seeds on entry. */
static void forward(const struct size_table *t, uint64_t *above, uint32_t *pred)
{
    const struct graph *g = t->g;
    size_t N = t->n;
    for (uint32_t r = 0; r <= t->depth; r++) {
        uint64_t *row = above + (size_t)r * N;
        for (int refs = 1; refs >= 0; refs--) {
            for (uint32_t c = 0; c < N; c++) {
                if (is_ref(g, c) != (refs == 1) || (refs && r == 0))
                    continue;
                uint32_t rp = r - (uint32_t)refs;
                const uint64_t *from = above + (size_t)rp * N;
                for (uint32_t i = 0; i < g->nodes[c].nparents; i++) {
                    uint32_t p = graph_parents(g, c)[i];
                    if (from[p] == METRIC_INFINITE)
                        continue;
                    uint64_t v = sat_add(from[p], edge_weight(t, p, c, rp));
                    if (v < row[c]) {
                        row[c] = v;
                        pred[(size_t)r * N + c] = p;
                    }
                }
            }
        }
    }
}

static void tables_reset(struct size_table *t, int which)
{
    size_t entries = ((size_t)t->depth + 1) * t->n;
    if (!t->above[which]) {
        t->above[which] = xmalloc(entries * sizeof *t->above[which]);
        t->pred[which] = xmalloc(entries * sizeof *t->pred[which]);
    }
    for (size_t i = 0; i < entries; i++) {
        t->above[which][i] = METRIC_INFINITE;
        t->pred[which][i] = NODE_NONE;
    }
}

/* The weight the chain of pin (from its first node at r1 references to its
 * last) adds, and the references at its last node; METRIC_INFINITE when it
 * does not fit.  Between two symbolic nodes of a pin the chain is unique:
 * from the reference into its rule node, down that right-hand side, every
 * step at the reference's r. */
static uint64_t pin_chain(const struct size_table *t, const struct pin *pin, uint32_t r1,
                          uint32_t *r_last)
{
    const struct graph *g = t->g;
    uint64_t v = 0;
    uint32_t r = r1;
    for (uint32_t j = 1; j < pin->len; j++) {
        uint32_t from = pin->nodes[j - 1], to = pin->nodes[j];
        uint32_t top = graph_children(g, from)[0];
        v = sat_add(v, edge_weight(t, from, top, r));
        for (uint32_t m = to; m != top; m = graph_parents(g, m)[0])
            v = sat_add(v, edge_weight(t, graph_parents(g, m)[0], m, r));
        r += is_ref(g, to);
    }
    *r_last = r;
    return r > t->depth ? METRIC_INFINITE : v;
}

static void push(uint32_t **way, size_t *len, size_t *cap, uint32_t n)
{
    *way = xgrow(*way, cap, *len + 1, sizeof **way);
    (*way)[(*len)++] = n;
}

/* Push, bottom-up, the way of table `which` from (n, r) back to its seed;
 * returns the seed's pred value (NODE_NONE or n + pin index) and leaves the
 * seed's r in *r. */
static uint32_t back(const struct size_table *t, int which, uint32_t n, uint32_t *r,
                     uint32_t **way, size_t *len, size_t *cap)
{
    for (;;) {
        push(way, len, cap, n);
        uint32_t p = t->pred[which][(size_t)*r * t->n + n];
        if (p == NODE_NONE || p >= t->n)
            return p;
        *r -= is_ref(t->g, n);
        n = p;
    }
}

bool size_table_smallest_way(struct size_table *t, const uint32_t *tail, size_t ntail,
                             const struct pin_set *pins, uint32_t **way, size_t *len,
                             size_t *cap, uint64_t *weight)
{
    const struct graph *g = t->g;
    size_t N = t->n;
    uint32_t t0 = tail[0];
    bool pinned = pins && pins->len;
    *len = 0;
    *weight = METRIC_INFINITE;
    uint32_t root_r = is_ref(g, 0);
    if (root_r > t->depth)
        return false;
    int last = pinned ? 1 : 0;
    if (!t->searched || t->searched_pins != (pinned ? pins : NULL)) {
        tables_reset(t, 0);
        t->above[0][(size_t)root_r * N] = 0;
        forward(t, t->above[0], t->pred[0]);
        if (pinned) {
            /* Seeds: each pin's last node, from the way to its first node
             * and along its chain.  A pin whose last node cannot reach the
             * target leaves it unreached below. */
            tables_reset(t, 1);
            for (size_t i = 0; i < pins->len; i++) {
                const struct pin *pin = &pins->pins[i];
                uint32_t first = pin->nodes[0], end = pin->nodes[pin->len - 1];
                for (uint32_t r1 = 0; r1 <= t->depth; r1++) {
                    uint64_t a = t->above[0][(size_t)r1 * N + first];
                    if (a == METRIC_INFINITE)
                        continue;
                    uint32_t r_end;
                    uint64_t v = sat_add(a, pin_chain(t, pin, r1, &r_end));
                    size_t at = (size_t)r_end * N + end;
                    if (v != METRIC_INFINITE && v < t->above[1][at]) {
                        t->above[1][at] = v;
                        t->pred[1][at] = (uint32_t)(N + i);
                    }
                }
            }
            forward(t, t->above[1], t->pred[1]);
        }
        t->searched = true;
        t->searched_pins = pinned ? pins : NULL;
    }
    uint32_t best_r = 0;
    for (uint32_t r = 0; r <= t->depth; r++) {
        uint64_t a = t->above[last][(size_t)r * N + t0];
        if (a == METRIC_INFINITE)
            continue;
        uint64_t v = sat_add(a, size_table_route_weight(t, tail, ntail, r));
        if (v < *weight)
            *weight = v, best_r = r;
    }
    if (*weight == METRIC_INFINITE)
        return false;
    /* Read the way off backwards, then reverse it. */
    uint32_t r = best_r;
    uint32_t seed = back(t, last, t0, &r, way, len, cap);
    if (pinned) {
        const struct pin *pin = &pins->pins[seed - N];
        for (uint32_t j = pin->len - 1; j > 0; j--) {
            uint32_t from = pin->nodes[j - 1];
            uint32_t top = graph_children(g, from)[0];
            r -= is_ref(g, pin->nodes[j]);
            for (uint32_t m = pin->nodes[j]; m != top;) {
                m = graph_parents(g, m)[0];
                push(way, len, cap, m);
            }
            push(way, len, cap, from);
        }
        /* pin->nodes[0] is on the way now; go on above it. */
        (*len)--;
        back(t, 0, pin->nodes[0], &r, way, len, cap);
    }
    for (size_t a = 0, b = *len - 1; a < b; a++, b--) {
        uint32_t x = (*way)[a];
        (*way)[a] = (*way)[b];
        (*way)[b] = x;
    }
    return true;
}
