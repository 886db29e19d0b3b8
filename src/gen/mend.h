/* mend: a derivation tree re-derived where its written text does not read
 * back.
 *
 * graph/written.h writes a tree of an ANTLR grammar so that the grammar's
 * lexer reads back the tokens it was derived with, inserting skipped
 * separators where tokens would run together.  That fails where no skipped
 * separator helps: a grammar whose blanks are parser tokens (CSS3's `ws`,
 * derived empty between two identifiers), a line comment that only a
 * parser token ends (TOML's NL before `]`), a token whose own text the
 * lexer cuts short (Lua's `[[]]]`, which its non-greedy rule ends at
 * `[[]]`).  Another derivation helps there: one more repetition of `ws`,
 * another character inside the long bracket.
 *
 * mend_tree looks for it.  Where the written text first reads otherwise
 * than derived (the first parser token the lexer does not read back, with
 * the gap before it), it tries small edits of the instances there, one at a
 * time: one more repetition of a quantifier (its new item the smallest
 * subtree), another character of a class (its letters and digits, then its
 * default character), another alternative of an alt (its smallest subtree),
 * one repetition fewer; instances with the shortest text first.  An edit
 * that makes the text read back is kept; else the one after which the lexer
 * reads the most tokens right, if more than before, and the search goes on
 * from there (at most MEND_ROUNDS rounds).  Every edit keeps the tree within
 * max_depth and max_size, and `keep` (when given) true: the caller's
 * target stays in the tree.  The text then reads back with every
 * k-path of the new tree; the tree may have lost others, which the caller
 * counts from the tree it ends with.
 *
 * Only for trees of grammars with a lexer (grammar.lexer) whose text does
 * not read back: otherwise it returns true at the cost of writing the text
 * once.  Bounded work: at most MEND_TRIALS edits tried per tree (in at most
 * MEND_ROUNDS rounds, MEND_BEAM trees each), each a
 * replay of the tree and a written text. */
#ifndef KPATH_MEND_H
#define KPATH_MEND_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "graph/derivation.h"

#define MEND_ROUNDS 8u
#define MEND_TRIALS 60u
#define MEND_BEAM 8u

struct mend_limits {
    uint32_t max_depth; /* reference nodes on a root-to-leaf path */
    uint32_t max_size;  /* tree nodes; 0: no bound */
    /* NULL, or what every edit must keep true of the tree */
    bool (*keep)(const struct derivation *t, void *ctx);
    void *ctx;
};

/* True when t's written text reads back (derivation_written_text), t then
 * possibly edited as above; false, t unchanged, when no edit found makes it
 * read back.  The written text of t as it ends is appended to `out` (when
 * not NULL). */
bool mend_tree(struct derivation *t, const struct mend_limits *lim, struct strbuf *out);

#endif
