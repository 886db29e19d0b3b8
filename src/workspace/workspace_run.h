/* workspace_run: running a program on the inputs of a workspace — `kpath run
 * WORKSPACE -- COMMAND` and the TUI's `:run -- COMMAND` share it.
 *
 * A campaign (campaign.h) runs files; a workspace holds texts.  So the
 * inputs are first written, every one in workspace order, as a suite in
 * DIR/0001.txt, DIR/0002.txt, ... (workspace_export: each file atomic, a
 * manifest last, stale numbered cases removed), where DIR is the results
 * file's name with ".jsonl" (or nothing) replaced by ".inputs".  The suite
 * stays after the run, so the results keep naming files that exist (kpath run
 * --report reads them again for the k-path part) and their SHA-256s tie each
 * record to its input in the workspace.
 *
 * Ownership: every string returned is the caller's. */
#ifndef KPATH_WORKSPACE_RUN_H
#define KPATH_WORKSPACE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/samples.h"
#include "workspace/workspace.h"

/* "kpath-run.jsonl" -> "kpath-run.inputs"; "out" -> "out.inputs". */
char *workspace_run_inputs_dir(const char *results_path);

/* Write the inputs of ws into dir (created, or its numbered cases replaced)
 * and append their paths, in workspace order, to out.  False with a
 * diagnostic when the workspace has no inputs or dir cannot be written. */
bool workspace_run_inputs(struct workspace *ws, const char *dir, struct sample_list *out,
                          struct diag_list *diags);

/* Does path start like a workspace file ("kpath-workspace ")?  False for
 * anything else, and for a file that cannot be read. */
bool workspace_file_is(const char *path);

/* The index of the input whose text has this SHA-256, or SIZE_MAX. */
size_t workspace_input_by_sha256(const struct workspace *ws, const char *hex);

#endif
