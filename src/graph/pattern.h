/* pattern: a k-path as a human-readable pattern of the inputs that contain it.
 *
 * The pattern of s1 ... sk is a sentential form, built like this:
 *   - start from the alternative of the rule that holds s1 (the top-level
 *     alternative it is in; for the root, the start rule's right-hand side);
 *   - for each next element, replace the reference s(i) by the alternative of
 *     its rule that holds s(i+1);
 *   - in each alternative taken, every group on the way to the element it
 *     holds is narrowed to the branch that holds it, so a last element that
 *     is a literal narrows its alternation to itself, and a last element that
 *     is a reference stays as a placeholder: its rule's name;
 *   - a quantifier on the way to an element repeats at least once there, so
 *     its minimum 0 is printed as 1: x? as x, x* as x+, x{,3} as x{1,3};
 *     without it the pattern of frac_44 in json.ebnf's
 *     number := "-"? int frac? exp? would be that of exp_45, and a rule that
 *     lacks it would read as lacking every number;
 *   - a quantifier whose body is narrowed or replaced on the way holds one
 *     such repetition among others as written, so it is split: x* y x*
 *     when the others may be any number (x*, x+), else y followed by the
 *     rest of the count (x{2,4} holding y: y x{1,3}); DecDigit+ holding a
 *     "4" is "DecDigit* 4 DecDigit*", not "4+" (as if every digit were 4);
 *   - everything else stays as written: other groups, quantifiers, classes.
 * With `mark`, each of the k nodes of the path is put in brackets around
 * the text it stands for (a node replaced by an alternative: that
 * alternative's text), except the first node when it is alone in its
 * alternative (its text is all of the pattern), so that no two k-paths
 * render alike: in expr.ebnf AddExpr_0 -> AddExpr_5 is "[AddExpr] (+ | -)
 * MultExpr" and AddExpr_0 -> MultExpr_7 "AddExpr (+ | -) [MultExpr]".
 * Nodes standing for the same text nest: "[[x]]".
 * Items are separated by single spaces, groups printed in parentheses where
 * needed (a sequence or a quantified item under a quantifier, and every
 * alternation).  Literals are printed without quotes (their control
 * characters escaped), or in quotes with `quoted`; the empty string and a
 * literal with a space in it always keep their quotes ("" and " + "), as
 * without them they would be invisible or read as several items.
 *
 * In grammars/expr.ebnf, AddExpr_0 -> "+"_10 renders as
 * "AddExpr + MultExpr": Expr's right-hand side AddExpr, whose reference is
 * replaced by AddExpr's second alternative, AddExpr ("+" | "-") MultExpr,
 * with the group narrowed to "+".
 *
 * Rendering walks an explicit stack (no recursion on nesting depth); its cost
 * is the size of the k alternatives taken. */
#ifndef KPATH_PATTERN_H
#define KPATH_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/graph.h"
#include "base/strbuf.h"

struct pattern_options {
    bool quoted; /* keep literals in double quotes, with escapes */
    bool mark;   /* each of the path's nodes in brackets (see above) */
    bool hide_skip; /* leave out the references to an ANTLR import's _skip
                     * rules (see skip_paths.h) that are not on the path */
};

/* Check that path[0..k) is a k-path of g; false with a diagnostic (no file,
 * naming the offending node as graph_node_name writes it) when it is not. */
bool pattern_check_path(const struct graph *g, const uint32_t *path, uint32_t k,
                        struct diag_list *diags);
/* Append the pattern of the k-path path[0..k); false (nothing appended) after
 * pattern_check_path's diagnostic when it is not a k-path.  opts may be NULL,
 * and so may diags (for paths known to be valid). */
bool pattern_render(const struct graph *g, const uint32_t *path, uint32_t k,
                    const struct pattern_options *opts, struct strbuf *out,
                    struct diag_list *diags);

#endif
