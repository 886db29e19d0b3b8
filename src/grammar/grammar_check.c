/* grammar_check: see grammar_check.h.  Every pass is linear in the size of
 * the grammar and walks no tree by recursion. */
#include "grammar/grammar_check.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "grammar/grammar_private.h"

#define NAME_LIST_MAX 10 /* candidates named in the start-rule warning */

void grammar_check_references(const struct grammar_check *c)
{
    for (size_t k = 0; k < c->nrefs; k++) {
        struct expr *r = c->refs[k];
        uint32_t found = grammar_find_rule(c->g, r->u.ref.name);
        if (found != RULE_NONE) {
            r->u.ref.target = found;
        } else {
            diag_add(c->diags, DIAG_ERROR, grammar_rule_file(c->g, r->rule), r->pos.line, r->pos.col,
                     "undefined rule '%s'", r->u.ref.name);
        }
    }
}

/* Compressed adjacency: for each rule, the references selected by key()
 * (the rule holding them, or the rule they name), as offsets into list. */
struct ref_lists {
    uint32_t *off;      /* nrules + 1 */
    struct expr **list;
};

static void build_ref_lists(const struct grammar_check *c, bool by_target, struct ref_lists *out)
{
    uint32_t n = c->g->nrules;
    out->off = xcalloc((size_t)n + 1, sizeof *out->off);
    out->list = xmalloc((c->nrefs ? c->nrefs : 1) * sizeof *out->list);
    for (size_t k = 0; k < c->nrefs; k++) {
        const struct expr *r = c->refs[k];
        uint32_t key = by_target ? r->u.ref.target : r->rule;
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            out->off[key + 1]++;
    }
    for (uint32_t k = 0; k < n; k++)
        out->off[k + 1] += out->off[k];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, out->off, ((size_t)n + 1) * sizeof *fill);
    for (size_t k = 0; k < c->nrefs; k++) {
        struct expr *r = c->refs[k];
        uint32_t key = by_target ? r->u.ref.target : r->rule;
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            out->list[fill[key]++] = r;
    }
    free(fill);
}

static void free_ref_lists(struct ref_lists *rl)
{
    free(rl->off);
    free(rl->list);
}

bool grammar_check_start(const struct grammar_check *c, const struct grammar_options *opts)
{
    struct grammar *g = c->g;
    g->start = 0;
    if (opts && opts->start) {
        uint32_t r = grammar_find_rule(g, opts->start);
        if (r == RULE_NONE) {
            diag_add(c->diags, DIAG_ERROR, c->g->file, 0, 0, "start rule '%s' is not defined",
                     opts->start);
            return false;
        }
        g->start = r;
        return true;
    }
    bool *referenced = xcalloc(g->nrules, sizeof *referenced);
    for (size_t k = 0; k < c->nrefs; k++) {
        const struct expr *r = c->refs[k];
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            referenced[r->u.ref.target] = true;
    }
    uint32_t count = 0, only = 0;
    for (uint32_t k = 0; k < g->nrules; k++) {
        if (!referenced[k]) {
            if (!count)
                only = k;
            count++;
        }
    }
    if (count == 1) {
        g->start = only;
    } else if (count == 0) {
        /* Every rule is referenced (the start rule is recursive, as in most
         * textbook grammars): the first rule is the start, as in yacc and
         * ANTLR, and there is no other candidate to warn about.  kpath info
         * names it. */
    } else {
        struct strbuf names = STRBUF_INIT;
        uint32_t listed = 0;
        for (uint32_t k = 0; k < g->nrules && listed < NAME_LIST_MAX; k++) {
            if (!referenced[k]) {
                strbuf_addstr(&names, listed ? ", " : "");
                strbuf_addstr(&names, g->rules[k].name);
                listed++;
            }
        }
        if (count > listed)
            strbuf_addf(&names, " and %u more", (unsigned)(count - listed));
        diag_add(c->diags, DIAG_WARNING, c->g->file, g->rules[0].pos.line, g->rules[0].pos.col,
                 "several rules are unreferenced (%s); using the first rule '%s' as start",
                 strbuf_str(&names), g->rules[0].name);
        strbuf_free(&names);
    }
    free(referenced);
    return true;
}

void grammar_check_reachable(const struct grammar_check *c)
{
    struct grammar *g = c->g;
    struct ref_lists out;
    build_ref_lists(c, false, &out);
    uint32_t *queue = xmalloc(g->nrules * sizeof *queue);
    size_t head = 0, tail = 0;
    g->rules[g->start].reachable = true;
    queue[tail++] = g->start;
    while (head < tail) {
        uint32_t r = queue[head++];
        for (uint32_t k = out.off[r]; k < out.off[r + 1]; k++) {
            uint32_t t = out.list[k]->u.ref.target;
            if (!g->rules[t].reachable) {
                g->rules[t].reachable = true;
                queue[tail++] = t;
            }
        }
    }
    for (uint32_t k = 0; k < g->nrules; k++) {
        if (!g->rules[k].reachable)
            diag_add(c->diags, DIAG_WARNING, grammar_rule_file(c->g, k), g->rules[k].pos.line,
                     g->rules[k].pos.col, "rule '%s' is unreachable from the start rule '%s'", g->rules[k].name,
                     g->rules[grammar_user_start(g)].name);
    }
    free(queue);
    free_ref_lists(&out);
}

/* A class that matches no character ([^\x00-\u{10FFFF}], or an imported
 * set of UTF-16 surrogates only) is allowed, as a dead end: what holds it can
 * never be derived, so say where it is. */
static void warn_no_character(const struct grammar_check *c, const struct expr *e)
{
    diag_add(c->diags, DIAG_WARNING, grammar_rule_file(c->g, e->rule), e->pos.line, e->pos.col,
             "class %s in rule '%s' matches no character: nothing that holds it can be "
             "derived",
             e->u.cls.source, c->g->rules[e->rule].name);
}

/* Productivity as a worklist fixpoint: a node becomes productive once (a
 * leaf at once; an ALT when one child is; a CAT when its counter of
 * unproductive children reaches zero; a QUANT with min 0 at once, else with
 * its child; a REF with its rule), so the work is linear in the nodes. */
void grammar_check_productive(const struct grammar_check *c)
{
    struct grammar *g = c->g;
    size_t n = c->nexprs;
    bool *prod = xcalloc(n ? n : 1, sizeof *prod);
    uint32_t *remaining = xcalloc(n ? n : 1, sizeof *remaining);
    bool *rule_prod = xcalloc(g->nrules, sizeof *rule_prod);
    struct expr **work = xmalloc((n ? n : 1) * sizeof *work);
    size_t top = 0;
    struct ref_lists in;
    build_ref_lists(c, true, &in);
    for (size_t k = 0; k < n; k++) {
        struct expr *e = c->exprs[k];
        bool leaf = false;
        switch (e->kind) {
        case EXPR_LIT: leaf = true; break;
        case EXPR_CLASS:
            leaf = grammar_class_size(e) > 0;
            if (!leaf)
                warn_no_character(c, e);
            break;
        case EXPR_QUANT: leaf = e->u.quant.min == 0; break;
        case EXPR_CAT: remaining[k] = e->nchildren; break;
        default: break;
        }
        if (leaf && e->rule != RULE_NONE) {
            prod[k] = true;
            work[top++] = e;
        }
    }
    while (top) {
        struct expr *e = work[--top];
        struct expr *p = e->parent;
        if (!p) {
            uint32_t r = e->rule;
            if (rule_prod[r] || g->rules[r].rhs != e)
                continue;
            rule_prod[r] = true;
            for (uint32_t k = in.off[r]; k < in.off[r + 1]; k++) {
                struct expr *ref = in.list[k];
                if (!prod[grammar_expr_id(ref)]) {
                    prod[grammar_expr_id(ref)] = true;
                    work[top++] = ref;
                }
            }
            continue;
        }
        uint32_t pid = grammar_expr_id(p);
        if (prod[pid])
            continue;
        if (p->kind == EXPR_CAT && --remaining[pid] > 0)
            continue;
        prod[pid] = true;
        work[top++] = p;
    }
    for (uint32_t r = 0; r < g->nrules; r++) {
        if (!rule_prod[r])
            diag_add(c->diags, DIAG_ERROR, grammar_rule_file(c->g, r), g->rules[r].pos.line,
                     g->rules[r].pos.col, "rule '%s' is unproductive: it can never derive a finite string",
                     g->rules[r].name);
    }
    free_ref_lists(&in);
    free(work);
    free(rule_prod);
    free(remaining);
    free(prod);
}

/* ---- grammars built by importers ---------------------------------------- */

/* The same passes as grammar_load_string after parsing, over a tree built
 * with grammar_new_expr: every expr is numbered by walking the rules with an
 * explicit stack (so depth costs heap), then references are resolved by name
 * and the start rule, reachability and productivity are checked. */
bool grammar_finish(struct grammar *g, const struct grammar_options *opts,
                    struct diag_list *diags)
{
    size_t errors_before = diags->errors;
    struct expr **exprs = NULL, **refs = NULL, **stack = NULL;
    size_t nexprs = 0, exprs_cap = 0, nrefs = 0, refs_cap = 0, depth = 0, stack_cap = 0;
    for (uint32_t r = 0; r < g->nrules; r++) {
        stack = xgrow(stack, &stack_cap, depth + 1, sizeof *stack);
        stack[depth++] = g->rules[r].rhs;
        g->rules[r].rhs->parent = NULL;
        while (depth) {
            struct expr *e = stack[--depth];
            e->rule = r;
            grammar_expr_set_id(e, (uint32_t)nexprs);
            exprs = xgrow(exprs, &exprs_cap, nexprs + 1, sizeof *exprs);
            exprs[nexprs++] = e;
            if (e->kind == EXPR_REF) {
                refs = xgrow(refs, &refs_cap, nrefs + 1, sizeof *refs);
                refs[nrefs++] = e;
            }
            for (uint32_t k = 0; k < e->nchildren; k++) {
                e->children[k]->parent = e;
                stack = xgrow(stack, &stack_cap, depth + 1, sizeof *stack);
                stack[depth++] = e->children[k];
            }
        }
    }
    free(stack);
    struct grammar_check c = {g, diags, exprs, nexprs, refs, nrefs};
    grammar_check_references(&c);
    if (g->nrules == 0 && diags->errors == errors_before)
        diag_add(diags, DIAG_ERROR, g->file, 0, 0, "the grammar defines no rules");
    if (g->nrules > 0 && diags->errors == errors_before && grammar_check_start(&c, opts))
        grammar_check_reachable(&c);
    if (g->nrules > 0 && diags->errors == errors_before)
        grammar_check_productive(&c);
    free(exprs);
    free(refs);
    return diags->errors == errors_before;
}
