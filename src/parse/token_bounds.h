/* token_bounds: a sample of an ANTLR grammar read as ANTLR reads it, its
 * tokens first.
 *
 * The imported grammar is character-level (formats/import_antlr.c): parser
 * rules refer to token rules, literals and `_skip` rules, whose texts are
 * derived character by character.  On its own that reads more than ANTLR:
 * a `//` comment may end mid-line, `ifx` may be the keyword `if` and the
 * identifier `x`, two tokens may run together.  Before the parse, the
 * grammar's lexer (grammar/lexer.h: longest match, rule order, modes,
 * skip, channels, more, type) splits the sample into tokens; this module
 * keeps them as a table by position, and the parser consults it:
 *   - a *token node* (a literal or a reference to a token rule in a parser
 *     rule: the node that writes a whole token, lexer_token_for) spans
 *     exactly one parser token of its type, [start, end) as the lexer found
 *     it;
 *   - a *skip node* (a reference to `_skip` or `_skip_M` in a parser rule)
 *     spans from a token boundary to a token boundary across hidden tokens
 *     only (skip and channel tokens); so does a reference to a token rule
 *     without text (`--token INDENT=`, a token the grammar's actions
 *     emit), which therefore stands between any two tokens;
 *   - every other node is free, so the text inside a token is still derived
 *     by its lexer rule, character by character, and the parse gives the
 *     same trees and k-paths as before wherever ANTLR's tokens agree with
 *     them.
 * Since a parser rule holds only token nodes, skip nodes and structure,
 * the text is then parsed as the lexer's token sequence.  A sample the
 * lexer rejects is refused before parsing: "no token matches here" at the
 * position, naming the text.
 *
 * Positions are code points of the text, as the parser's.  Ownership: a
 * token_bounds owns its arrays; it borrows the text and the graph (and, through the
 * graph's cache, the compiled lexer: graph/written.h). */
#ifndef KPATH_TOKEN_BOUNDS_H
#define KPATH_TOKEN_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "graph/graph.h"

struct lexer; /* grammar/lexer.h */

#define TB_FREE UINT32_MAX   /* node_type: a node that is not constrained */
#define TB_SKIP (UINT32_MAX - 1) /* node_type: a skip node */
#define TB_NO_TOKEN UINT32_MAX /* tok_type: no parser token starts here */

struct token_bounds {
    const struct graph *g;
    uint32_t *node_type;  /* per node (and one more, the parser's start): the token type, TB_SKIP, TB_FREE */
    bool *constrained;    /* per node (and one more): node_type is not TB_FREE */
    uint32_t len;         /* code points of the text */
    /* Per position 0 .. len: the type of the parser (not hidden) token that
     * starts there and its end, or TB_NO_TOKEN; whether a token starts or
     * ends there (a boundary); and the furthest boundary reached from there
     * across hidden tokens only (itself when none follows). */
    uint32_t *tok_type, *tok_end, *hidden_reach;
    bool *boundary;
    uint32_t *tok_rule;   /* per position: the rule that matched the token starting there */
    const struct lexer *lexer; /* the graph's */
    const char *text;     /* borrowed: the text, for describing tokens */
    size_t text_len;
    uint32_t *expected;   /* token types predicted at expected_at (token_bounds_expect) */
    size_t nexpected, expected_cap;
    uint32_t expected_at;
    /* The furthest end of a token or skip node that token_bounds_may_span
     * allowed (reached: one was): how far the parser got at the level of
     * tokens.  The text inside a token is derived freely and checked only
     * at the token's end, so the parser's own furthest position may lie
     * beyond it (a comment opener that the lexer read as two tokens, read
     * on as a comment to the end of the text): a failed parse is reported
     * here instead. */
    uint32_t reach;
    bool reached;
};

/* The tokens of text[0..len) (valid UTF-8; it must outlive *out) for graph g:
 * true with *out set (NULL when the grammar has no lexer: nothing to
 * constrain); false after an error "no token matches here" in diags. */
bool token_bounds_new(const struct graph *g, const char *name, const char *text, size_t len,
                      struct token_bounds **out, struct diag_list *diags);
void token_bounds_free(struct token_bounds *tb);

/* May node start at position at?  (A prediction; leaves are checked with
 * their end by token_bounds_may_span.) */
static inline bool token_bounds_may_start(const struct token_bounds *tb, uint32_t node,
                                          uint32_t at)
{
    uint32_t t = tb->node_type[node];
    if (t == TB_FREE)
        return true;
    if (t == TB_SKIP)
        return tb->boundary[at];
    return tb->tok_type[at] == t;
}

/* May node span [start, end)?  (Notes end in reach when node is a token
 * or skip node that may.) */
static inline bool token_bounds_may_span(struct token_bounds *tb, uint32_t node,
                                         uint32_t start, uint32_t end)
{
    uint32_t t = tb->node_type[node];
    if (t == TB_FREE)
        return true;
    bool may = t == TB_SKIP
                   ? tb->boundary[start] && tb->boundary[end] && end <= tb->hidden_reach[start]
                   : tb->tok_type[start] == t && tb->tok_end[start] == end;
    if (may && (!tb->reached || end > tb->reach))
        tb->reach = end, tb->reached = true;
    return may;
}

/* The parser token at position at, for an error message: "ID 'ifx'" (its
 * rule and text, shortened) appended to out; false when no parser token
 * starts there. */
bool token_bounds_describe(const struct token_bounds *tb, uint32_t at, struct strbuf *out);

/* Note that the parser predicted node at position at (for the message of
 * a failed parse: the tokens expected where it stopped). */
void token_bounds_expect(struct token_bounds *tb, uint32_t at, uint32_t node);
/* "; expected one of ID, '=', end of input" for position at (end: the
 * input could end there), appended to out; false, appending nothing, when
 * no token node was predicted there. */
bool token_bounds_add_expected(const struct token_bounds *tb, uint32_t at, bool end,
                               struct strbuf *out);

#endif
