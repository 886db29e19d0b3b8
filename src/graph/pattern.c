/* pattern: rendering k-paths as patterns.  See pattern.h for the contract.
 *
 * Step i of the path is the alternative A_i of the rule holding s_i, with the
 * chain of exprs from A_i down to s_i.  Printing walks A_1; an expr on the
 * current step's chain is narrowed (an alternation stands for its branch on
 * the chain) or, when it is s_i itself and not the last element, replaced by
 * A_(i+1), whose walk is then step i+1.  The same alternative can appear at
 * several steps (AddExpr_0 -> AddExpr_5 -> "+"_10), so a frame carries its
 * step and its depth on that step's chain rather than marks on exprs.  A
 * quantifier on the chain holds the element, so it repeats at least once
 * there: its minimum is printed as 1 (x? as x, x* as x+), which is what tells
 * frac_44 (-? int frac exp?) from exp_45 (-? int frac? exp) in json.ebnf's
 * number := "-"? int frac? exp?, and makes "lacks" read as absence. */
#include "graph/pattern.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"
#include "graph/skip_paths.h"

#define OFF_CHAIN UINT32_MAX

/* ---- checking ------------------------------------------------------------- */

static bool is_successor(const struct graph *g, uint32_t from, uint32_t to)
{
    const uint32_t *list = graph_successors(g, from);
    uint32_t lo = 0, hi = g->nodes[from].nsucc;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (list[mid] < to)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->nodes[from].nsucc && list[lo] == to;
}

bool pattern_check_path(const struct graph *g, const uint32_t *path, uint32_t k,
                        struct diag_list *diags)
{
    if (k == 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "not a k-path: the path is empty");
        return false;
    }
    struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
    bool ok = true;
    for (uint32_t i = 0; i < k && ok; i++) {
        if (path[i] >= g->nnodes) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "not a k-path: there is no node %u (the graph has %u nodes)",
                     (unsigned)path[i], (unsigned)g->nnodes);
            ok = false;
        } else if (!node_kind_is_symbolic(g->nodes[path[i]].kind)) {
            strbuf_reset(&a);
            graph_node_name(g, path[i], &a);
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "not a k-path: node %s is a%s %s node; a k-path has only references, "
                     "literals and classes",
                     a.data, g->nodes[path[i]].kind == NODE_ALT ? "n" : "",
                     node_kind_name(g->nodes[path[i]].kind));
            ok = false;
        }
    }
    for (uint32_t i = 1; i < k && ok; i++) {
        if (is_successor(g, path[i - 1], path[i]))
            continue;
        strbuf_reset(&a);
        strbuf_reset(&b);
        graph_node_name(g, path[i - 1], &a);
        graph_node_name(g, path[i], &b);
        if (g->nodes[path[i - 1]].kind != NODE_REF)
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "not a k-path: %s is a %s, so nothing follows it, not even %s", a.data,
                     g->nodes[path[i - 1]].kind == NODE_LIT ? "literal" : "class", b.data);
        else
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "not a k-path: %s does not follow %s (it is not reached from it through "
                     "alternations, sequences and quantifiers only)",
                     b.data, a.data);
        ok = false;
    }
    strbuf_free(&a);
    strbuf_free(&b);
    return ok;
}

/* ---- rendering ------------------------------------------------------------ */

struct steps {
    uint32_t k;
    const struct expr **chain; /* every step's chain, A_i first, s_i last */
    uint32_t *off, *len;       /* per step, into chain */
};

/* The chains of all steps. */
static void build_steps(const struct graph *g, const uint32_t *path, uint32_t k,
                        struct steps *st)
{
    size_t cap = 0, used = 0;
    st->k = k;
    st->chain = NULL;
    st->off = xmalloc(((size_t)k + 1) * sizeof *st->off);
    st->len = xmalloc(((size_t)k + 1) * sizeof *st->len);
    for (uint32_t i = 0; i < k; i++) {
        const struct expr *target = g->nodes[path[i]].expr;
        /* Up from s_i to the rule's right-hand side, then reversed. */
        size_t start = used;
        for (const struct expr *e = target; e; e = e->parent) {
            st->chain = xgrow(st->chain, &cap, used + 1, sizeof *st->chain);
            st->chain[used++] = e;
        }
        /* The top alternation is the rule's, not a group: start below it. */
        if (used - start >= 2 && st->chain[used - 1]->kind == EXPR_ALT)
            used--;
        for (size_t lo = start, hi = used - 1; lo < hi; lo++, hi--) {
            const struct expr *t = st->chain[lo];
            st->chain[lo] = st->chain[hi];
            st->chain[hi] = t;
        }
        st->off[i] = (uint32_t)start;
        st->len[i] = (uint32_t)(used - start);
    }
}

static void free_steps(struct steps *st)
{
    free(st->chain);
    free(st->off);
    free(st->len);
}

/* How a quantifier frame prints. */
enum pquant {
    PQ_WRITTEN,  /* as written (or with its minimum raised to 1 on the chain) */
    PQ_SPLIT,    /* on the chain with a body that is not the written one:
                  * the other repetitions around the narrowed one */
    PQ_OTHERS,   /* the other repetitions of a split quantifier, off the chain */
};

struct pframe {
    const struct expr *e;
    uint32_t step, depth; /* depth on the step's chain, or OFF_CHAIN */
    uint32_t next;        /* the next child to print */
    uint32_t printed;     /* children printed so far */
    uint32_t marks;       /* path nodes whose text this frame is (brackets) */
    uint32_t others_min, others_max; /* PQ_OTHERS: its quantifier */
    enum pquant pq;
    bool parens;
    bool under_label;     /* its item is followed by a quantifier's label: the
                           * parent's, or one above a chain of dropped x? */
};

/* Follow narrowing and substitution from (e, step, depth) to what is printed,
 * counting the path's nodes met on the way (each substituted reference, and
 * the last node). */
static void resolve(const struct steps *st, struct pframe *f)
{
    while (f->depth != OFF_CHAIN) {
        const struct expr *const *chain = st->chain + st->off[f->step];
        uint32_t len = st->len[f->step];
        if (f->depth == len - 1) {
            f->marks++;
            if (f->step + 1 == st->k)
                return;
            f->step++;
            f->depth = 0;
            f->e = st->chain[st->off[f->step]];
        } else if (f->e->kind == EXPR_ALT) {
            f->depth++;
            f->e = chain[f->depth];
        } else {
            return;
        }
    }
}

/* A quantifier on the chain with a minimum of 0: printed with a minimum of 1. */
static bool quant_narrowed(const struct pframe *f)
{
    return f->e->kind == EXPR_QUANT && f->depth != OFF_CHAIN && f->e->u.quant.min == 0;
}

/* x? narrowed to x has no quantifier left: its item needs no parentheses. */
static bool quant_dropped(const struct pframe *f)
{
    return quant_narrowed(f) && f->e->u.quant.max == 1;
}

/* A quantifier on the chain whose body, as printed there, is not its body as
 * written: an alternation below it is narrowed, or the node it holds is
 * replaced by the next step.  Only one repetition is the narrowed one (the
 * "4" of DecDigit+ in 42), so it cannot take the quantifier's label. */
static bool quant_split(const struct steps *st, const struct pframe *f)
{
    if (f->e->kind != EXPR_QUANT || f->depth == OFF_CHAIN || f->e->u.quant.max <= 1)
        return false;
    if (f->step + 1 < st->k)
        return true;
    const struct expr *const *chain = st->chain + st->off[f->step];
    for (uint32_t d = f->depth + 1; d < st->len[f->step]; d++)
        if (chain[d]->kind == EXPR_ALT)
            return true;
    return false;
}

/* The number of children printed: a split quantifier prints its others, the
 * narrowed repetition, and (when they can come on both sides) others again. */
static uint32_t frame_children(const struct pframe *f)
{
    if (f->pq != PQ_SPLIT)
        return f->e->nchildren;
    return f->e->u.quant.min <= 1 && f->e->u.quant.max == QUANT_INFINITE ? 3 : 2;
}

/* The frame of child c of frame f, resolved. */
static struct pframe child_frame(const struct steps *st, const struct pframe *f, uint32_t c)
{
    if (f->pq == PQ_SPLIT && c != frame_children(f) - 2) {
        /* The other repetitions: x* on both sides of the narrowed one, or
         * after it with the rest of the count (x{2,4}: x{1,3}). */
        uint32_t min = f->e->u.quant.min, max = f->e->u.quant.max;
        struct pframe others = {f->e, f->step, OFF_CHAIN, 0, 0, 0, 0, 0, PQ_OTHERS, false, false};
        others.others_min = frame_children(f) == 3 ? 0 : min ? min - 1 : 0;
        others.others_max = max == QUANT_INFINITE ? max : max - 1;
        return others;
    }
    uint32_t child = f->pq == PQ_SPLIT ? 0 : c;
    struct pframe kid = {f->e->children[child], f->step, OFF_CHAIN, 0, 0, 0, 0, 0, PQ_WRITTEN,
                         false, false};
    if (f->depth != OFF_CHAIN && f->depth + 1 < st->len[f->step] &&
        st->chain[st->off[f->step] + f->depth + 1] == kid.e)
        kid.depth = f->depth + 1;
    resolve(st, &kid);
    if (quant_split(st, &kid))
        kid.pq = PQ_SPLIT;
    /* The narrowed repetition of a split quantifier stands alone, as the
     * element of a dropped x? does. */
    bool dropped = quant_dropped(f) || f->pq == PQ_SPLIT;
    bool labelled = f->e->kind == EXPR_QUANT && !dropped;
    switch (kid.e->kind) {
    case EXPR_ALT: kid.parens = true; break;
    case EXPR_CAT: case EXPR_QUANT:
        kid.under_label = labelled || (quant_dropped(f) && f->under_label);
        kid.parens = kid.under_label && !quant_dropped(&kid);
        break;
    default: break;
    }
    return kid;
}

static void add_literal(struct strbuf *out, const struct expr *lit, bool quoted)
{
    const char *s = lit->u.lit.text;
    size_t len = lit->u.lit.len;
    /* Items are separated by spaces: a literal with a space in it would be
     * invisible (" ") or read as several items (" + "), so it keeps its
     * quotes, as the empty string does. */
    if (quoted || len == 0 || memchr(s, ' ', len)) {
        grammar_lit_label(s, len, out);
        return;
    }
    for (size_t i = 0; i < len;) {
        uint32_t cp = (unsigned char)s[i];
        size_t n = cp < 0x80 ? 1 : utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            n = 1;
        if (cp == '\n')
            strbuf_addstr(out, "\\n");
        else if (cp == '\t')
            strbuf_addstr(out, "\\t");
        else if (cp == '\r')
            strbuf_addstr(out, "\\r");
        else if (cp < 0x20 || cp == 0x7F)
            strbuf_addf(out, "\\x%02X", (unsigned)cp);
        else if (cp >= 0x80 && cp < 0xA0)
            strbuf_addf(out, "\\u{%X}", (unsigned)cp);
        else
            strbuf_add(out, s + i, n);
        i += n;
    }
}

bool pattern_render(const struct graph *g, const uint32_t *path, uint32_t k,
                    const struct pattern_options *opts, struct strbuf *out,
                    struct diag_list *diags)
{
    struct diag_list ignored = DIAG_LIST_INIT;
    bool valid = pattern_check_path(g, path, k, diags ? diags : &ignored);
    diag_list_free(&ignored);
    if (!valid)
        return false;
    bool quoted = opts && opts->quoted, mark = opts && opts->mark;
    bool hide_skip = opts && opts->hide_skip;
    struct steps st;
    build_steps(g, path, k, &st);

    struct pframe *stack = NULL;
    size_t cap = 0, depth = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[0] = (struct pframe){st.chain[st.off[0]], 0, 0, 0, 0, 0, 0, 0, PQ_WRITTEN, false, false};
    resolve(&st, &stack[0]);
    /* s_1 alone in its alternative stands for the whole pattern: brackets
     * around everything would tell nothing. */
    if (st.len[0] == 1)
        stack[0].marks--;
    if (quant_split(&st, &stack[0]))
        stack[0].pq = PQ_SPLIT;
    depth = 1;
    while (depth) {
        struct pframe *f = &stack[depth - 1];
        const struct expr *e = f->e;
        if (f->next == 0) {
            for (uint32_t m = 0; mark && m < f->marks; m++)
                strbuf_addch(out, '[');
            if (f->parens)
                strbuf_addch(out, '(');
        }
        if (f->next < frame_children(f)) {
            uint32_t c = f->next++;
            struct pframe kid = child_frame(&st, f, c);
            /* An import's _skip between two tokens, off the path: left out. */
            if (hide_skip && e->kind == EXPR_CAT && kid.depth == OFF_CHAIN &&
                kid.e->kind == EXPR_REF && skip_paths_is_skip_rule(kid.e->u.ref.name))
                continue;
            if (f->printed++)
                strbuf_addstr(out, e->kind == EXPR_ALT ? " | " : " ");
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = kid;
            continue;
        }
        switch (e->kind) {
        case EXPR_LIT: add_literal(out, e, quoted); break;
        case EXPR_CLASS: strbuf_addstr(out, e->u.cls.source); break;
        case EXPR_REF: strbuf_addstr(out, e->u.ref.name); break;
        default: break;
        }
        if (f->pq == PQ_OTHERS) {
            struct expr others = *e;
            others.u.quant.min = f->others_min;
            others.u.quant.max = f->others_max;
            if (f->others_min != 1 || f->others_max != 1)
                grammar_quant_label(&others, out);
        } else if (f->pq == PQ_SPLIT) {
            /* the label went to the other repetitions */
        } else if (quant_narrowed(f) && !quant_dropped(f)) {
            struct expr at_least_once = *e;
            at_least_once.u.quant.min = 1;
            grammar_quant_label(&at_least_once, out);
        } else if (e->kind == EXPR_QUANT && !quant_dropped(f)) {
            grammar_quant_label(e, out);
        }
        if (f->parens)
            strbuf_addch(out, ')');
        for (uint32_t m = 0; mark && m < f->marks; m++)
            strbuf_addch(out, ']');
        depth--;
    }
    free(stack);
    free_steps(&st);
    return true;
}
