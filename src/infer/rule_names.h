/* rule_names: names that read for the rules of a learned grammar, from what
 * each rule holds (issue #35, "names that read").
 *
 * A post-pass over a grammar from kpath grammar-from or kpath generalize.
 * Only machine-made names change: a rule whose name ends in a digit
 * (sample1, sample2, digits_2, ...), not the start rule.  A person's names
 * and the lattice's (digits, token, text, ...) stay as they are.  The new
 * name says, in this order of preference:
 *   its delimiters  "{" ... "}" object, "[" ... "]" array, "[" ... "]" "\n"
 *                   section, "(" ... ")" parens, "\"" ... "\"" string,
 *                   a "://" in it url;
 *   its separators  an "=" or ":" item pair, arithmetic operators between
 *                   items expr, a "," item list, a last "\n" line;
 *   its characters  (a rule of classes and literals only) digits or digit,
 *                   number (digits with signs, "." or exponents), word
 *                   (lower case), letters, alnum, name (with "_" or "-"),
 *                   keyword (alternatives of words), text (anything else);
 *   its position    a rule of characters, or one that only names another
 *                   rule (an item of the lattice), named only right before
 *                   an "=" or ":" (past spaces) is a key.
 * A rule none of these describe keeps its name.  Taken names get "_2",
 * "_3", ... in rule order, never one another rule has, so the result is
 * deterministic and collision-free.  Only names change (the rule, every
 * reference to it, the name index): the language is the same, rule
 * indices too (notes kept per rule index stay right).  A renamed rule and a
 * rule that refers to one are marked edited, so writers print them from the
 * tree.
 *
 * Nothing here recurses: right-hand sides are walked with explicit stacks. */
#ifndef KPATH_RULE_NAMES_H
#define KPATH_RULE_NAMES_H

#include <stdint.h>

#include "base/strbuf.h"
#include "grammar/grammar.h"

struct rule_names {
    char **was;   /* per rule: its name before (malloc'd), NULL when unchanged */
    uint32_t n;   /* entries of was */
    uint32_t renamed;
};

/* Rename the machine-made rules of g as above; r->was says what changed. */
void rule_names_apply(struct grammar *g, struct rule_names *r);
/* Append the line "named NEW from what it holds (was OLD)" for a renamed
 * rule (one of the rule's #: notes); nothing for another. */
void rule_names_note(const struct rule_names *r, const struct grammar *g, uint32_t rule,
                     struct strbuf *out);
void rule_names_free(struct rule_names *r);

#endif
