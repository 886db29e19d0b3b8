/* grammar_check: the checks every grammar passes, however it was read:
 * references resolved, the start rule chosen, reachability and productivity.
 * grammar_finish (declared in grammar.h, for the importers) runs them all on
 * a tree built with grammar_new_expr; the .ebnf reader runs them one by one
 * between its own passes, as its syntax errors allow.
 *
 * Contract: each pass appends what it finds to c->diags (errors fail the
 * grammar, warnings do not) and prints nothing.  The passes run in the order
 * below, each after the one before it: references, then the start rule
 * (reachability only when that succeeded), then productivity.  A grammar that
 * passes them all is what grammar.h calls valid. */
#ifndef KPATH_GRAMMAR_CHECK_H
#define KPATH_GRAMMAR_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "grammar/grammar.h"

/* What the passes read: the grammar, every expr of its rules by number
 * (exprs[grammar_expr_id(e)] == e, see grammar_private.h) and every
 * EXPR_REF among them.  The exprs of a rule defined twice have rule
 * RULE_NONE: their references are resolved, but they count for neither
 * reachability nor productivity. */
struct grammar_check {
    struct grammar *g;
    struct diag_list *diags;
    struct expr **exprs;
    size_t nexprs;
    struct expr **refs;
    size_t nrefs;
};

/* Set each reference's target by its name; an undefined name is an error
 * at the reference. */
void grammar_check_references(const struct grammar_check *c);
/* Choose g->start: opts->start when given (false after an error when no rule
 * has that name), else the only rule no other rule references, else the
 * first rule (with a warning naming the candidates when there are several). */
bool grammar_check_start(const struct grammar_check *c, const struct grammar_options *opts);
/* Mark the rules reachable from the start rule; warn about the others. */
void grammar_check_reachable(const struct grammar_check *c);
/* An error for each rule that can derive no finite string; a warning for
 * each class that matches no character. */
void grammar_check_productive(const struct grammar_check *c);

#endif
