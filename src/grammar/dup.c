/* dup: duplicating rules.  See dup.h for the contract.
 *
 * Planning and committing are separate: the copies are built (in the
 * grammar's arena, which is harmless if they are dropped) with references
 * to copies numbered nrules + j, while the grammar itself is not touched;
 * only when every copy is made are they added, R's references redirected and
 * the unreachable rules dropped.  The depth-first walk over copies uses an
 * explicit stack: a chain of rules can be as long as the grammar. */
#include "grammar/dup.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define NONE UINT32_MAX

struct copy {
    uint32_t base;     /* the rule copied */
    uint32_t level;    /* 1 for the copies made for R's alternative */
    char *name;        /* in the arena */
    struct expr *rhs;
};

/* The references of a subtree, left to right. */
struct ref_list {
    struct expr **refs;
    size_t len, cap;
};

struct frame {
    uint32_t copy;
    struct ref_list refs;
    size_t next;
};

struct planner {
    struct grammar *g;
    uint32_t nrules;       /* before duplicating */
    uint32_t depth, max_new;
    struct copy *copies;
    size_t ncopies, copies_cap;
    uint32_t *active;      /* per rule: its copy on the current path, or NONE */
    uint32_t *next_suffix; /* per rule: the first suffix not tried yet */
    struct frame *stack;
    size_t depth_now, stack_cap;
};

/* ---- copies ---------------------------------------------------------------- */

static void collect_refs(struct expr *root, struct ref_list *out)
{
    struct expr **stack = NULL;
    size_t cap = 0, depth = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = root;
    while (depth) {
        struct expr *e = stack[--depth];
        if (e->kind == EXPR_REF) {
            out->refs = xgrow(out->refs, &out->cap, out->len + 1, sizeof *out->refs);
            out->refs[out->len++] = e;
        }
        stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
        for (uint32_t c = e->nchildren; c-- > 0;)
            stack[depth++] = e->children[c]; /* leftmost on top */
    }
    free(stack);
}

/* A copy of the tree `src` in g's arena, and its references into `refs`. */
static struct expr *copy_tree(struct grammar *g, const struct expr *src, struct ref_list *refs)
{
    struct pair {
        const struct expr *from;
        struct expr *to;
    } *stack = NULL;
    size_t cap = 0, depth = 0;
    struct expr *root = grammar_new_expr(g, src->kind, src->rule);
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = (struct pair){src, root};
    while (depth) {
        struct pair p = stack[--depth];
        struct expr *to = p.to;
        struct expr *parent = to->parent;
        *to = *p.from;
        to->parent = parent;
        if (to->kind == EXPR_ALT && p.from->u.alt.weights) {
            size_t size = (size_t)to->nchildren * sizeof *to->u.alt.weights;
            to->u.alt.weights = arena_alloc(&g->arena, size);
            memcpy(to->u.alt.weights, p.from->u.alt.weights, size);
        }
        if (to->kind == EXPR_REF) {
            refs->refs = xgrow(refs->refs, &refs->cap, refs->len + 1, sizeof *refs->refs);
            refs->refs[refs->len++] = to;
        }
        if (!to->nchildren)
            continue;
        to->children = arena_alloc(&g->arena, (size_t)to->nchildren * sizeof *to->children);
        stack = xgrow(stack, &cap, depth + to->nchildren, sizeof *stack);
        for (uint32_t c = to->nchildren; c-- > 0;) {
            struct expr *kid = grammar_new_expr(g, p.from->children[c]->kind, to->rule);
            kid->parent = to;
            to->children[c] = kid;
            stack[depth++] = (struct pair){p.from->children[c], kid};
        }
    }
    free(stack);
    return root;
}

/* "name-N", or "<name-N>" for "<name>", with the first N no rule has. */
static char *copy_name(struct planner *p, uint32_t base)
{
    const char *name = p->g->rules[base].name;
    size_t len = strlen(name);
    bool angle = len >= 2 && name[0] == '<' && name[len - 1] == '>';
    struct strbuf sb = STRBUF_INIT;
    for (;;) {
        uint32_t n = ++p->next_suffix[base];
        strbuf_reset(&sb);
        strbuf_add(&sb, name, angle ? len - 1 : len);
        strbuf_addf(&sb, "-%u%s", (unsigned)n, angle ? ">" : "");
        if (grammar_find_rule(p->g, sb.data) == RULE_NONE)
            break;
    }
    char *copy = arena_strndup(&p->g->arena, sb.data, sb.len);
    strbuf_free(&sb);
    return copy;
}

/* Make a copy of rule `base` at `level`, point `ref` at it and push its frame.
 * False when that would be one copy too many. */
static bool make_copy(struct planner *p, struct expr *ref, uint32_t base, uint32_t level)
{
    if (p->ncopies >= p->max_new)
        return false;
    uint32_t j = (uint32_t)p->ncopies;
    p->copies = xgrow(p->copies, &p->copies_cap, p->ncopies + 1, sizeof *p->copies);
    struct copy *c = &p->copies[p->ncopies++];
    c->base = base;
    c->level = level;
    c->name = copy_name(p, base);
    struct frame f = {j, {NULL, 0, 0}, 0};
    c->rhs = copy_tree(p->g, p->g->rules[base].rhs, &f.refs);
    c->rhs->parent = NULL;
    if (ref) {
        ref->u.ref.target = p->nrules + j;
        ref->u.ref.name = c->name;
    }
    p->stack = xgrow(p->stack, &p->stack_cap, p->depth_now + 1, sizeof *p->stack);
    p->stack[p->depth_now++] = f;
    p->active[base] = j;
    return true;
}

/* Work through the copies' references depth first until the stack is empty. */
static bool run_frames(struct planner *p)
{
    while (p->depth_now) {
        struct frame *f = &p->stack[p->depth_now - 1];
        const struct copy *c = &p->copies[f->copy];
        if (f->next == f->refs.len) {
            p->active[c->base] = NONE;
            free(f->refs.refs);
            p->depth_now--;
            continue;
        }
        struct expr *ref = f->refs.refs[f->next++];
        uint32_t t = ref->u.ref.target; /* a rule as loaded: copies copy those */
        uint32_t level = c->level;
        if (p->active[t] != NONE) {
            ref->u.ref.target = p->nrules + p->active[t];
            ref->u.ref.name = p->copies[p->active[t]].name;
        } else if (p->depth == 0 || level + 1 <= p->depth) {
            if (!make_copy(p, ref, t, level + 1))
                return false;
        }
    }
    return true;
}

static void planner_free(struct planner *p)
{
    while (p->depth_now)
        free(p->stack[--p->depth_now].refs.refs);
    free(p->stack);
    free(p->copies);
    free(p->active);
    free(p->next_suffix);
}

/* ---- committing ------------------------------------------------------------ */

/* Keep what is reachable from the start rule or from a rule that was
 * unreachable before; each rule's copies follow it.  Returns how many are
 * kept, their indices in `order`. */
static uint32_t plan_order(const struct grammar *g, uint32_t nrules_before,
                           const bool *was_unreachable, const struct copy *copies,
                           uint32_t *order)
{
    uint32_t n = g->nrules;
    bool *keep = xcalloc((size_t)n + 1, sizeof *keep);
    uint32_t *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
    const struct expr **stack = NULL;
    size_t head = 0, tail = 0, cap = 0;
    keep[g->start] = true;
    queue[tail++] = g->start;
    for (uint32_t r = 0; r < nrules_before; r++) {
        if (was_unreachable[r] && !keep[r]) {
            keep[r] = true;
            queue[tail++] = r;
        }
    }
    while (head < tail) {
        uint32_t r = queue[head++];
        size_t depth = 0;
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        stack[depth++] = g->rules[r].rhs;
        while (depth) {
            const struct expr *e = stack[--depth];
            if (e->kind == EXPR_REF && !keep[e->u.ref.target]) {
                keep[e->u.ref.target] = true;
                queue[tail++] = e->u.ref.target;
            }
            stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
            for (uint32_t c = 0; c < e->nchildren; c++)
                stack[depth++] = e->children[c];
        }
    }
    /* Copies grouped by the rule they copy, in the order they were made. */
    uint32_t ncopies = n - nrules_before;
    uint32_t *first = xcalloc((size_t)nrules_before + 1, sizeof *first);
    uint32_t *by_base = xmalloc(((size_t)ncopies + 1) * sizeof *by_base);
    for (uint32_t j = 0; j < ncopies; j++)
        first[copies[j].base + 1]++;
    for (uint32_t r = 0; r < nrules_before; r++)
        first[r + 1] += first[r];
    uint32_t *fill = xmalloc(((size_t)nrules_before + 1) * sizeof *fill);
    memcpy(fill, first, ((size_t)nrules_before + 1) * sizeof *fill);
    for (uint32_t j = 0; j < ncopies; j++)
        by_base[fill[copies[j].base]++] = nrules_before + j;
    uint32_t kept = 0;
    for (uint32_t r = 0; r < nrules_before; r++) {
        if (keep[r])
            order[kept++] = r;
        for (uint32_t k = first[r]; k < first[r + 1]; k++)
            if (keep[by_base[k]])
                order[kept++] = by_base[k];
    }
    free(fill);
    free(by_base);
    free(first);
    free(stack);
    free(queue);
    free(keep);
    return kept;
}

/* ---- the entry point ------------------------------------------------------- */

enum dup_status dup_rule(struct grammar *g, const char *rule, const struct dup_options *opts,
                         struct dup_result *result, struct diag_list *diags)
{
    struct dup_options o = opts ? *opts : (struct dup_options){0};
    if (!o.max_new_rules)
        o.max_new_rules = DUP_DEFAULT_MAX_NEW_RULES;
    if (result)
        *result = (struct dup_result){0, 0};
    uint32_t r = grammar_find_rule(g, rule);
    if (r == RULE_NONE) {
        diag_add(diags, DIAG_ERROR, g->file, 0, 0, "no rule '%s' in the grammar", rule);
        return DUP_NO_RULE;
    }
    const struct rule *R = &g->rules[r];
    struct expr *rhs = R->rhs;
    uint32_t nalts = rhs->kind == EXPR_ALT ? rhs->nchildren : 1;
    if (o.alternative > nalts) {
        diag_add(diags, DIAG_ERROR, g->file, R->pos.line, R->pos.col,
                 "rule '%s' has %u alternative%s; there is no alternative %u", R->name,
                 (unsigned)nalts, nalts == 1 ? "" : "s", (unsigned)o.alternative);
        return DUP_NO_ALTERNATIVE;
    }
    struct expr *root = o.alternative == 0 ? rhs
                        : rhs->kind == EXPR_ALT ? rhs->children[o.alternative - 1]
                                                : rhs;
    struct ref_list top = {NULL, 0, 0};
    collect_refs(root, &top);
    if (top.len == 0) {
        if (o.alternative)
            diag_add(diags, DIAG_ERROR, g->file, root->pos.line, root->pos.col,
                     "alternative %u of rule '%s' has no references: nothing to duplicate",
                     (unsigned)o.alternative, R->name);
        else
            diag_add(diags, DIAG_ERROR, g->file, R->pos.line, R->pos.col,
                     "rule '%s' has no references: nothing to duplicate", R->name);
        free(top.refs);
        return DUP_NOTHING;
    }

    struct planner p = {0};
    p.g = g;
    p.nrules = g->nrules;
    p.depth = o.depth;
    p.max_new = o.max_new_rules;
    p.active = xmalloc(((size_t)g->nrules + 1) * sizeof *p.active);
    p.next_suffix = xcalloc((size_t)g->nrules + 1, sizeof *p.next_suffix);
    for (uint32_t k = 0; k < g->nrules; k++)
        p.active[k] = NONE;
    /* R's references are redirected only at commit time: until then every
     * copy is made from the grammar as loaded. */
    uint32_t *top_copy = xmalloc((top.len + 1) * sizeof *top_copy);
    bool ok = true;
    for (size_t k = 0; k < top.len && ok; k++) {
        top_copy[k] = (uint32_t)p.ncopies;
        ok = make_copy(&p, NULL, top.refs[k]->u.ref.target, 1) && run_frames(&p);
    }
    if (!ok) {
        diag_add(diags, DIAG_ERROR, g->file, R->pos.line, R->pos.col,
                 "duplicating rule '%s' would make more than %u copies; limit the levels "
                 "of copies with a depth",
                 R->name, (unsigned)p.max_new);
        free(top_copy);
        free(top.refs);
        planner_free(&p);
        return DUP_TOO_MANY;
    }

    /* Commit. */
    bool *was_unreachable = xmalloc(((size_t)p.nrules + 1) * sizeof *was_unreachable);
    for (uint32_t k = 0; k < p.nrules; k++)
        was_unreachable[k] = !g->rules[k].reachable;
    for (size_t j = 0; j < p.ncopies; j++) {
        uint32_t idx = grammar_add_rule(g, p.copies[j].name, p.copies[j].rhs);
        (void)idx; /* == p.nrules + j: the names were checked free */
    }
    for (size_t k = 0; k < top.len; k++) {
        top.refs[k]->u.ref.target = p.nrules + top_copy[k];
        top.refs[k]->u.ref.name = p.copies[top_copy[k]].name;
    }
    g->rules[r].edited = true;
    uint32_t *order = xmalloc(((size_t)g->nrules + 1) * sizeof *order);
    uint32_t kept = plan_order(g, p.nrules, was_unreachable, p.copies, order);
    uint32_t total = g->nrules;
    grammar_keep_rules(g, order, kept);
    if (result) {
        result->copies = (uint32_t)p.ncopies;
        result->removed = total - kept;
    }
    free(order);
    free(was_unreachable);
    free(top_copy);
    free(top.refs);
    planner_free(&p);
    return DUP_OK;
}
