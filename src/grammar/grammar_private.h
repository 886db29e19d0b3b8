/* grammar_private: what the three modules behind grammar.h share and no
 * other code may use.  grammar.c (the tree) defines it all; the checks
 * (grammar_check.c) and the .ebnf reader (ebnf_reader.c) use it.
 *
 * Contract: every expr, whoever made it (the reader, or an importer through
 * grammar_new_expr), carries a number, so the checks can keep per-node state
 * in flat arrays indexed by it; it is UINT32_MAX until the reader or
 * grammar_finish numbers the exprs.  The name index of the rules is the
 * tree's: the reader finds and enters names only through the functions
 * below.  The tree's types are only declared here: including grammar.h
 * would make this header and grammar.c a circle of modules. */
#ifndef KPATH_GRAMMAR_PRIVATE_H
#define KPATH_GRAMMAR_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

struct expr;
struct grammar;

uint32_t grammar_expr_id(const struct expr *e);
void grammar_expr_set_id(struct expr *e, uint32_t id);

/* grammar_find_rule for a name of `len` bytes, not NUL-terminated (the
 * reader's names are spans of the source). */
uint32_t grammar_find_rule_len(const struct grammar *g, const char *name, size_t len);
/* Enter rules[rule].name (in the arena) into the name index. */
void grammar_index_rule(struct grammar *g, uint32_t rule);

#endif
