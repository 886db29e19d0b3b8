/* collect_set: the collectors a run asks for, made in one place, so that
 * `kpath run`, the campaigns of other commands and the explorer's :run list
 * them alike and a new collector is added once (here and in its module).
 *
 * The order is the order the results header lists them in: outcome first,
 * then harness, gcov, node, and one collector per --features command.
 *
 * Ownership: the array and each collector belong to the caller, freed with
 * collect_set_free. */
#ifndef KPATH_COLLECT_SET_H
#define KPATH_COLLECT_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "run/collect.h"

struct collect_spec {
    const char *gcov_dir; /* --gcov BUILD_DIR; NULL: no gcov */
    bool lines;           /* --lines: gcov's lines too */
    bool node;            /* --node: V8 coverage */
    const char *const *cmds; /* --features CMD, each a collector */
    size_t ncmds;
    bool harness;         /* --harness: the functions its runs reached */
};

/* Make the collectors of `spec` into *cols (*ncols of them).  False with a
 * diagnostic when one cannot work (no .gcno files, no gcov or node); those
 * made until then are in *cols all the same, for collect_set_free. */
bool collect_set_make(const struct collect_spec *spec, struct collector **cols, size_t *ncols,
                      struct diag_list *diags);
/* Their names, for a results header: a NULL-terminated array of borrowed
 * strings (free the array only). */
char **collect_set_names(const struct collector *cols, size_t ncols);
void collect_set_free(struct collector *cols, size_t ncols);

#endif
