/* suite_split: an input whose text is all one repetition becomes one input
 * per repetition, when that costs no bytes (the default cover's last step).
 *
 * Why: a program reads a packed input as a whole, so what one part of it
 * does to the program's state changes what the next part reaches: inih reads
 * an indented line after a name=value pair as a continuation of that value,
 * so the only section line of cover's INI suite, packed after a pair, never
 * ran inih's section code; an error early in an input masks the rest.  When
 * the start rule is a list (ini := line*) the parts read as well on their
 * own, for no more bytes; so the suite holds them apart.  Where the
 * repetition has text around it (JSON's "[" ... "]"), splitting would copy
 * that text into every part, and the input stays as it is.
 *
 * The repetition split is the first quantifier instance, in pre-order, with
 * two or more repetitions, a minimum of at most one, and all of the tree's
 * text (the rest of the tree derives the empty string); each part is the
 * tree with that quantifier keeping one repetition, the rest as it was.  The
 * parts are kept only when their written texts add up to no more bytes than
 * the input's; each part is then looked at again (a part may be a list
 * itself).  Every k-path of the input is in one of its parts (each part's
 * k-paths are the input's on the way down to its repetition and in it), so
 * the suite's coverage stays; parts whose every k-path another input of the
 * suite or another part holds are left out, the last first (what the
 * input held stays held).
 *
 * Deterministic, no random choice; the parts keep their input's place in the
 * suite, in order.  Bounded: a split rebuilds the tree once per repetition
 * (trees are within the packing bound: the caller splits only bounded
 * suites); nothing recurses.
 *
 * Ownership: suite_split replaces *inputs (the caller's array, grown as
 * needed; parts are copies made with the input's other fields, new_paths
 * left for the caller to recount) and *n; it borrows the generator. */
#ifndef KPATH_SUITE_SPLIT_H
#define KPATH_SUITE_SPLIT_H

#include <stddef.h>

#include "gen/gen.h"

/* Split the inputs of a suite as above; returns how many inputs were split. */
size_t suite_split(const struct generator *gen, struct gen_input **inputs, size_t *n);

#endif
