#include "parse/lookahead.h"

#include <stdlib.h>

#include "base/utf8.h"
#include "base/xalloc.h"

/* The first code point of a literal (a byte that is not UTF-8 stands for
 * itself, as the parser reads literals); false for "". */
static bool first_code_point(const struct expr *lit, uint32_t *cp)
{
    if (lit->u.lit.len == 0)
        return false;
    if (!utf8_decode(lit->u.lit.text, lit->u.lit.len, cp))
        *cp = (unsigned char)lit->u.lit.text[0];
    return true;
}

/* Add a character set to another; true when it grew. */
static bool add_first_to(uint64_t to[2], bool *to_high, const uint64_t bits[2], bool high)
{
    uint64_t a = to[0] | bits[0], b = to[1] | bits[1];
    bool h = *to_high || high;
    bool changed = a != to[0] || b != to[1] || h != *to_high;
    to[0] = a, to[1] = b, *to_high = h;
    return changed;
}

static bool add_first(struct lookahead *p, uint32_t to, const uint64_t bits[2], bool high)
{
    return add_first_to(p->first[to], &p->first_high[to], bits, high);
}

/* FIRST sets by a worklist: a node's set only grows (129 bits at most), and a
 * change is pushed to the parents that it can start. */
static void compute_first(struct lookahead *p, const struct graph *g)
{
    uint32_t N = g->nnodes;
    p->first = xcalloc((size_t)N + 1, sizeof *p->first);
    p->first_high = xcalloc((size_t)N + 1, sizeof *p->first_high);
    uint32_t *queue = xmalloc(((size_t)N + 1) * sizeof *queue);
    bool *queued = xcalloc((size_t)N + 1, sizeof *queued);
    size_t head = 0, tail = 0; /* a ring of N + 1 slots */
    for (uint32_t n = 0; n < N; n++) {
        const struct graph_node *node = &g->nodes[n];
        uint32_t cp;
        if (node->kind == NODE_LIT && first_code_point(node->expr, &cp)) {
            if (cp < 128)
                p->first[n][cp >> 6] |= UINT64_C(1) << (cp & 63);
            else
                p->first_high[n] = true;
        } else if (node->kind == NODE_CLASS) {
            for (uint32_t ch = 0; ch < 128; ch++)
                if (grammar_class_matches(node->expr, ch))
                    p->first[n][ch >> 6] |= UINT64_C(1) << (ch & 63);
            p->first_high[n] = grammar_class_size(node->expr) >
                               (uint64_t)__builtin_popcountll(p->first[n][0]) +
                                   (uint64_t)__builtin_popcountll(p->first[n][1]);
        } else {
            continue;
        }
        queue[tail] = n, tail = (tail + 1) % (N + 1), queued[n] = true;
    }
    while (head != tail) {
        uint32_t c = queue[head];
        head = (head + 1) % (N + 1);
        queued[c] = false;
        for (uint32_t i = 0; i < g->nodes[c].nparents; i++) {
            uint32_t parent = graph_parents(g, c)[i];
            const struct graph_node *pn = &g->nodes[parent];
            if (pn->kind == NODE_CAT) {
                /* c starts the cat only if every item before it can be empty. */
                bool starts = false;
                for (uint32_t k = 0; k < pn->nchildren; k++) {
                    uint32_t item = graph_children(g, parent)[k];
                    if (item == c) {
                        starts = true;
                        break;
                    }
                    if (g->nodes[item].min_length > 0)
                        break;
                }
                if (!starts)
                    continue;
            } else if (pn->kind == NODE_QUANT && pn->expr->u.quant.max == 0) {
                continue;
            }
            if (add_first(p, parent, p->first[c], p->first_high[c]) && !queued[parent]) {
                queue[tail] = parent, tail = (tail + 1) % (N + 1), queued[parent] = true;
            }
        }
    }
    free(queue);
    free(queued);
}

/* FOLLOW sets: what can come right after an instance of each node, anywhere
 * in any derivation (so a superset of what follows it in one parse).  A
 * child gets its later siblings' FIRST (through nullable ones), a repeated
 * child its own FIRST, and, when what comes after it in its parent can be
 * empty, all of its parent's FOLLOW, which a worklist passes down until
 * nothing grows (each set only grows, 130 bits at most). */
static void compute_follow(struct lookahead *p, const struct graph *g)
{
    uint32_t N = g->nnodes;
    p->follow = xcalloc((size_t)N + 1, sizeof *p->follow);
    p->follow_high = xcalloc((size_t)N + 1, sizeof *p->follow_high);
    p->follow_end = xcalloc((size_t)N + 1, sizeof *p->follow_end);
    /* inherits[edge]: the child's FOLLOW includes its parent's. */
    size_t edges = graph_edge_count(g);
    bool *inherits = xcalloc(edges + 1, sizeof *inherits);
    for (uint32_t n = 0; n < N; n++) {
        const struct graph_node *node = &g->nodes[n];
        const uint32_t *kids = graph_children(g, n);
        if (node->kind == NODE_CAT) {
            /* Backwards: what the rest after child i can start with. */
            uint64_t rest[2] = {0, 0};
            bool rest_high = false, rest_empty = true;
            for (uint32_t i = node->nchildren; i-- > 0;) {
                uint32_t c = kids[i];
                add_first_to(p->follow[c], &p->follow_high[c], rest, rest_high);
                inherits[node->first_child + i] = rest_empty;
                if (g->nodes[c].min_length > 0)
                    rest[0] = rest[1] = 0, rest_high = false, rest_empty = false;
                rest[0] |= p->first[c][0], rest[1] |= p->first[c][1];
                rest_high = rest_high || p->first_high[c];
            }
        } else if (node->kind == NODE_QUANT) {
            if (node->expr->u.quant.max > 1)
                add_first_to(p->follow[kids[0]], &p->follow_high[kids[0]], p->first[kids[0]],
                             p->first_high[kids[0]]);
            inherits[node->first_child] = true;
        } else {
            for (uint32_t i = 0; i < node->nchildren; i++)
                inherits[node->first_child + i] = true;
        }
    }
    p->follow_end[0] = true;
    uint32_t *queue = xmalloc(((size_t)N + 1) * sizeof *queue);
    bool *queued = xcalloc((size_t)N + 1, sizeof *queued);
    size_t head = 0, tail = 0;
    for (uint32_t n = 0; n < N; n++)
        queue[tail++] = n, queued[n] = true;
    tail %= N + 1;
    while (head != tail) {
        uint32_t n = queue[head];
        head = (head + 1) % (N + 1);
        queued[n] = false;
        const struct graph_node *node = &g->nodes[n];
        for (uint32_t i = 0; i < node->nchildren; i++) {
            if (!inherits[node->first_child + i])
                continue;
            uint32_t c = graph_children(g, n)[i];
            bool changed = add_first_to(p->follow[c], &p->follow_high[c], p->follow[n],
                                        p->follow_high[n]);
            if (p->follow_end[n] && !p->follow_end[c])
                p->follow_end[c] = changed = true;
            if (changed && !queued[c]) {
                queue[tail] = c, tail = (tail + 1) % (N + 1), queued[c] = true;
            }
        }
    }
    free(queue);
    free(queued);
    free(inherits);
}

void lookahead_init(struct lookahead *la, const struct graph *g)
{
    compute_first(la, g);
    compute_follow(la, g);
}

void lookahead_free(struct lookahead *la)
{
    free(la->first);
    free(la->first_high);
    free(la->follow);
    free(la->follow_high);
    free(la->follow_end);
}
