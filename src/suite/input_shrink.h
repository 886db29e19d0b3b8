/* input_shrink: one input made smaller while it keeps a behaviour (`kpath
 * shrink`): hierarchical delta debugging over its derivation tree, and
 * character-level ddmin for an input the grammar does not parse.
 *
 * The behaviour is the caller's: this module proposes inputs and the
 * caller answers, for each, whether it keeps the behaviour (a program run
 * through the runner, for kpath shrink; a predicate, in the tests).  The
 * step API: input_shrink_next gives the next input to test (false when the
 * search is over), input_shrink_answer takes the answer.  It never asks
 * about the same text twice: answers are kept by the text's SHA-256, and a
 * candidate whose text was answered before takes that answer without being
 * asked (the original input counts as answered: it keeps the behaviour).
 *
 * Over the tree (the parser's first tree of the input): passes in
 * pre-order over the instances, at each instance e the edits of
 * tree_edit.h in this order:
 *  - smallest: e's subtree replaced by the smallest subtree of its node
 *    (no depth limit), when e's is heavier; once kept, the pass goes on
 *    past e's new subtree;
 *  - hoist: e's subtree replaced by that of a descendant of the same graph
 *    node, or of a node e's derives through a unit route (tree_edit.h: a
 *    Term inside an Expr can take the Expr's place), every one in
 *    pre-order (outermost first); once kept, e is tried again from the
 *    start;
 *  - drop: repetitions of a quantifier (optional parts and repeated ones)
 *    left out down to its minimum: first all that can go, then runs of
 *    half as many, a quarter, ... down to one at a time, last first.
 * An edit is tried only when it makes the input shorter (fewer bytes).  A
 * hoisted subtree that does not keep the behaviour rarely has a part that
 * does, so a pass skips the descendants of a refused hoist (as HDD skips
 * the children of a node it could not remove) — except an exhaustive pass,
 * which skips nothing.  Passes repeat until an exhaustive one keeps
 * nothing (one follows every pass that keeps nothing): the result is
 * 1-minimal, no single edit of it that makes it shorter keeps the
 * behaviour.
 *
 * Over characters (the grammar does not parse the input, or `chars` is
 * set): ddmin by complements (the input split in n parts, each part left
 * out in turn; n doubles when none can go, down by one when one could),
 * until n reaches the length: no single character can go.  When that
 * result parses (and `chars` is not set), the tree search follows.
 *
 * Deterministic: the same input, grammar and answers give the same
 * questions.  Nothing recurses on the input.
 * Ownership: a shrink owns its copies of the texts, trees and answers; it
 * borrows the graph, which must outlive it. */
#ifndef KPATH_INPUT_SHRINK_H
#define KPATH_INPUT_SHRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "parse/parse.h"

struct input_shrink_stats {
    size_t asked;        /* inputs handed out by input_shrink_next */
    size_t cached;       /* candidates answered from an earlier answer */
    size_t kept_tree;    /* tree edits kept */
    size_t kept_chars;   /* character removals kept */
    size_t passes;       /* passes over the tree */
    size_t asked_by_edit[4]; /* of `asked`, per tree edit kind (tree_edit.h's order) */
    bool parsed;         /* the tree search ran */
    bool chars;          /* ddmin ran */
};

struct input_shrink;

/* g: the grammar graph, or NULL for characters only; po: the parser's
 * limits (NULL: the defaults).  The text is copied. */
struct input_shrink *input_shrink_new(const struct graph *g, const struct parse_options *po,
                                      const char *text, size_t len, bool chars);
void input_shrink_free(struct input_shrink *s);

/* The next input to test: true with *text and *len (owned by s, valid until
 * the answer); false when the search is over. */
bool input_shrink_next(struct input_shrink *s, const char **text, size_t *len);
/* Does the input of the last input_shrink_next keep the behaviour? */
void input_shrink_answer(struct input_shrink *s, bool keeps);

/* The smallest input found so far that keeps the behaviour (owned by s). */
const char *input_shrink_result(const struct input_shrink *s, size_t *len);
void input_shrink_get_stats(const struct input_shrink *s, struct input_shrink_stats *out);

#endif
