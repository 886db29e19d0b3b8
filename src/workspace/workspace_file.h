/* workspace_file: a workspace saved to a file and opened again, whole or in
 * slices.
 *
 * workspace_save writes a line-based text file (documented in
 * docs/explorer.md, "The workspace file"):
 *
 *     kpath-workspace 1
 *     grammar "grammars/expr.ebnf"    (relative to this file's directory)
 *     grammar-absolute "/src/grammars/expr.ebnf"  (where it was, the fallback)
 *     sha256 HEX
 *     start NAME                      (only when a start rule was forced)
 *     dup "RULE" ALT DEPTH            (each duplication, in order)
 *     k 2
 *     strategy kpath | close-off greedy | seed 1 | max-depth 16 |
 *     max-repetitions 3 | max-size 2000 | count 0     (one per line;
 *                                      no close-off line: shortest)
 *     pin "NODE NODE ..."
 *     prob NODE SOURCE P1 P2 ...      (every alternation: node id, source)
 *     repeat NODE SOURCE P            (a quantifier's learned probability)
 *     sample "FILE" "TEXT"            (a loaded sample, its text escaped)
 *     input "TEXT" D1 D2 ...          (a generated input and its decisions)
 *     target ID ID ...                (the k-path the input before was made for)
 *     origin "JSON"                   (how the input before was made: strategy,
 *                                      seed, close-off, probabilities; or C)
 *     marked I J ...                  (0-based input indices)
 *     results "FILE"                  (the results file of the last :run of the
 *                                      inputs, see workspace_run.h)
 *     end
 *
 * Strings are in double quotes with \\ \" \n \r \t and \xHH escapes; every
 * line is ASCII.  Blank lines and lines starting with '#' are ignored.  The
 * file is written atomically.  workspace_open restores the same state: the
 * grammar is loaded and duplicated again, trees are rebuilt from their
 * decisions (or, when the grammar file changed since, by parsing the texts,
 * with a warning), samples parsed again.  The generator's own progress is not
 * saved: a restored workspace starts a new generator when asked.
 *
 * Nothing here prints or exits: errors and warnings go to a diag_list. */
#ifndef KPATH_WORKSPACE_FILE_H
#define KPATH_WORKSPACE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "workspace/workspace.h"

#define WORKSPACE_FORMAT_VERSION 1

/* Write the file atomically; after it, the workspace is not dirty and its
 * file is `path`. */
bool workspace_save(struct workspace *ws, const char *path, struct diag_list *diags);
/* Serialize without touching the file or the dirty flag (for autosave):
 * paths as the workspace holds them.  workspace_serialize_to writes the
 * paths (grammar, samples, results) relative to the directory of the file
 * `ws_path` it is for, and the grammar's absolute path too
 * (`grammar-absolute`), the fallback when the file moves without it. */
void workspace_serialize(const struct workspace *ws, struct strbuf *out);
void workspace_serialize_to(const struct workspace *ws, const char *ws_path, struct strbuf *out);
/* Open a saved workspace; NULL with diagnostics.  Warnings (grammar changed,
 * an input that no longer parses) are appended too. */
struct workspace *workspace_open(const char *path, struct diag_list *diags);
/* workspace_open in slices, so that a big file (an autosave of 100,000s of
 * inputs) loads as a job: begin reads the file, its header and grammar (NULL
 * with diagnostics, as workspace_open); each step loads at most `max_lines`
 * more lines and says whether any are left; finish loads the rest and gives
 * the workspace (the loader is freed); abort drops it all.  The same
 * diagnostics and the same workspace as workspace_open, however sliced. */
struct workspace_loader;
struct workspace_loader *workspace_load_begin(const char *path, struct diag_list *diags);
bool workspace_load_step(struct workspace_loader *ld, size_t max_lines, struct diag_list *diags);
/* Lines of the file (the total) and those loaded so far (*done). */
size_t workspace_load_lines(const struct workspace_loader *ld, size_t *done);
struct workspace *workspace_load_finish(struct workspace_loader *ld, struct diag_list *diags);
void workspace_load_abort(struct workspace_loader *ld);


#endif
