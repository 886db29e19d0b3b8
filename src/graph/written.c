#include <stdatomic.h>
#include <stdlib.h>

#include "graph/written.h"
#include "base/xalloc.h"
#include "grammar/lexer.h"

/* What a graph keeps for writing its texts (graph.written). */
struct written_cache {
    struct graph_cache base;  /* first: graph_free calls base.free */
    struct lexer *lx;         /* NULL: texts as derived */
    uint32_t *node_token;     /* per node: the token it writes (lexer_token_for) */
};

static void cache_free(struct graph_cache *c)
{
    struct written_cache *w = (struct written_cache *)c;
    lexer_free(w->lx);
    free(w->node_token);
    free(w);
}

static const struct written_cache *cache_of(const struct graph *g)
{
    struct graph *mut = (struct graph *)g; /* the cache only: built once, then read */
    struct graph_cache *c = atomic_load(&mut->written);
    if (c)
        return (const struct written_cache *)c;
    struct written_cache *w = xcalloc(1, sizeof *w);
    w->base.free = cache_free;
    const struct grammar *gr = g->grammar;
    if (gr && gr->lexer) {
        struct diag_list ignored = DIAG_LIST_INIT; /* no lexer: texts as derived */
        w->lx = lexer_compile(gr, gr->lexer, gr->file, &ignored);
        diag_list_free(&ignored);
    }
    if (w->lx) {
        w->node_token = xmalloc(((size_t)g->nnodes + 1) * sizeof *w->node_token);
        for (uint32_t i = 0; i < g->nnodes; i++)
            w->node_token[i] = lexer_token_for(w->lx, gr, g->nodes[i].expr);
    }
    struct graph_cache *expected = NULL;
    if (!atomic_compare_exchange_strong(&mut->written, &expected, &w->base)) {
        cache_free(&w->base); /* another thread was first */
        return (const struct written_cache *)expected;
    }
    return w;
}

const struct lexer *graph_written_lexer(const struct graph *g, const uint32_t **node_token)
{
    const struct written_cache *w = cache_of(g);
    if (node_token)
        *node_token = w->node_token;
    return w->lx;
}

#define TOKEN_END 0x80000000u /* on the stack: the token begun at span i ends */

bool derivation_written_text(const struct derivation *t, struct strbuf *out)
{
    const struct graph *g = t->graph;
    const struct written_cache *w = cache_of(g);
    if (!w->lx) {
        derivation_text(t, out);
        return true;
    }
    /* The text, and the span of every token in it (the outermost node that
     * writes a whole token; its inner ones are part of it). */
    struct strbuf raw = STRBUF_INIT;
    struct lexer_span *spans = NULL;
    size_t nspans = 0, spans_cap = 0, in_token = 0;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        if (inst & TOKEN_END) {
            spans[inst & ~TOKEN_END].end = raw.len;
            in_token--;
            continue;
        }
        const struct derivation_inst *in = &t->insts[inst];
        if (in->open)
            continue;
        const struct graph_node *n = &g->nodes[in->node];
        if (!in_token && w->node_token[in->node] != RULE_NONE && nspans < TOKEN_END) {
            spans = xgrow(spans, &spans_cap, nspans + 1, sizeof *spans);
            spans[nspans] = (struct lexer_span){raw.len, 0, w->node_token[in->node]};
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = (uint32_t)nspans++ | TOKEN_END;
            in_token++;
        }
        if (n->kind == NODE_LIT)
            strbuf_add(&raw, n->expr->u.lit.text, n->expr->u.lit.len);
        else if (n->kind == NODE_CLASS)
            strbuf_add_utf8(&raw, in->ch);
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
    bool ok = true;
    if (nspans && raw.len)
        ok = lexer_separate(w->lx, strbuf_str(&raw), raw.len, spans, nspans, out);
    else
        strbuf_add(out, strbuf_str(&raw), raw.len);
    free(spans);
    strbuf_free(&raw);
    return ok;
}
