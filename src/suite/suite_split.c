#include "suite/suite_split.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "grammar/grammar.h"
#include "graph/derivation.h"
#include "graph/written.h"
#include "suite/tree_edit.h"

/* The pre-order position of the quantifier instance to split at, or
 * SIZE_MAX: see suite_split.h.  ed has measured t. */
static size_t split_point(const struct tree_editor *ed, const struct derivation *t)
{
    const struct graph *g = ed->g;
    uint64_t chars = ed->weight[0] >> 32;
    for (size_t p = 0; p < t->len; p++) {
        uint32_t e = ed->preorder[p];
        const struct graph_node *node = &g->nodes[t->insts[e].node];
        if (node->kind == NODE_QUANT && t->insts[e].nchildren >= 2 &&
            node->expr->u.quant.min <= 1 && ed->weight[e] >> 32 == chars)
            return p;
    }
    return SIZE_MAX;
}

static size_t written_len(const struct derivation *t, char **text)
{
    struct strbuf sb = STRBUF_INIT;
    derivation_written_text(t, &sb);
    size_t len = 0;
    *text = strbuf_detach(&sb, &len);
    return len;
}

/* A copy of in with tree t (its text written afresh). */
static void part_of(const struct generator *gen, const struct gen_input *in,
                    const struct derivation *t, struct gen_input *out)
{
    *out = *in;
    derivation_pack(t, &out->tree);
    out->len = written_len(t, &out->text);
    out->depth = derivation_depth(t);
    out->derivation_depth = gen_derivation_depth(t);
    out->new_paths = NULL;
    out->nnew = 0;
    out->target = in->target ? xmemdup(in->target, gen->opts.k * sizeof *in->target) : NULL;
}

/* The parts of tree t split at pre-order position p into parts[] (each
 * initialized; a drop leaves the positions before it as they were); how
 * many, 0 when an edit failed. */
static size_t split_tree(struct tree_editor *ed, const struct derivation *t, size_t p,
                         struct derivation **parts, size_t *cap)
{
    struct derivation rest;
    derivation_copy(&rest, t);
    size_t n = 0;
    for (;;) {
        tree_edit_measure(ed, &rest);
        uint32_t e = ed->preorder[p];
        uint32_t reps = rest.insts[e].nchildren;
        *parts = xgrow(*parts, cap, n + 1, sizeof **parts);
        if (reps < 2) {
            (*parts)[n++] = rest;
            return n;
        }
        /* The first repetition alone, then the others. */
        struct tree_edit first = {TREE_EDIT_DROP, e, 1, reps - 1, NULL};
        struct tree_edit others = {TREE_EDIT_DROP, e, 0, 1, NULL};
        struct derivation part, next;
        bool ok = tree_edit_apply(ed, &rest, &first, &part);
        ok = tree_edit_apply(ed, &rest, &others, &next) && ok;
        derivation_free(&rest);
        if (!ok) {
            derivation_free(&part);
            derivation_free(&next);
            for (size_t i = 0; i < n; i++)
                derivation_free(&(*parts)[i]);
            return 0;
        }
        (*parts)[n++] = part;
        rest = next;
    }
}

size_t suite_split(const struct generator *gen, struct gen_input **inputs, size_t *n)
{
    const struct graph *g = gen->graph;
    if (!*n || gen->space.saturated)
        return 0;
    struct tree_editor ed;
    tree_editor_init(&ed, g, NULL, UINT32_MAX);
    uint32_t *holders = xcalloc((size_t)gen->space.total + 1, sizeof *holders);
    uint64_t *ranks = NULL;
    size_t rcap = 0;
    for (size_t i = 0; i < *n; i++) {
        struct derivation t;
        derivation_unpack(&(*inputs)[i].tree, g, &t);
        size_t m = gen_tree_ranks(gen, &t, false, &ranks, &rcap);
        for (size_t j = 0; j < m; j++)
            holders[ranks[j]]++;
        derivation_free(&t);
    }
    /* out: the suite being built; the inputs are looked at in order, the
     * parts of a split one before the inputs after it. */
    struct gen_input *out = NULL, *todo = NULL;
    size_t nout = 0, ocap = 0, ntodo = 0, tcap = 0, split = 0;
    struct derivation *parts = NULL;
    size_t pcap = 0;
    for (size_t i = *n; i-- > 0;) { /* a stack: the first input on top */
        todo = xgrow(todo, &tcap, ntodo + 1, sizeof *todo);
        todo[ntodo++] = (*inputs)[i];
    }
    free(*inputs);
    while (ntodo) {
        struct gen_input in = todo[--ntodo];
        struct derivation t;
        derivation_unpack(&in.tree, g, &t);
        tree_edit_measure(&ed, &t);
        size_t p = split_point(&ed, &t), np = 0;
        if (p != SIZE_MAX)
            np = split_tree(&ed, &t, p, &parts, &pcap);
        size_t bytes = 0;
        for (size_t j = 0; j < np; j++) {
            char *text;
            bytes += written_len(&parts[j], &text);
            free(text);
        }
        if (np >= 2 && bytes <= in.len) {
            split++;
            /* The input's k-paths move to its parts; a part holding nothing
             * no other input or part holds is left out, the last first. */
            size_t m = gen_tree_ranks(gen, &t, false, &ranks, &rcap);
            for (size_t j = 0; j < m; j++)
                holders[ranks[j]]--;
            bool *keep = xcalloc(np, sizeof *keep);
            for (size_t j = 0; j < np; j++) {
                m = gen_tree_ranks(gen, &parts[j], false, &ranks, &rcap);
                for (size_t r = 0; r < m; r++)
                    holders[ranks[r]]++;
            }
            for (size_t j = np; j-- > 0;) { /* the last first: the first stays */
                m = gen_tree_ranks(gen, &parts[j], false, &ranks, &rcap);
                bool own = false;
                for (size_t r = 0; r < m && !own; r++)
                    own = holders[ranks[r]] < 2;
                keep[j] = own;
                if (!own)
                    for (size_t r = 0; r < m; r++)
                        holders[ranks[r]]--;
            }
            for (size_t j = np; j-- > 0;) { /* on the stack, the first on top */
                if (keep[j]) {
                    todo = xgrow(todo, &tcap, ntodo + 1, sizeof *todo);
                    part_of(gen, &in, &parts[j], &todo[ntodo++]);
                }
                derivation_free(&parts[j]);
            }
            free(keep);
            gen_input_free(&in);
        } else {
            for (size_t j = 0; j < np; j++)
                derivation_free(&parts[j]);
            out = xgrow(out, &ocap, nout + 2, sizeof *out);
            out[nout++] = in;
        }
        derivation_free(&t);
    }
    out = xgrow(out, &ocap, nout + 2, sizeof *out);
    *inputs = out;
    *n = nout;
    free(todo);
    free(parts);
    free(ranks);
    free(holders);
    tree_editor_free(&ed);
    return split;
}
