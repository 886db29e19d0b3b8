/* input_kpaths: the k-paths of one input, read from a file or given as text.
 *
 * The one place that turns an input into the k-paths of its derivation trees
 * (kpath coverage, reduce, explain and anything else that measures inputs
 * goes through here): read the file (size checked first, see samples.h),
 * parse it with the grammar (parse.h) and add the k-paths of every tree to the
 * caller's sets, and the expansions of every tree when asked: while parsing,
 * without a forest (parse_kpaths), or, with pins (which need the ancestors of
 * every node), from the forest.  sets[i] may belong to spaces of
 * any k (usually k = 1 .. K); with pins, only the k-paths in a pinned context
 * count (pin.h).  A sample that cannot be read or parsed leaves the sets as
 * they were and appends the reader's or the parser's diagnostic.
 *
 * Ownership: the caller owns the sets, the diagnostics and `text` (a buffer
 * reused from file to file; after a call it holds the file's bytes, or is
 * empty when the file could not be read). */
#ifndef KPATH_INPUT_KPATHS_H
#define KPATH_INPUT_KPATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/expansion.h"
#include "graph/kpath.h"
#include "parse/parse.h"
#include "graph/pin.h"
#include "base/strbuf.h"

/* What else the parse found out, for reports. */
struct input_kpaths_info {
    uint64_t trees; /* derivation trees of the input, saturated at UINT64_MAX */
    bool infinite;  /* infinitely many (a cycle in the forest) */
    /* Set by the caller, NULL or a set the expansions (expansion.h) of every
     * tree are added to; pins do not restrict it. */
    struct expansion_set *expansions;
};

/* The k-paths of text[0..len), called `name` in diagnostics.  info may be NULL.
 * False with a diagnostic when the text does not parse. */
bool input_kpaths_text(const struct graph *g, const char *name, const char *text, size_t len,
                       const struct parse_options *po, struct kpath_set *const *sets,
                       size_t nsets, const struct pin_set *pins, struct input_kpaths_info *info,
                       struct diag_list *diags);

/* The same for the file `path` ("-": standard input), read into `text`. */
bool input_kpaths_file(const struct graph *g, const char *path, const struct parse_options *po,
                       struct kpath_set *const *sets, size_t nsets, const struct pin_set *pins,
                       struct strbuf *text, struct input_kpaths_info *info,
                       struct diag_list *diags);

/* input_kpaths_file for an input a program ran on, whose SHA-256 was
 * recorded then (`expected_sha256`, hex): fails with "changed since it ran" when the
 * file's text is no longer that (checked before parsing), since its k-paths
 * would then describe another input than the behaviour recorded with it.
 * An empty `expected_sha256` (a record written without the hash, see
 * results.h) is not checked. */
bool input_kpaths_as_ran(const struct graph *g, const char *path, const char *expected_sha256,
                         const struct parse_options *po, struct kpath_set *const *sets,
                         size_t nsets, struct strbuf *text, struct diag_list *diags);

#endif
