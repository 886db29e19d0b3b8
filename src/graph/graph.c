#include <stdatomic.h>
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "base/saturate.h"
#include "base/utf8.h"
#include "base/xalloc.h"

bool node_kind_is_symbolic(enum node_kind kind)
{
    return kind == NODE_REF || kind == NODE_LIT || kind == NODE_CLASS;
}

const char *node_kind_name(enum node_kind kind)
{
    switch (kind) {
    case NODE_REF: return "ref";
    case NODE_LIT: return "lit";
    case NODE_CLASS: return "class";
    case NODE_ALT: return "alt";
    case NODE_CAT: return "cat";
    case NODE_QUANT: return "quant";
    }
    return "?";
}

static enum node_kind kind_of(const struct expr *e)
{
    switch (e->kind) {
    case EXPR_ALT: return NODE_ALT;
    case EXPR_CAT: return NODE_CAT;
    case EXPR_QUANT: return NODE_QUANT;
    case EXPR_LIT: return NODE_LIT;
    case EXPR_CLASS: return NODE_CLASS;
    case EXPR_REF: return NODE_REF;
    }
    return NODE_LIT;
}

/* ---- construction: breadth-first ids ------------------------------------ */

struct builder {
    struct graph *g;
    size_t node_cap, child_cap;
    uint32_t nchildren;
};

static uint32_t new_node(struct builder *b, const struct expr *e)
{
    struct graph *g = b->g;
    g->nodes = xgrow(g->nodes, &b->node_cap, (size_t)g->nnodes + 1, sizeof *g->nodes);
    uint32_t id = g->nnodes++;
    struct graph_node *n = &g->nodes[id];
    memset(n, 0, sizeof *n);
    n->kind = kind_of(e);
    n->expr = e;
    n->rule = e->rule;
    n->symbolic_index = NODE_NONE;
    return id;
}

static void add_child(struct builder *b, uint32_t child)
{
    b->g->children = xgrow(b->g->children, &b->child_cap, (size_t)b->nchildren + 1,
                           sizeof *b->g->children);
    b->g->children[b->nchildren++] = child;
}

/* Ids follow the order nodes enter the FIFO queue, and nodes leave it in id
 * order, so the queue is just the id counter: node `next` is taken when all
 * nodes before it have been. */
static void assign_ids(struct builder *b)
{
    struct graph *g = b->g;
    const struct grammar *gr = g->grammar;
    uint32_t root_rule = gr->start;
    g->rule_node[root_rule] = new_node(b, gr->rules[root_rule].rhs);
    for (uint32_t next = 0; next < g->nnodes; next++) {
        const struct expr *e = g->nodes[next].expr;
        g->nodes[next].first_child = b->nchildren;
        if (e->kind == EXPR_REF) {
            uint32_t r = e->u.ref.target;
            if (g->rule_node[r] == NODE_NONE)
                g->rule_node[r] = new_node(b, gr->rules[r].rhs);
            add_child(b, g->rule_node[r]);
        } else {
            for (uint32_t i = 0; i < e->nchildren; i++)
                add_child(b, new_node(b, e->children[i]));
        }
        g->nodes[next].nchildren = b->nchildren - g->nodes[next].first_child;
    }
}

static void build_parents(struct graph *g)
{
    uint32_t *count = xcalloc((size_t)g->nnodes + 1, sizeof *count);
    for (uint32_t i = 0; i < g->nnodes; i++)
        for (uint32_t c = 0; c < g->nodes[i].nchildren; c++)
            count[graph_children(g, i)[c]]++;
    uint32_t total = 0;
    for (uint32_t i = 0; i < g->nnodes; i++) {
        g->nodes[i].first_parent = total;
        total += count[i];
        count[i] = 0;
    }
    g->parents = xmalloc(((size_t)total + 1) * sizeof *g->parents);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        for (uint32_t c = 0; c < g->nodes[i].nchildren; c++) {
            uint32_t child = graph_children(g, i)[c];
            struct graph_node *cn = &g->nodes[child];
            g->parents[cn->first_parent + count[child]++] = i;
        }
    }
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->nodes[i].nparents = count[i];
    free(count);
}

static int compare_ids(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The symbolic successors of a reference are the symbolic frontier of its
 * rule's node: the symbolic nodes reached from it through synthetic nodes
 * only.  The frontier is computed once per rule and shared by every reference
 * to it.  Synthetic nodes of one right-hand side form a tree, so the walk needs
 * no visited set; it uses an explicit stack because nesting is input-controlled. */
static void build_successors(struct graph *g)
{
    const struct grammar *gr = g->grammar;
    uint32_t *frontier_first = xmalloc(((size_t)gr->nrules + 1) * sizeof *frontier_first);
    uint32_t *frontier_len = xcalloc((size_t)gr->nrules + 1, sizeof *frontier_len);
    uint32_t *succ = NULL, *stack = NULL;
    size_t succ_cap = 0, stack_cap = 0, nsucc = 0;

    for (uint32_t r = 0; r < gr->nrules; r++) {
        frontier_first[r] = (uint32_t)nsucc;
        uint32_t top = g->rule_node[r];
        if (top == NODE_NONE)
            continue;
        size_t depth = 0;
        stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
        stack[depth++] = top;
        while (depth) {
            uint32_t n = stack[--depth];
            const struct graph_node *node = &g->nodes[n];
            if (node_kind_is_symbolic(node->kind)) {
                succ = xgrow(succ, &succ_cap, nsucc + 1, sizeof *succ);
                succ[nsucc++] = n;
                continue;
            }
            stack = xgrow(stack, &stack_cap, depth + node->nchildren, sizeof *stack);
            for (uint32_t c = 0; c < node->nchildren; c++)
                stack[depth++] = graph_children(g, n)[c];
        }
        frontier_len[r] = (uint32_t)(nsucc - frontier_first[r]);
        if (frontier_len[r] > 1)
            qsort(succ + frontier_first[r], frontier_len[r], sizeof *succ, compare_ids);
    }
    g->successors = succ ? succ : xmalloc(sizeof *succ);
    g->nsuccessor_entries = (uint32_t)nsucc;
    for (uint32_t i = 0; i < g->nnodes; i++) {
        struct graph_node *n = &g->nodes[i];
        if (n->kind == NODE_REF) {
            uint32_t r = n->expr->u.ref.target;
            n->first_succ = frontier_first[r];
            n->nsucc = frontier_len[r];
        }
    }
    free(stack);
    free(frontier_first);
    free(frontier_len);
}

static void index_symbolic(struct graph *g)
{
    g->symbolic = xmalloc(((size_t)g->nnodes + 1) * sizeof *g->symbolic);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (node_kind_is_symbolic(g->nodes[i].kind)) {
            g->nodes[i].symbolic_index = g->nsymbolic;
            g->symbolic[g->nsymbolic++] = i;
        }
    }
}

/* ---- minimal complete subtrees ------------------------------------------ */

/* Knuth's generalization of Dijkstra's algorithm: every metric here is a
 * superior function of the children's values (never smaller than any argument
 * it uses), so taking nodes in increasing order of tentative value makes each
 * value final when it is taken.  An alt is final with its best child; a cat,
 * ref or quant once all its children are final.  O(E log N), no recursion. */

/* METRIC_WEIGHT orders subtrees by characters, then tree nodes, in one
 * integer: (characters << 32) + nodes (see graph.h, min_weight). */
enum metric { METRIC_DEPTH, METRIC_SIZE, METRIC_LENGTH, METRIC_WEIGHT };

struct heap_item {
    uint64_t value;
    uint32_t node;
};

struct heap {
    struct heap_item *items;
    size_t len, cap;
};

static void heap_push(struct heap *h, uint64_t value, uint32_t node)
{
    h->items = xgrow(h->items, &h->cap, h->len + 1, sizeof *h->items);
    size_t i = h->len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->items[parent].value <= value)
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i].value = value;
    h->items[i].node = node;
}

static struct heap_item heap_pop(struct heap *h)
{
    struct heap_item top = h->items[0];
    struct heap_item last = h->items[--h->len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->len)
            break;
        if (c + 1 < h->len && h->items[c + 1].value < h->items[c].value)
            c++;
        if (h->items[c].value >= last.value)
            break;
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->len)
        h->items[i] = last;
    return top;
}

/* Value of a node whose children are all final. */
static uint64_t combine(const struct graph *g, uint32_t id, enum metric m, const uint64_t *value)
{
    const struct graph_node *n = &g->nodes[id];
    const uint32_t *kids = graph_children(g, id);
    uint64_t self = m == METRIC_SIZE || m == METRIC_WEIGHT ? 1 : 0;
    switch (n->kind) {
    case NODE_REF:
        return sat_add(value[kids[0]], m == METRIC_LENGTH ? 0 : 1);
    case NODE_QUANT:
        if (m == METRIC_DEPTH)
            return value[kids[0]];
        return sat_add(self, sat_mul(n->expr->u.quant.min, value[kids[0]]));
    case NODE_CAT: {
        uint64_t v = 0;
        for (uint32_t c = 0; c < n->nchildren; c++)
            v = m == METRIC_DEPTH ? (value[kids[c]] > v ? value[kids[c]] : v)
                                  : sat_add(v, value[kids[c]]);
        return sat_add(v, self);
    }
    default:
        return METRIC_INFINITE; /* leaves and alts are handled by the caller */
    }
}

static uint64_t leaf_value(const struct graph_node *n, enum metric m)
{
    if (m == METRIC_SIZE)
        return 1;
    if (m == METRIC_WEIGHT) {
        uint64_t chars = leaf_value(n, METRIC_LENGTH);
        return chars >= (UINT64_C(1) << 31) ? METRIC_INFINITE : (chars << 32) + 1;
    }
    if (m == METRIC_DEPTH)
        return 0;
    if (n->kind == NODE_LIT)
        return utf8_length(n->expr->u.lit.text, n->expr->u.lit.len);
    if (n->kind == NODE_CLASS)
        return 1;
    return 0; /* a quantifier taken zero times */
}

static void compute_metric(const struct graph *g, enum metric m, uint64_t *value)
{
    uint32_t *pending = xmalloc(((size_t)g->nnodes + 1) * sizeof *pending);
    bool *final = xcalloc((size_t)g->nnodes + 1, sizeof *final);
    struct heap h = {0};
    for (uint32_t i = 0; i < g->nnodes; i++) {
        const struct graph_node *n = &g->nodes[i];
        value[i] = METRIC_INFINITE;
        pending[i] = n->nchildren;
        bool zero_quant = n->kind == NODE_QUANT && n->expr->u.quant.min == 0;
        /* A class of no character derives nothing: it stays infinite, as
         * the loader's productivity check counts it, so no generator takes
         * a way through it. */
        bool no_character = n->kind == NODE_CLASS && grammar_class_size(n->expr) == 0;
        if ((n->nchildren == 0 && !no_character) || zero_quant)
            heap_push(&h, leaf_value(n, m), i);
    }
    while (h.len) {
        struct heap_item it = heap_pop(&h);
        if (final[it.node])
            continue;
        final[it.node] = true;
        value[it.node] = it.value;
        const struct graph_node *n = &g->nodes[it.node];
        for (uint32_t p = 0; p < n->nparents; p++) {
            uint32_t parent = graph_parents(g, it.node)[p];
            if (final[parent])
                continue;
            if (g->nodes[parent].kind == NODE_ALT) {
                uint64_t v = sat_add(it.value, m == METRIC_SIZE || m == METRIC_WEIGHT ? 1 : 0);
                heap_push(&h, v, parent); /* stale entries are skipped when taken */
            } else if (--pending[parent] == 0) {
                heap_push(&h, combine(g, parent, m, value), parent);
            }
        }
    }
    free(h.items);
    free(pending);
    free(final);
}

static void compute_metrics(struct graph *g)
{
    uint64_t *value = xmalloc(((size_t)g->nnodes + 1) * sizeof *value);
    compute_metric(g, METRIC_DEPTH, value);
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->nodes[i].min_depth = value[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)value[i];
    compute_metric(g, METRIC_SIZE, value);
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->nodes[i].min_size = value[i];
    compute_metric(g, METRIC_LENGTH, value);
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->nodes[i].min_length = value[i];
    compute_metric(g, METRIC_WEIGHT, value);
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->nodes[i].min_weight = value[i];
    free(value);
}

struct graph *graph_build(const struct grammar *grammar)
{
    struct graph *g = xcalloc(1, sizeof *g);
    g->grammar = grammar;
    g->rule_node = xmalloc(((size_t)grammar->nrules + 1) * sizeof *g->rule_node);
    for (uint32_t r = 0; r < grammar->nrules; r++)
        g->rule_node[r] = NODE_NONE;
    struct builder b = {.g = g};
    assign_ids(&b);
    if (!g->children)
        g->children = xmalloc(sizeof *g->children);
    build_parents(g);
    build_successors(g);
    index_symbolic(g);
    compute_metrics(g);
    return g;
}

void graph_free(struct graph *g)
{
    if (!g)
        return;
    free(g->nodes);
    free(g->children);
    free(g->parents);
    free(g->successors);
    free(g->rule_node);
    free(g->symbolic);
    struct graph_cache *written = atomic_load(&g->written);
    if (written)
        written->free(written);
    free(g);
}

/* ---- names --------------------------------------------------------------- */

void graph_node_label(const struct graph *g, uint32_t id, struct strbuf *out)
{
    const struct expr *e = g->nodes[id].expr;
    switch (g->nodes[id].kind) {
    case NODE_REF: strbuf_addstr(out, e->u.ref.name); break;
    case NODE_LIT: grammar_lit_label(e->u.lit.text, e->u.lit.len, out); break;
    case NODE_CLASS: strbuf_addstr(out, e->u.cls.source); break;
    case NODE_ALT: strbuf_addch(out, '|'); break;
    case NODE_CAT: strbuf_addch(out, '~'); break;
    case NODE_QUANT: grammar_quant_label(e, out); break;
    }
}

void graph_node_name(const struct graph *g, uint32_t id, struct strbuf *out)
{
    graph_node_label(g, id, out);
    strbuf_addf(out, "_%u", id);
}

uint32_t graph_parse_node_name(const struct graph *g, const char *name)
{
    uint32_t id;
    if (number_parse_u32(name, &id))
        return id < g->nnodes ? id : NODE_NONE;
    const char *underscore = strrchr(name, '_');
    if (!underscore || !number_parse_u32(underscore + 1, &id) || id >= g->nnodes)
        return NODE_NONE;
    struct strbuf label = STRBUF_INIT;
    graph_node_label(g, id, &label);
    size_t len = (size_t)(underscore - name);
    bool match = label.len == len && memcmp(label.data, name, len) == 0;
    strbuf_free(&label);
    return match ? id : NODE_NONE;
}

/* The next node name of a path's text: blanks separate, "->" too, and a name
 * may hold blanks inside quotes ("a b"_3) or brackets ([ ]_4, <a b>_5). */
static char *next_name(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || (s[0] == '-' && s[1] == '>'))
        s += (*s == '-') ? 2 : 1;
    if (!*s) {
        *p = s;
        return NULL;
    }
    const char *start = s;
    char quote = 0;
    int depth = 0;
    for (; *s; s++) {
        if (quote) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == quote)
                quote = 0;
        } else if (*s == '"' || *s == '\'') {
            quote = *s;
        } else if (*s == '[' || *s == '<') {
            depth++;
        } else if ((*s == ']' || *s == '>') && depth) {
            depth--;
        } else if ((*s == ' ' || *s == '\t') && !depth) {
            break;
        }
    }
    *p = s;
    return xstrndup(start, (size_t)(s - start));
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Why `name` names no node, as helpfully as the name allows. */
static void unknown_node(const struct graph *g, const char *name, struct diag_list *diags)
{
    const char *file = g->grammar->file;
    if (all_digits(name)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "there is no node %s: the nodes of %s are 0 to %u",
                 name, file, g->nnodes - 1);
        return;
    }
    const char *underscore = strrchr(name, '_');
    uint32_t id;
    if (underscore && number_parse_u32(underscore + 1, &id) && id < g->nnodes) {
        struct strbuf real = STRBUF_INIT;
        graph_node_name(g, id, &real);
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no node '%s' in %s: node %u is %s", name, file,
                 id, strbuf_str(&real));
        strbuf_free(&real);
        return;
    }
    diag_add(diags, DIAG_ERROR, NULL, 0, 0,
             "no node '%s' in %s: write nodes as `kpath paths` prints them (AddExpr_0, \"+\"_10), "
             "or their ids", name, file);
}

uint32_t *graph_parse_path(const struct graph *g, const char *text, uint32_t *n,
                           struct diag_list *diags)
{
    uint32_t *nodes = NULL;
    size_t count = 0, cap = 0;
    const char *p = text;
    char *name;
    while ((name = next_name(&p))) {
        uint32_t id = graph_parse_node_name(g, name);
        if (id == NODE_NONE) {
            unknown_node(g, name, diags);
            free(name);
            free(nodes);
            return NULL;
        }
        free(name);
        nodes = xgrow(nodes, &cap, count + 1, sizeof *nodes);
        nodes[count++] = id;
    }
    *n = (uint32_t)count;
    return nodes;
}

/* ---- distances ----------------------------------------------------------- */

void graph_distances_to(const struct graph *g, uint32_t target, uint32_t *dist)
{
    for (uint32_t i = 0; i < g->nnodes; i++)
        dist[i] = UINT32_MAX;
    uint32_t *queue = xmalloc(((size_t)g->nnodes + 1) * sizeof *queue);
    uint32_t head = 0, tail = 0;
    dist[target] = 0;
    queue[tail++] = target;
    while (head < tail) {
        uint32_t n = queue[head++];
        for (uint32_t p = 0; p < g->nodes[n].nparents; p++) {
            uint32_t parent = graph_parents(g, n)[p];
            if (dist[parent] == UINT32_MAX) {
                dist[parent] = dist[n] + 1;
                queue[tail++] = parent;
            }
        }
    }
    free(queue);
}

/* From a node no finite subtree exists for, down to the element that makes
 * it so: a class of no character, else NODE_NONE (a bounded walk: the graph
 * builder already refused unproductive rules, so it ends at a class). */
static uint32_t dead_leaf(const struct graph *g, uint32_t n)
{
    for (uint32_t steps = 0; steps < g->nnodes && g->nodes[n].min_size == METRIC_INFINITE; steps++) {
        if (g->nodes[n].kind == NODE_CLASS)
            return n;
        uint32_t next = NODE_NONE;
        for (uint32_t i = 0; i < g->nodes[n].nchildren && next == NODE_NONE; i++)
            if (g->nodes[graph_children(g, n)[i]].min_size == METRIC_INFINITE)
                next = graph_children(g, n)[i];
        if (next == NODE_NONE)
            break;
        n = next;
    }
    return NODE_NONE;
}

void graph_why_in_no_input(const struct graph *g, uint32_t n, struct strbuf *out)
{
    /* Breadth-first up from n: the nearest element that shuts every way
     * through it is named. */
    uint32_t *queue = xmalloc((size_t)g->nnodes * sizeof *queue);
    bool *seen = xcalloc(g->nnodes, sizeof *seen);
    size_t head = 0, tail = 0;
    queue[tail++] = n;
    seen[n] = true;
    uint32_t culprit = NODE_NONE;
    bool quant = false;
    while (head < tail && culprit == NODE_NONE) {
        uint32_t v = queue[head++];
        const struct graph_node *node = &g->nodes[v];
        if (node->min_size == METRIC_INFINITE) {
            culprit = dead_leaf(g, v);
        } else if (node->kind == NODE_QUANT && node->expr->u.quant.max == 0) {
            culprit = v;
            quant = true;
        } else if (node->kind == NODE_CAT) {
            for (uint32_t i = 0; i < node->nchildren && culprit == NODE_NONE; i++)
                if (g->nodes[graph_children(g, v)[i]].min_size == METRIC_INFINITE)
                    culprit = dead_leaf(g, graph_children(g, v)[i]);
        }
        for (uint32_t i = 0; i < node->nparents; i++) {
            uint32_t p = graph_parents(g, v)[i];
            if (!seen[p]) {
                seen[p] = true;
                queue[tail++] = p;
            }
        }
    }
    free(queue);
    free(seen);
    if (culprit == NODE_NONE) {
        strbuf_addstr(out, "in no input: no derivation can hold it");
        return;
    }
    strbuf_addstr(out, "in no input: ");
    graph_node_label(g, culprit, out);
    strbuf_addf(out, " in rule %s %s", g->grammar->rules[g->nodes[culprit].rule].name,
                quant ? "allows no repetition" : "matches no character");
}
