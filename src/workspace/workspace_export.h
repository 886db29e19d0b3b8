/* workspace_export: a workspace's inputs written as a test suite, as
 * `kpath gen -o` writes one: a case file per input and a manifest saying how
 * each was made and what the suite covers.
 *
 * Nothing here prints or exits: errors go to a diag_list. */
#ifndef KPATH_WORKSPACE_EXPORT_H
#define KPATH_WORKSPACE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "workspace/workspace.h"

/* Write inputs which[0..n) as a test suite in dir, with the layout, manifest
 * and safety rules of `kpath gen -o` (outdir.h).  `report` gets a one-line
 * summary.  Returns false with diagnostics (how many files were written
 * before an error is in the report). */
bool workspace_export(struct workspace *ws, const char *dir, const size_t *which, size_t n,
                      bool force, struct strbuf *report, struct diag_list *diags);

#endif
