/* grammar_build: what the importers of other grammar formats share to build
 * kpath's syntax tree (src/grammar/grammar.h) directly, with positions in the file
 * they read.
 *
 * Contract: every function allocates in the grammar's arena (through
 * grammar_new_expr) and sets the parent of the children it is given; `rule`
 * and reference targets are left to grammar_finish.  A class gets its ranges
 * sorted and merged and a `source` written in kpath's .ebnf syntax, so the
 * .ebnf writer prints it as a valid class.  gb_seq and gb_alt follow the
 * grammar's rule that a sequence of one item or an alternation of one
 * alternative is that item itself; an empty sequence is the literal "".
 *
 * expr_list is a growable array of expr pointers (owned by the list, the
 * exprs by the grammar). */
#ifndef KPATH_GRAMMAR_BUILD_H
#define KPATH_GRAMMAR_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grammar/grammar.h"
#include "base/strbuf.h"

struct expr_list {
    struct expr **items;
    size_t len, cap;
};

void expr_list_push(struct expr_list *l, struct expr *e);
void expr_list_free(struct expr_list *l);

struct expr *gb_lit(struct grammar *g, const char *text, size_t len, struct src_pos pos,
                    struct src_pos end);
/* ranges[0..n) in any order, overlapping or not; copied. */
struct expr *gb_class(struct grammar *g, const struct class_range *ranges, size_t n,
                      bool negated, struct src_pos pos, struct src_pos end);
struct expr *gb_ref(struct grammar *g, const char *name, size_t len, struct src_pos pos,
                    struct src_pos end);
struct expr *gb_quant(struct grammar *g, struct expr *child, uint32_t min, uint32_t max,
                      struct src_pos pos, struct src_pos end);
/* items[0..n): n == 0 gives "", n == 1 the item, else a CAT. */
struct expr *gb_seq(struct grammar *g, struct expr *const *items, size_t n, struct src_pos pos,
                    struct src_pos end);
/* alts[0..n), n >= 1: n == 1 gives the alternative, else an ALT; `weights`
 * (n values, negative for "not annotated") may be NULL. */
struct expr *gb_alt(struct grammar *g, struct expr *const *alts, size_t n,
                    const double *weights, struct src_pos pos, struct src_pos end);
/* Sort and merge ranges in place; returns the new count. */
size_t gb_normalize_ranges(struct class_range *ranges, size_t n);
/* A class in .ebnf syntax: "[a-z_]", "[^\"\\]", with the loader's escapes. */
void gb_class_source(const struct class_range *ranges, size_t n, bool negated,
                     struct strbuf *out);
/* Append a rule named `name` (RULE_NONE when taken) at `pos`. */
uint32_t gb_add_rule(struct grammar *g, const char *name, struct src_pos pos, struct expr *rhs);

/* A line/column cursor over UTF-8 text, for the importers' lexers. */
struct text_cursor {
    const char *src;
    size_t len, i;
    uint32_t line, col;
};
void text_cursor_init(struct text_cursor *c, const char *src, size_t len);
static inline struct src_pos text_cursor_pos(const struct text_cursor *c)
{
    return (struct src_pos){c->line, c->col};
}
/* Advance past one code point (counting lines and columns); returns it
 * (U+FFFD for an invalid byte, which is skipped alone). */
uint32_t text_cursor_next(struct text_cursor *c);
/* The code point at the cursor without moving (0 at the end). */
uint32_t text_cursor_peek(const struct text_cursor *c);
/* Reports the first invalid UTF-8 byte as FILE:LINE:COL; true when valid. */
bool gb_check_utf8(const char *file, const char *src, size_t len, struct diag_list *diags);
/* The text an importer reads: *text with each lone CR made an LF
 * (base/line_end.h; *unified is then the copy, to free once read, else
 * NULL), checked to be UTF-8 as gb_check_utf8.  False, with nothing to free,
 * when it is not. */
bool gb_reader_text(const char *file, const char **text, size_t len, char **unified,
                    struct diag_list *diags);

#endif
