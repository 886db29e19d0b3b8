#include "gen/learn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/grammar_write.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "grammar/grammar_file.h"

size_t probability_table_size(const struct graph *g)
{
    return graph_edge_count(g) + 1;
}

void learn_init(struct learned *l, const struct graph *g)
{
    memset(l, 0, sizeof *l);
    l->graph = g;
    l->edge_count = xcalloc(probability_table_size(g), sizeof *l->edge_count);
    l->node_count = xcalloc((size_t)g->nnodes + 1, sizeof *l->node_count);
}

void learn_free(struct learned *l)
{
    free(l->edge_count);
    free(l->node_count);
    memset(l, 0, sizeof *l);
}

void learn_add_tree(struct learned *l, const struct derivation *t, bool ambiguous)
{
    const struct graph *g = l->graph;
    for (size_t i = 0; i < t->len; i++) {
        const struct derivation_inst *in = &t->insts[i];
        const struct graph_node *n = &g->nodes[in->node];
        if (in->open)
            continue;
        if (n->kind == NODE_ALT) {
            l->edge_count[n->first_child + derivation_decision(t, (uint32_t)i)]++;
            l->node_count[in->node]++;
        } else if (n->kind == NODE_QUANT) {
            l->edge_count[n->first_child] += in->nchildren - n->expr->u.quant.min;
            l->node_count[in->node]++;
        }
    }
    l->samples++;
    l->ambiguous += ambiguous;
}

void learn_merge(struct learned *dst, const struct learned *src)
{
    size_t edges = probability_table_size(dst->graph);
    for (size_t e = 0; e < edges; e++)
        dst->edge_count[e] += src->edge_count[e];
    for (uint32_t n = 0; n <= dst->graph->nnodes; n++)
        dst->node_count[n] += src->node_count[n];
    dst->samples += src->samples;
    dst->ambiguous += src->ambiguous;
}

bool learn_seen(const struct learned *l, uint32_t node)
{
    return l->node_count[node] > 0;
}

void learn_probabilities(const struct learned *l, double *probs)
{
    const struct graph *g = l->graph;
    memset(probs, 0, probability_table_size(g) * sizeof *probs);
    for (uint32_t n = 0; n < g->nnodes; n++) {
        const struct graph_node *node = &g->nodes[n];
        uint64_t reached = l->node_count[n];
        if (node->kind == NODE_ALT) {
            for (uint32_t a = 0; a < node->nchildren; a++)
                probs[node->first_child + a] =
                    reached ? (double)l->edge_count[node->first_child + a] / (double)reached
                            : 1.0 / node->nchildren;
        } else if (node->kind == NODE_QUANT) {
            uint64_t extra = l->edge_count[node->first_child];
            probs[node->first_child] = reached ? (double)extra / (double)(reached + extra) : -1;
        }
    }
}

void probabilities_from_grammar(const struct graph *g, double *probs)
{
    memset(probs, 0, probability_table_size(g) * sizeof *probs);
    for (uint32_t n = 0; n < g->nnodes; n++) {
        const struct graph_node *node = &g->nodes[n];
        if (node->kind == NODE_ALT)
            for (uint32_t a = 0; a < node->nchildren; a++)
                probs[node->first_child + a] = grammar_alt_probability(node->expr, a);
        else if (node->kind == NODE_QUANT)
            probs[node->first_child] = -1;
    }
}

void probabilities_invert(const struct graph *g, const double *in, double *out)
{
    for (uint32_t n = 0; n < g->nnodes; n++) {
        const struct graph_node *node = &g->nodes[n];
        const double *p = in + node->first_child;
        double *q = out + node->first_child;
        if (node->kind == NODE_QUANT) {
            q[0] = p[0] < 0 ? p[0] : 1.0 - p[0];
            continue;
        }
        if (node->kind != NODE_ALT)
            continue;
        uint32_t zeros = 0;
        double total = 0;
        for (uint32_t a = 0; a < node->nchildren; a++) {
            if (p[a] <= 0)
                zeros++;
            else
                total += 1.0 / p[a];
        }
        for (uint32_t a = 0; a < node->nchildren; a++) {
            if (zeros == node->nchildren)
                q[a] = 1.0 / node->nchildren;
            else if (zeros)
                q[a] = p[a] <= 0 ? 1.0 / zeros : 0.0;
            else
                q[a] = (1.0 / p[a]) / total;
        }
    }
}

/* ---- files ---------------------------------------------------------------- */

/* Visit a rule's nodes in pre-order (the order "#: repeat I" counts in),
 * without entering other rules: fn(node, ctx). */
static void rule_preorder(const struct graph *g, uint32_t top, void (*fn)(uint32_t, void *),
                          void *ctx)
{
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = top;
    while (depth) {
        uint32_t n = stack[--depth];
        fn(n, ctx);
        if (g->nodes[n].kind == NODE_REF)
            continue;
        stack = xgrow(stack, &cap, depth + g->nodes[n].nchildren, sizeof *stack);
        for (uint32_t i = g->nodes[n].nchildren; i-- > 0;)
            stack[depth++] = graph_children(g, n)[i];
    }
    free(stack);
}

/* A decimal "D[.D]" at *p (no sign, no exponent): locale-independent. */
static bool read_decimal(const char **p, const char *end, double *value)
{
    const char *s = *p;
    double v = 0, scale = 1;
    bool digits = false, point = false;
    for (; s < end; s++) {
        if (*s >= '0' && *s <= '9') {
            if (point)
                v += (*s - '0') * (scale /= 10);
            else
                v = v * 10 + (*s - '0');
            digits = true;
        } else if (*s == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    *p = s;
    *value = v;
    return digits;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The value of "#: repeat I P" in the comment lines above rule r of g2. */
static bool repeat_line(const struct grammar *g2, const struct rule *r, uint32_t index,
                        double *value)
{
    if (!g2->source || !grammar_rule_has_source(r))
        return false;
    static const char prefix[] = GRAMMAR_WRITE_NOTE_PREFIX;
    const char *p = g2->source + r->src_begin, *end = g2->source + r->src_name;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = skip_blanks(p, eol);
        double i, v;
        if ((size_t)(eol - q) > sizeof prefix && memcmp(q, prefix, sizeof prefix - 1) == 0) {
            q = skip_blanks(q + sizeof prefix - 1, eol);
            if (eol - q > 6 && memcmp(q, "repeat", 6) == 0) {
                q = skip_blanks(q + 6, eol);
                if (read_decimal(&q, eol, &i) && i == index) {
                    q = skip_blanks(q, eol);
                    if (read_decimal(&q, eol, &v) && v <= 1) {
                        *value = v;
                        return true;
                    }
                }
            }
        }
        p = eol + 1;
    }
    return false;
}

struct matcher {
    const struct graph *g;
    const struct grammar *g2;
    const struct rule *r2;
    double *probs;
    /* a parallel walk over g2's syntax tree */
    const struct expr **exprs;
    size_t nexprs, cap;
    size_t next;
    uint32_t quants;
    bool ok;
};

static void push_expr_preorder(struct matcher *m, const struct expr *top)
{
    const struct expr **stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = top;
    while (depth) {
        const struct expr *e = stack[--depth];
        m->exprs = xgrow(m->exprs, &m->cap, m->nexprs + 1, sizeof *m->exprs);
        m->exprs[m->nexprs++] = e;
        stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
        for (uint32_t i = e->nchildren; i-- > 0;)
            stack[depth++] = e->children[i];
    }
    free(stack);
}

static bool same_element(const struct graph *g, uint32_t n, const struct expr *e,
                         const struct grammar *g2)
{
    const struct expr *mine = g->nodes[n].expr;
    if (mine->kind != e->kind || mine->nchildren != e->nchildren)
        return false;
    switch (e->kind) {
    case EXPR_REF:
        return strcmp(mine->u.ref.name, g2->rules[e->u.ref.target].name) == 0;
    case EXPR_LIT:
        return mine->u.lit.len == e->u.lit.len &&
               memcmp(mine->u.lit.text, e->u.lit.text, e->u.lit.len) == 0;
    case EXPR_CLASS:
        return strcmp(mine->u.cls.source, e->u.cls.source) == 0;
    case EXPR_QUANT:
        return mine->u.quant.min == e->u.quant.min && mine->u.quant.max == e->u.quant.max;
    default:
        return true;
    }
}

static void match_node(uint32_t n, void *ctx)
{
    struct matcher *m = ctx;
    if (!m->ok)
        return;
    if (m->next >= m->nexprs || !same_element(m->g, n, m->exprs[m->next], m->g2)) {
        m->ok = false;
        return;
    }
    const struct expr *e = m->exprs[m->next++];
    const struct graph_node *node = &m->g->nodes[n];
    if (node->kind == NODE_ALT) {
        for (uint32_t a = 0; a < node->nchildren; a++)
            m->probs[node->first_child + a] = grammar_alt_probability(e, a);
    } else if (node->kind == NODE_QUANT) {
        double v;
        m->probs[node->first_child] = repeat_line(m->g2, m->r2, ++m->quants, &v) ? v : -1;
    }
}

bool probabilities_read_file(const struct graph *g, const char *path, double *probs,
                             struct diag_list *diags)
{
    struct grammar_options opts = {.start = g->grammar->rules[g->grammar->start].name};
    struct diag_list local = DIAG_LIST_INIT;
    struct grammar *g2 = grammar_load_file(path, &opts, &local);
    /* Its warnings (unreachable rules, say) are not the user's concern here. */
    for (size_t i = 0; i < local.len; i++)
        if (local.items[i].severity == DIAG_ERROR)
            diag_add(diags, DIAG_ERROR, local.items[i].file, local.items[i].line,
                     local.items[i].col, "%s", local.items[i].message);
    diag_list_free(&local);
    if (!g2)
        return false;
    probabilities_from_grammar(g, probs);
    bool ok = true;
    const struct grammar *gr = g->grammar;
    for (uint32_t r = 0; r < gr->nrules; r++) {
        if (g->rule_node[r] == NODE_NONE)
            continue;
        uint32_t r2 = grammar_find_rule(g2, gr->rules[r].name);
        if (r2 == RULE_NONE) {
            diag_add(diags, DIAG_ERROR, path, 0, 0, "rule '%s' of the grammar is missing",
                     gr->rules[r].name);
            ok = false;
            continue;
        }
        struct matcher m = {.g = g, .g2 = g2, .r2 = &g2->rules[r2], .probs = probs, .ok = true};
        push_expr_preorder(&m, g2->rules[r2].rhs);
        rule_preorder(g, g->rule_node[r], match_node, &m);
        if (!m.ok || m.next != m.nexprs) {
            diag_add(diags, DIAG_ERROR, path, g2->rules[r2].pos.line, g2->rules[r2].pos.col,
                     "rule '%s' differs from the grammar's: probabilities need the same rules",
                     gr->rules[r].name);
            ok = false;
        }
        free(m.exprs);
    }
    grammar_free(g2);
    return ok;
}

struct writer {
    const struct graph *g;
    const double *probs;
    const struct learned *l;
    struct strbuf *out;
    uint32_t groups, quants;
};

static void note_node(uint32_t n, void *ctx)
{
    struct writer *w = ctx;
    const struct graph_node *node = &w->g->nodes[n];
    if (node->kind == NODE_ALT && w->l) {
        if (w->groups++)
            strbuf_addf(w->out, "counts of group %u: ", w->groups - 1);
        else
            strbuf_addstr(w->out, "counts: ");
        uint64_t reached = w->l->node_count[n];
        if (!reached) {
            strbuf_addstr(w->out, "never reached (uniform)\n");
            return;
        }
        for (uint32_t a = 0; a < node->nchildren; a++)
            strbuf_addf(w->out, "%s%llu", a ? " " : "",
                        (unsigned long long)w->l->edge_count[node->first_child + a]);
        strbuf_addf(w->out, " of %llu\n", (unsigned long long)reached);
    } else if (node->kind == NODE_QUANT) {
        w->quants++;
        double q = w->probs[node->first_child];
        if (q < 0)
            return;
        /* Six decimals by integer arithmetic: no locale decimal comma. */
        uint32_t micro = (uint32_t)(q * 1e6 + 0.5);
        strbuf_addf(w->out, "repeat %u %u.%06u (probability of one more repetition", w->quants,
                    micro / 1000000, micro % 1000000);
        if (w->l)
            strbuf_addf(w->out, "; %llu instances, %llu beyond the minimum",
                        (unsigned long long)w->l->node_count[n],
                        (unsigned long long)w->l->edge_count[node->first_child]);
        strbuf_addstr(w->out, ")\n");
    }
}

static void write_note(void *ctx, const struct grammar *gr, uint32_t rule, struct strbuf *out)
{
    (void)gr;
    struct writer *w = ctx;
    if (w->g->rule_node[rule] == NODE_NONE)
        return;
    w->out = out;
    w->groups = w->quants = 0;
    rule_preorder(w->g, w->g->rule_node[rule], note_node, w);
    /* grammar_write adds the "#: " to each line; no trailing newline. */
    if (out->len && out->data[out->len - 1] == '\n')
        out->data[--out->len] = '\0';
}

void probabilities_write(const struct graph *g, const double *probs, const struct learned *l,
                         bool inverted, struct strbuf *out)
{
    if (l)
        strbuf_addf(out, "# Probabilities %slearned by kpath from %zu sample%s%s.\n",
                    inverted ? "inverted from those " : "", l->samples, l->samples == 1 ? "" : "s",
                    l->ambiguous ? " (ambiguous ones counted by their first tree)" : "");
    struct writer w = {.g = g, .probs = probs, .l = l};
    struct grammar_write_options o = {
        .probabilities = true,
        .graph = g,
        .edge_probability = probs,
        .note = write_note,
        .ctx = &w,
    };
    grammar_write(g->grammar, &o, out);
    if (out->len && out->data[out->len - 1] != '\n')
        strbuf_addch(out, '\n');
}
