/* dup: duplicating rules, so that one rule used in several contexts becomes
 * one rule per context and k-path coverage tells the contexts apart.
 *
 * dup_rule takes alternative A (1-based) of rule R, or every alternative, and
 * replaces each reference in it by a reference to a fresh copy of the rule it
 * names.  A copy of rule X is called, ... (the first suffix no rule
 * has; <X-1> for <X>) and its right-hand side is X's as loaded, in which every
 * reference again gets a fresh copy of its own, except a reference to a rule
 * that is being copied on the current path (an ancestor in this duplication):
 * that one names the ancestor's copy, so recursion ends.  Copies are made
 * depth first, left to right, which fixes their numbers.  With a depth limit
 * D, copies are made down to D levels (the copies made for R's alternative are
 * level 1); below that, references stay as they were, except the ones to an
 * ancestor, which still name its copy.
 *
 *   <factor> ::= ... | <integer> "." <integer> | <integer>;   dup alternative 4:
 *   <factor> ::= ... | <integer-1> "." <integer-2> | <integer>;
 *   <integer-1> ::= <digit-1> <integer-1> | <digit-2>;
 *   <integer-2> ::= <digit-3> <integer-2> | <digit-4>;
 *
 * Afterwards the rules that were reachable from the start rule and no longer
 * are (nor from a rule that was unreachable before) are removed.  New rules
 * are placed right after the rule they copy, in the order of their numbers,
 * so grammar_write puts them there in the file.  R is marked edited.
 *
 * The result is a valid grammar (grammar.h's contract): graph_build gives
 * what loading its written text gives.  Copies are bounded by max_new_rules,
 * since an unlimited depth can make exponentially many.
 *
 * Diagnostics name the grammar's file (and the rule's position when there is
 * a rule); on any status but DUP_OK the grammar is unchanged. */
#ifndef KPATH_DUP_H
#define KPATH_DUP_H

#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"

#define DUP_DEFAULT_MAX_NEW_RULES 100000u

struct dup_options {
    uint32_t alternative;   /* 1-based; 0 for every alternative */
    uint32_t depth;         /* levels of copies; 0 for no limit */
    uint32_t max_new_rules; /* 0 for DUP_DEFAULT_MAX_NEW_RULES */
};

enum dup_status {
    DUP_OK,
    DUP_NO_RULE,        /* no rule of that name */
    DUP_NO_ALTERNATIVE, /* the alternative index is out of range */
    DUP_NOTHING,        /* the alternative (or rule) has no reference */
    DUP_TOO_MANY,       /* it would take more than max_new_rules copies */
};

struct dup_result {
    uint32_t copies;  /* rules added */
    uint32_t removed; /* rules removed because they were no longer reachable */
};

enum dup_status dup_rule(struct grammar *g, const char *rule, const struct dup_options *opts,
                         struct dup_result *result, struct diag_list *diags);

#endif
