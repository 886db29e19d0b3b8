#include "parse/token_bounds.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "grammar/lexer.h"
#include "graph/skip_paths.h"
#include "graph/written.h"

/* Texts in messages are shortened to this many code points. */
#define DESCRIBE_MAX 24

/* The code point index of every byte offset that starts one (and of len):
 * NULL for ASCII text, where they are the same. */
static uint32_t *code_point_index(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (unsigned char)text[i] < 0x80)
        i++;
    if (i == len)
        return NULL;
    uint32_t *cp_at = xmalloc((len + 1) * sizeof *cp_at);
    uint32_t n = 0;
    for (i = 0; i < len;) {
        uint32_t cp;
        size_t used = utf8_decode(text + i, len - i, &cp);
        if (!used)
            used = 1;
        for (size_t k = 0; k < used; k++)
            cp_at[i + k] = n;
        n++;
        i += used;
    }
    cp_at[len] = n;
    return cp_at;
}

/* Line and column (code points, from 1) of byte offset at. */
static void line_col(const char *text, size_t len, size_t at, uint32_t *line, uint32_t *col)
{
    *line = 1, *col = 1;
    for (size_t i = 0; i < at && i < len;) {
        uint32_t cp;
        size_t used = utf8_decode(text + i, len - i, &cp);
        if (!used)
            used = 1, cp = (unsigned char)text[i];
        if (cp == '\n')
            ++*line, *col = 1;
        else
            ++*col;
        i += used;
    }
}

/* text[from..to) in single quotes, escaped, shortened to DESCRIBE_MAX code
 * points; stops at a line end when stop_at_line. */
static void add_quoted(struct strbuf *out, const char *text, size_t from, size_t to,
                       bool stop_at_line)
{
    strbuf_addch(out, '\'');
    uint32_t n = 0;
    size_t i = from;
    while (i < to && n < DESCRIBE_MAX) {
        uint32_t cp;
        size_t used = utf8_decode(text + i, to - i, &cp);
        if (!used)
            used = 1, cp = (unsigned char)text[i];
        if (stop_at_line && (cp == '\n' || cp == '\r'))
            break;
        switch (cp) {
        case '\n': strbuf_addstr(out, "\\n"); break;
        case '\r': strbuf_addstr(out, "\\r"); break;
        case '\t': strbuf_addstr(out, "\\t"); break;
        case '\'': strbuf_addstr(out, "\\'"); break;
        case '\\': strbuf_addstr(out, "\\\\"); break;
        default: escape_add_code_point(out, cp); break;
        }
        n++;
        i += used;
    }
    strbuf_addch(out, '\'');
    if (i < to && n == DESCRIBE_MAX)
        strbuf_addstr(out, "...");
}

/* A token rule without text (`--token INDENT=`: a token that the
 * grammar's actions emit): the lexer never forms it, the parser reads it
 * anywhere between two tokens. */
static bool is_textless(const struct expr *rhs)
{
    return rhs && rhs->kind == EXPR_LIT && rhs->u.lit.len == 0;
}

/* Which nodes are constrained, and how (see the header). */
static void classify_nodes(struct token_bounds *tb, const struct lexer *lx,
                           const uint32_t *node_token)
{
    const struct graph *g = tb->g;
    const struct grammar *gr = g->grammar;
    tb->node_type = xmalloc(((size_t)g->nnodes + 1) * sizeof *tb->node_type);
    for (uint32_t i = 0; i <= g->nnodes; i++) {
        tb->node_type[i] = TB_FREE;
        if (i == g->nnodes)
            continue; /* the parser's virtual start */
        const struct graph_node *n = &g->nodes[i];
        const char *owner = n->rule < gr->nrules ? gr->rules[n->rule].name : NULL;
        if (!owner || skip_paths_is_skip_rule(owner) || lexer_rule_index(lx, owner) != RULE_NONE)
            continue; /* inside a token, or a hidden token of a skip rule */
        const struct expr *e = n->expr;
        if (n->kind == NODE_REF && e && e->kind == EXPR_REF &&
            skip_paths_is_skip_rule(e->u.ref.name))
            tb->node_type[i] = TB_SKIP;
        else if (node_token[i] != RULE_NONE && n->kind == NODE_REF && e &&
                 e->kind == EXPR_REF && e->u.ref.target < gr->nrules &&
                 is_textless(gr->rules[e->u.ref.target].rhs))
            tb->node_type[i] = TB_SKIP; /* at a token boundary, spanning nothing */
        else if (node_token[i] != RULE_NONE)
            tb->node_type[i] = node_token[i];
    }
    tb->constrained = xmalloc(((size_t)g->nnodes + 1) * sizeof *tb->constrained);
    for (uint32_t i = 0; i <= g->nnodes; i++)
        tb->constrained[i] = tb->node_type[i] != TB_FREE;
}

bool token_bounds_new(const struct graph *g, const char *name, const char *text, size_t len,
                      struct token_bounds **out, struct diag_list *diags)
{
    *out = NULL;
    const uint32_t *node_token = NULL;
    const struct lexer *lx = g->grammar ? graph_written_lexer(g, &node_token) : NULL;
    if (!lx || !node_token)
        return true;
    if (!text)
        text = "";
    struct lexer_token *toks = NULL;
    size_t ntoks = 0, error_at = 0;
    if (!lexer_run(lx, text, len, &toks, &ntoks, &error_at)) {
        uint32_t line, col;
        line_col(text, len, error_at, &line, &col);
        struct strbuf msg = STRBUF_INIT;
        if (error_at < len) {
            strbuf_addstr(&msg, "no token matches here: ");
            add_quoted(&msg, text, error_at, len, true);
        } else {
            strbuf_addstr(&msg, "no token matches here: the text ends inside a token");
        }
        diag_add(diags, DIAG_ERROR, name, line, col, "%s", strbuf_str(&msg));
        strbuf_free(&msg);
        free(toks);
        return false;
    }
    uint32_t *cp_at = code_point_index(text, len);
    uint32_t n = cp_at ? cp_at[len] : (uint32_t)len;
    struct token_bounds *tb = xcalloc(1, sizeof *tb);
    tb->g = g;
    tb->lexer = lx;
    tb->text = text;
    tb->text_len = len;
    tb->len = n;
    tb->expected_at = UINT32_MAX;
    classify_nodes(tb, lx, node_token);
    size_t cells = (size_t)n + 1;
    tb->tok_type = xmalloc(cells * sizeof *tb->tok_type);
    tb->tok_end = xmalloc(cells * sizeof *tb->tok_end);
    tb->tok_rule = xmalloc(cells * sizeof *tb->tok_rule);
    tb->hidden_reach = xmalloc(cells * sizeof *tb->hidden_reach);
    tb->boundary = xcalloc(cells, sizeof *tb->boundary);
    for (size_t i = 0; i < cells; i++)
        tb->tok_type[i] = TB_NO_TOKEN, tb->tok_end[i] = 0, tb->tok_rule[i] = RULE_NONE;
    tb->boundary[0] = tb->boundary[n] = true;
    for (size_t k = 0; k < ntoks; k++) {
        uint32_t s = cp_at ? cp_at[toks[k].start] : (uint32_t)toks[k].start;
        uint32_t e = cp_at ? cp_at[toks[k].end] : (uint32_t)toks[k].end;
        tb->boundary[s] = tb->boundary[e] = true;
        tb->tok_rule[s] = toks[k].rule;
        if (!toks[k].hidden) {
            /* A type naming no rule (type(X) of a `tokens {}` name) is a
             * token no node writes: nothing may span it. */
            tb->tok_type[s] = toks[k].type != RULE_NONE ? toks[k].type : TB_NO_TOKEN - 1;
            tb->tok_end[s] = e;
        }
    }
    /* hidden_reach, right to left: a hidden token from s to e reaches as far
     * as e does; anything else stops at s. */
    for (size_t i = cells; i-- > 0;)
        tb->hidden_reach[i] = (uint32_t)i;
    for (size_t k = ntoks; k-- > 0;) {
        if (!toks[k].hidden)
            continue;
        uint32_t s = cp_at ? cp_at[toks[k].start] : (uint32_t)toks[k].start;
        uint32_t e = cp_at ? cp_at[toks[k].end] : (uint32_t)toks[k].end;
        tb->hidden_reach[s] = tb->hidden_reach[e];
    }
    free(cp_at);
    free(toks);
    *out = tb;
    return true;
}

void token_bounds_free(struct token_bounds *tb)
{
    if (!tb)
        return;
    free(tb->node_type);
    free(tb->constrained);
    free(tb->tok_type);
    free(tb->tok_end);
    free(tb->tok_rule);
    free(tb->hidden_reach);
    free(tb->boundary);
    free(tb->expected);
    free(tb);
}

/* The byte offset of code point at. */
static size_t byte_of(const struct token_bounds *tb, uint32_t at)
{
    size_t i = 0;
    for (uint32_t n = 0; n < at && i < tb->text_len; n++) {
        uint32_t cp;
        size_t used = utf8_decode(tb->text + i, tb->text_len - i, &cp);
        i += used ? used : 1;
    }
    return i;
}

bool token_bounds_describe(const struct token_bounds *tb, uint32_t at, struct strbuf *out)
{
    if (at >= tb->len || tb->tok_type[at] == TB_NO_TOKEN || tb->tok_rule[at] == RULE_NONE)
        return false;
    const struct lexer_spec *spec = lexer_spec_of(tb->lexer);
    uint32_t t = tb->tok_type[at] < spec->nrules ? tb->tok_type[at] : tb->tok_rule[at];
    const struct lexer_rule *r = &spec->rules[t];
    if (r->implicit) {
        strbuf_addstr(out, "token ");
    } else {
        strbuf_addstr(out, r->name);
        strbuf_addch(out, ' ');
    }
    add_quoted(out, tb->text, byte_of(tb, at), byte_of(tb, tb->tok_end[at]), false);
    return true;
}

void token_bounds_expect(struct token_bounds *tb, uint32_t at, uint32_t node)
{
    uint32_t t = tb->node_type[node];
    if (t >= TB_SKIP)
        return;
    if (tb->expected_at != at)
        tb->expected_at = at, tb->nexpected = 0;
    for (size_t i = 0; i < tb->nexpected; i++)
        if (tb->expected[i] == t)
            return;
    tb->expected = xgrow(tb->expected, &tb->expected_cap, tb->nexpected + 1, sizeof *tb->expected);
    tb->expected[tb->nexpected++] = t;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

bool token_bounds_add_expected(const struct token_bounds *tb, uint32_t at, bool end,
                               struct strbuf *out)
{
    if (tb->expected_at != at || tb->nexpected == 0)
        return false;
    /* In ANTLR's order of token types: implicit tokens, then lexer rules. */
    uint32_t *types = xmalloc(tb->nexpected * sizeof *types);
    memcpy(types, tb->expected, tb->nexpected * sizeof *types);
    qsort(types, tb->nexpected, sizeof *types, compare_u32);
    const struct lexer_spec *spec = lexer_spec_of(tb->lexer);
    size_t total = tb->nexpected + end;
    strbuf_addstr(out, total > 1 ? "; expected one of " : "; expected ");
    for (size_t i = 0; i < tb->nexpected; i++) {
        const struct lexer_rule *r = &spec->rules[types[i]];
        if (i)
            strbuf_addstr(out, ", ");
        if (r->implicit || (r->rhs && r->rhs->kind == EXPR_LIT)) {
            size_t n = r->rhs && r->rhs->kind == EXPR_LIT ? r->rhs->u.lit.len : strlen(r->name);
            const char *lit = r->rhs && r->rhs->kind == EXPR_LIT ? r->rhs->u.lit.text : r->name;
            add_quoted(out, lit, 0, n, false);
        } else {
            strbuf_addstr(out, r->name);
        }
    }
    if (end)
        strbuf_addstr(out, ", end of input");
    free(types);
    return true;
}
