#include "gen/mend.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "grammar/lexer.h"
#include "graph/written.h"

/* Where each instance of a tree is: its bytes in the raw text (the text as
 * derived, before separators) and its decisions in pre-order (as
 * derivation_decisions lists them: [dec_first, dec_end) are its own and its
 * subtree's); and the parser tokens the text is made of. */
struct layout {
    size_t *start, *end;
    uint32_t *dec_first, *dec_end;
    struct lexer_span *want; /* parser tokens (not skip), in order */
    size_t nwant, want_cap;
    struct strbuf raw;
};

#define INST_END 0x80000000u /* on the stack: instance i's subtree ends */

static void layout_free(struct layout *l)
{
    free(l->start);
    free(l->end);
    free(l->dec_first);
    free(l->dec_end);
    free(l->want);
    strbuf_free(&l->raw);
    memset(l, 0, sizeof *l);
}

static void layout_of(const struct derivation *t, const struct lexer *lx, const uint32_t *node_token,
                      struct layout *l)
{
    const struct graph *g = t->graph;
    const struct lexer_spec *spec = lexer_spec_of(lx);
    memset(l, 0, sizeof *l);
    l->raw = (struct strbuf)STRBUF_INIT;
    size_t n = t->len;
    l->start = xmalloc(n * sizeof *l->start);
    l->end = xmalloc(n * sizeof *l->end);
    l->dec_first = xmalloc(n * sizeof *l->dec_first);
    l->dec_end = xmalloc(n * sizeof *l->dec_end);
    uint32_t *stack = NULL, decisions = 0, token_inst = DTREE_NONE;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        if (inst & INST_END) {
            inst &= ~INST_END;
            l->end[inst] = l->raw.len;
            l->dec_end[inst] = decisions;
            if (inst == token_inst) {
                token_inst = DTREE_NONE;
                if (l->nwant && l->want[l->nwant - 1].end == SIZE_MAX)
                    l->want[l->nwant - 1].end = l->raw.len;
            }
            continue;
        }
        const struct derivation_inst *in = &t->insts[inst];
        const struct graph_node *nd = &g->nodes[in->node];
        l->start[inst] = l->raw.len;
        l->dec_first[inst] = decisions;
        if (!in->open && derivation_needs_decision(g, in->node))
            decisions++;
        uint32_t r = node_token[in->node];
        if (r != RULE_NONE && token_inst == DTREE_NONE) { /* a whole token begins */
            token_inst = inst;
            if (!spec->rules[r].skip) {
                l->want = xgrow(l->want, &l->want_cap, l->nwant + 1, sizeof *l->want);
                l->want[l->nwant++] = (struct lexer_span){l->raw.len, SIZE_MAX, r};
            }
        }
        if (nd->kind == NODE_LIT)
            strbuf_add(&l->raw, nd->expr->u.lit.text, nd->expr->u.lit.len);
        else if (nd->kind == NODE_CLASS && !in->open)
            strbuf_add_utf8(&l->raw, in->ch);
        stack = xgrow(stack, &cap, depth + in->nchildren + 1, sizeof *stack);
        stack[depth++] = inst | INST_END;
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
}

/* The type the lexer gives a token of rule r (type(X), else r). */
static uint32_t type_of(const struct lexer *lx, uint32_t r)
{
    const struct lexer_rule *lr = &lexer_spec_of(lx)->rules[r];
    return lr->type ? lexer_rule_index(lx, lr->type) : r;
}

/* What the lexer reads right of a written text: `right`, how many of the
 * parser tokens it reads in order before the first it reads otherwise;
 * `missing`, how many of them it does not read anywhere, each looked for
 * within MEND_WINDOW tokens of where it was derived (a token swallowed by a
 * comment is missing; one read right after a line end put before it is
 * not).  An edit is progress when it reads more right, or as many and
 * misses fewer. */
struct reading {
    size_t right, missing;
};

#define MEND_WINDOW 3u

static bool reads_more(struct reading a, struct reading b)
{
    return a.right != b.right ? a.right > b.right : a.missing < b.missing;
}

static bool same_token(const struct lexer *lx, const struct layout *l, const struct strbuf *text,
                       const struct lexer_token *t, const struct lexer_span *w)
{
    size_t len = t->end - t->start;
    return t->type == type_of(lx, w->rule) && len == w->end - w->start &&
           memcmp(strbuf_str(text) + t->start, strbuf_str(&l->raw) + w->start, len) == 0;
}

static struct reading read_right(const struct lexer *lx, const struct layout *l,
                                 const struct strbuf *text)
{
    struct lexer_token *toks = NULL;
    size_t ntoks = 0, err = 0, next = 0, found = 0;
    struct reading r = {0, 0};
    bool wrong = false;
    lexer_run(lx, strbuf_str(text), text->len, &toks, &ntoks, &err);
    for (size_t i = 0; i < ntoks && next < l->nwant; i++) {
        if (toks[i].hidden)
            continue;
        size_t j = next;
        while (j < l->nwant && j < next + MEND_WINDOW && !same_token(lx, l, text, &toks[i], &l->want[j]))
            j++;
        if (j == l->nwant || j == next + MEND_WINDOW) {
            wrong = true;
            continue;
        }
        wrong = wrong || j != next;
        if (!wrong)
            r.right++;
        found++;
        next = j + 1;
    }
    free(toks);
    r.missing = l->nwant - found;
    return r;
}

/* Append to *out the decisions (pre-order) of the smallest subtree of
 * node: the alternative of least min_weight, the fewest repetitions, a
 * class's default character.  Terminates: a child on a smallest way weighs
 * less than its parent. */
static void smallest_decisions(const struct graph *g, uint32_t node, uint32_t **out, size_t *n,
                               size_t *cap)
{
    struct derivation s;
    derivation_init(&s, g, node);
    uint32_t *stack = NULL;
    size_t depth = 0, scap = 0;
    stack = xgrow(stack, &scap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        uint32_t nd = s.insts[inst].node;
        const struct graph_node *gn = &g->nodes[nd];
        uint32_t decision = 0;
        if (gn->kind == NODE_ALT) {
            const uint32_t *kids = graph_children(g, nd);
            for (uint32_t a = 1; a < gn->nchildren; a++)
                if (g->nodes[kids[a]].min_weight < g->nodes[kids[decision]].min_weight)
                    decision = a;
        } else if (gn->kind == NODE_QUANT) {
            decision = gn->expr->u.quant.min;
        } else if (gn->kind == NODE_CLASS) {
            decision = grammar_class_default_char(gn->expr);
        }
        if (derivation_needs_decision(g, nd)) {
            *out = xgrow(*out, cap, *n + 1, sizeof **out);
            (*out)[(*n)++] = decision;
        }
        derivation_expand(&s, inst, decision);
        const struct derivation_inst *in = &s.insts[inst];
        stack = xgrow(stack, &scap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(&s, inst)[c];
    }
    free(stack);
    derivation_free(&s);
}

/* Does the smallest subtree of node (smallest_decisions) write blanks
 * only (spaces, tabs, line ends), and something?  Such an edit is tried
 * first: a separator as a person writes it. */
static bool writes_blank(const struct graph *g, uint32_t node)
{
    uint32_t *dec = NULL;
    size_t n = 0, cap = 0;
    smallest_decisions(g, node, &dec, &n, &cap);
    struct derivation s;
    derivation_init(&s, g, node);
    derivation_replay(&s, dec, n, NULL);
    struct strbuf text = STRBUF_INIT;
    derivation_text(&s, &text);
    bool blank = text.len > 0;
    for (size_t i = 0; i < text.len && blank; i++)
        blank = strchr(" \t\r\n\f", strbuf_str(&text)[i]) != NULL;
    strbuf_free(&text);
    derivation_free(&s);
    free(dec);
    return blank;
}

enum edit_kind { EDIT_ADD, EDIT_CHAR, EDIT_ALT, EDIT_DROP };

struct edit {
    uint32_t inst;
    enum edit_kind kind;
    uint32_t value; /* EDIT_CHAR: the character; EDIT_ALT: the alternative */
    size_t width;   /* the instance's bytes: narrow ones first */
    bool blank;     /* EDIT_ADD, EDIT_ALT: the new subtree writes blanks only */
};

static int edit_order(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    if (x->width != y->width)
        return x->width < y->width ? -1 : 1;
    if (x->blank != y->blank)
        return x->blank ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static void add_edit(struct edit **e, size_t *n, size_t *cap, struct edit ed)
{
    *e = xgrow(*e, cap, *n + 1, sizeof **e);
    (*e)[(*n)++] = ed;
}

/* The characters to try in place of `current` in a class: its default
 * character, then its first letter and digit (at most 3, never current). */
static size_t char_options(const struct expr *cls, uint32_t current, uint32_t *opt)
{
    static const char tries[] = "A0a";
    size_t n = 0;
    uint32_t d = grammar_class_default_char(cls);
    if (d != current)
        opt[n++] = d;
    for (const char *c = tries; *c && n < 3; c++) {
        uint32_t cp = (unsigned char)*c;
        bool seen = cp == current;
        for (size_t i = 0; i < n; i++)
            seen = seen || opt[i] == cp;
        if (!seen && grammar_class_matches(cls, cp))
            opt[n++] = cp;
    }
    return n;
}

/* The edits at the instances that overlap raw bytes (lo, hi] (a token
 * read wrong and the gap before it), and the empty ones at hi (a
 * repetition there could separate it from what follows).  Not the empty
 * ones at lo: what comes before the gap reads right. */
static size_t edits_at(const struct derivation *t, const struct layout *l, size_t lo, size_t hi,
                       struct edit **out, size_t *cap)
{
    const struct graph *g = t->graph;
    size_t n = 0;
    for (uint32_t i = 0; i < t->len; i++) {
        if (l->start[i] > hi || l->end[i] < lo || (l->end[i] == lo && lo < hi))
            continue;
        const struct derivation_inst *in = &t->insts[i];
        const struct graph_node *nd = &g->nodes[in->node];
        size_t width = l->end[i] - l->start[i];
        if (nd->kind == NODE_QUANT) {
            const uint32_t child = graph_children(g, in->node)[0];
            if (in->nchildren < nd->expr->u.quant.max && g->nodes[child].min_length > 0 &&
                g->nodes[child].min_length != METRIC_INFINITE)
                add_edit(out, &n, cap, (struct edit){i, EDIT_ADD, 0, width, writes_blank(g, child)});
            if (in->nchildren > nd->expr->u.quant.min)
                add_edit(out, &n, cap, (struct edit){i, EDIT_DROP, 0, width, false});
        } else if (nd->kind == NODE_CLASS) {
            uint32_t opt[3];
            size_t nopt = char_options(nd->expr, in->ch, opt);
            for (size_t o = 0; o < nopt; o++)
                add_edit(out, &n, cap, (struct edit){i, EDIT_CHAR, opt[o], width, false});
        } else if (nd->kind == NODE_ALT) {
            uint32_t chosen = derivation_decision(t, i);
            const uint32_t *kids = graph_children(g, in->node);
            for (uint32_t a = 0; a < nd->nchildren; a++)
                if (a != chosen && g->nodes[kids[a]].min_weight != METRIC_INFINITE)
                    add_edit(out, &n, cap,
                             (struct edit){i, EDIT_ALT, a, width, writes_blank(g, kids[a])});
        }
    }
    qsort(*out, n, sizeof **out, edit_order);
    return n;
}

/* The tree t with edit `ed` applied, into *out (false: not allowed). */
static bool apply_edit(const struct derivation *t, const struct layout *l, const uint32_t *dec,
                       size_t ndec, const struct edit *ed, struct derivation *out)
{
    const struct graph *g = t->graph;
    const struct derivation_inst *in = &t->insts[ed->inst];
    uint32_t first = l->dec_first[ed->inst], end = l->dec_end[ed->inst];
    uint32_t *nd = NULL;
    size_t n = 0, cap = 0;
    nd = xgrow(nd, &cap, ndec + 1, sizeof *nd);
    memcpy(nd, dec, first * sizeof *nd);
    n = first;
    switch (ed->kind) {
    case EDIT_ADD:
        nd[n++] = in->nchildren + 1;
        nd = xgrow(nd, &cap, n + (end - first - 1), sizeof *nd);
        memcpy(nd + n, dec + first + 1, (end - first - 1) * sizeof *nd);
        n += end - first - 1;
        smallest_decisions(g, graph_children(g, in->node)[0], &nd, &n, &cap);
        break;
    case EDIT_DROP: {
        uint32_t last = derivation_children(t, ed->inst)[in->nchildren - 1];
        nd[n++] = in->nchildren - 1;
        memcpy(nd + n, dec + first + 1, (l->dec_first[last] - first - 1) * sizeof *nd);
        n += l->dec_first[last] - first - 1;
        break;
    }
    case EDIT_CHAR:
        nd[n++] = ed->value;
        break;
    case EDIT_ALT:
        nd[n++] = ed->value;
        smallest_decisions(g, graph_children(g, in->node)[ed->value], &nd, &n, &cap);
        break;
    }
    nd = xgrow(nd, &cap, n + (ndec - end), sizeof *nd);
    memcpy(nd + n, dec + end, (ndec - end) * sizeof *nd);
    n += ndec - end;
    derivation_init(out, g, 0);
    long used = derivation_replay(out, nd, n, NULL);
    free(nd);
    if (used != (long)n || !derivation_complete(out)) {
        derivation_free(out);
        return false;
    }
    return true;
}

/* A tree of the search, with what the lexer reads right of it. */
struct beam_tree {
    struct derivation tree;
    struct layout l;
    struct reading read;
};

static void beam_free(struct beam_tree *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        derivation_free(&b[i].tree);
        layout_free(&b[i].l);
    }
}

bool mend_tree(struct derivation *t, const struct mend_limits *lim, struct strbuf *out)
{
    struct strbuf text = STRBUF_INIT;
    bool ok = derivation_written_text(t, &text);
    const uint32_t *node_token = NULL;
    const struct lexer *lx = graph_written_lexer(t->graph, &node_token);
    if (ok || !lx || !t->len || !derivation_complete(t)) {
        if (out)
            strbuf_add(out, strbuf_str(&text), text.len);
        strbuf_free(&text);
        return ok;
    }
    struct strbuf first = text; /* the text as it was, for `out` on failure */
    text = (struct strbuf)STRBUF_INIT;
    /* The beam: the trees the next round edits.  A round keeps the edited
     * tree the lexer reads most of, when that is more than before; else up
     * to MEND_BEAM trees it reads as much of (an edit that helps only
     * with a second one: a blank after a line comment dropped, then a
     * line end put there). */
    struct beam_tree beam[MEND_BEAM], next[MEND_BEAM];
    size_t nbeam = 1, nnext = 0;
    derivation_copy(&beam[0].tree, t);
    layout_of(&beam[0].tree, lx, node_token, &beam[0].l);
    beam[0].read = read_right(lx, &beam[0].l, &first);
    struct edit *edits = NULL;
    size_t edits_cap = 0;
    uint32_t trials = 0;
    struct derivation done;
    for (uint32_t round = 0; !ok && round < MEND_ROUNDS && nbeam; round++) {
        struct reading best = beam[0].read;
        size_t right = best.right;
        bool better = false;
        nnext = 0;
        for (size_t b = 0; b < nbeam && !ok && trials < MEND_TRIALS; b++) {
            const struct derivation *cur = &beam[b].tree;
            const struct layout *l = &beam[b].l;
            /* Where the reading first goes wrong: the gap before the first
             * parser token not read right, and that token. */
            size_t lo = right ? l->want[right - 1].end : 0;
            size_t hi = right < l->nwant ? l->want[right].end : l->raw.len;
            size_t nedits = edits_at(cur, l, lo, hi, &edits, &edits_cap);
            size_t ndec = 0;
            uint32_t *dec = derivation_decisions(cur, &ndec);
            for (size_t e = 0; e < nedits && !ok && trials < MEND_TRIALS; e++) {
                struct derivation cand;
                if (!apply_edit(cur, l, dec, ndec, &edits[e], &cand))
                    continue;
                trials++;
                if (derivation_depth(&cand) > lim->max_depth ||
                    (lim->max_size && cand.len > lim->max_size && cand.len > cur->len) ||
                    (lim->keep && !lim->keep(&cand, lim->ctx))) {
                    derivation_free(&cand);
                    continue;
                }
                text.len = 0;
                if (derivation_written_text(&cand, &text)) {
                    ok = true;
                    done = cand;
                    break;
                }
                struct layout cl;
                layout_of(&cand, lx, node_token, &cl);
                struct reading r = read_right(lx, &cl, &text);
                bool more = reads_more(r, best);
                if (more || (!reads_more(best, r) && !better && nnext < MEND_BEAM)) {
                    if (more) { /* the one tree to go on from */
                        beam_free(next, nnext);
                        nnext = 0;
                        best = r;
                        better = true;
                    }
                    next[nnext++] = (struct beam_tree){cand, cl, r};
                } else {
                    derivation_free(&cand);
                    layout_free(&cl);
                }
            }
            free(dec);
        }
        beam_free(beam, nbeam);
        memcpy(beam, next, nnext * sizeof *next);
        nbeam = nnext;
        nnext = 0;
        if (trials >= MEND_TRIALS)
            break;
    }
    beam_free(beam, nbeam);
    if (ok) {
        derivation_free(t);
        *t = done;
    }
    if (out)
        strbuf_add(out, strbuf_str(ok ? &text : &first), (ok ? &text : &first)->len);
    free(edits);
    strbuf_free(&text);
    strbuf_free(&first);
    return ok;
}
