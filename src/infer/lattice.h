/* lattice: the character-level items strings are generalized along (the
 * AUTOGRAM paper's Figure 8), read from a lattice file.
 *
 * A lattice file is a grammar in kpath's .ebnf format, read by the grammar
 * loader (so its errors have FILE:LINE:COL), with three kinds of rules:
 *
 *     digits := [0-9]+;                        an item: its language
 *     digits.examples := "0" | "007" | "12";   its representatives (literals)
 *     digits.generalizes := posint;            the items directly below it
 *
 * Every item has examples, each in the item's language; an item is written
 * with literals, classes, groups and quantifiers (no rule references), and
 * may generalize only items written above it, so the file lists items from
 * the most specific down to the most general and the relation has no cycle.
 * `.generalizes` says "more general than": it is the caller's walk (see
 * generalize.h) that goes from an item to those that name it there.
 *
 * lattice_add reads more items from another file into a lattice, after its
 * own: they may generalize items of the files read before (which are
 * written above them), and are named, examined and checked as above; an
 * item's name is taken once, and `.examples` and `.generalizes` rules
 * speak of the file's own items.
 *
 * Ownership: the lattice owns its grammars, the items' graphs and arrays. */
#ifndef KPATH_LATTICE_H
#define KPATH_LATTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "graph/graph.h"
#include "base/strbuf.h"

struct lattice_item {
    const char *name;        /* the rule's name */
    const struct grammar *grammar; /* the file's: lattice.grammar or one of more */
    uint32_t rule;           /* in grammar */
    struct graph *graph;     /* owned: the item as the start rule, for membership */
    const struct expr **examples; /* owned array of literals */
    size_t nexamples;
    uint32_t *below;         /* owned: item indices this one generalizes */
    size_t nbelow;
};

struct lattice {
    struct grammar *grammar; /* owned: the first file */
    struct grammar **more;   /* owned: the files added */
    size_t nmore;
    struct lattice_item *items; /* in file order, files in order: specific first */
    size_t nitems;
};

/* Load a lattice file; false with diagnostics (*out is then empty). */
bool lattice_load(const char *path, struct lattice *out, struct diag_list *diags);
void lattice_free(struct lattice *l);
/* Add the items of another lattice file; false with diagnostics (the
 * lattice is then as it was). */
bool lattice_add(struct lattice *l, const char *path, struct diag_list *diags);

/* Is text[0..len) in item i's language? */
bool lattice_contains(const struct lattice *l, size_t item, const char *text, size_t len);
/* Does item `upper` name item `lower` in its .generalizes? */
bool lattice_generalizes(const struct lattice *l, size_t upper, size_t lower);

/* The shipped lattice, LATTICE_DEFAULT: beside the binary in a source tree
 * (build/kpath, build/san/kpath), else where `make install` puts it.  False
 * (path: the installed place) when it is in neither. */
#define LATTICE_DEFAULT "lattices/default.ebnf"
bool lattice_default_path(struct strbuf *path);

#endif
