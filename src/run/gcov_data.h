/* gcov_data: GCC's coverage files read directly, without running gcov.
 *
 * A program built with --coverage has, per object file, a notes file
 * (.gcno, written by the compiler: functions, their basic blocks, the arcs
 * between blocks and the source lines of each block) and, after a run, a
 * data file (.gcda, written by the program: one counter per arc that is
 * not on the compiler's spanning tree).  Both are read as GCC's
 * gcov-io.h describes them, in GCC 12's version of the format (lengths
 * in bytes, strings as a byte length and their bytes with a NUL, no
 * padding); other versions are reported, not guessed at.
 *
 * The notes are read once (gcov_notes_read); each run's data file then
 * gives every arc's count (the others follow from flow conservation, as
 * gcov solves them), hence every block's count, and from those:
 *  - a function ran when its entry block's count is positive (gcov's
 *    "execution_count");
 *  - a line ran when gcov would give it a positive count: for a line that
 *    ends blocks, the counts of the arcs that enter those blocks from
 *    blocks that do not end on it, or a cycle among them; for any other
 *    line, the sum of the counts of the blocks it is in.
 * Functions and lines come out in the order of gcov --json-format's
 * document for the same data file (files in the order the notes name
 * them, functions by start line and column, lines by number, the lines of
 * functions that share a start line first), with the file names gcov
 * gives (its canonical form: "." and "a/.." elided where "a" exists;
 * relative names keep their ".." as gcov, run in a fresh directory,
 * does).  Artificial functions (GCC's own) are left out, as gcov does.
 *
 * Errors (a truncated or corrupt file, a data file from another build)
 * are "FILE: message" diagnostics; nothing is read past a record's end.
 * Ownership: a gcov_notes owns everything it holds; names handed to the
 * callbacks are borrowed from it. */
#ifndef KPATH_GCOV_DATA_H
#define KPATH_GCOV_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"

struct gcov_notes;

enum gcov_read_status {
    GCOV_READ_OK,
    GCOV_READ_OTHER_VERSION, /* a notes file of a GCC whose format this module does not read */
    GCOV_READ_ERROR,         /* with a diagnostic */
};

/* Read the notes file at `path`.  GCOV_READ_OTHER_VERSION puts the file's
 * four-character version (e.g. "B30*") in `version`. */
enum gcov_read_status gcov_notes_read(const char *path, struct gcov_notes **out,
                                      char version[5], struct diag_list *diags);
void gcov_notes_free(struct gcov_notes *n);

/* The name of a function whose name is mangled (C++: gcov would demangle
 * it), or NULL when there is none. */
const char *gcov_notes_mangled(const struct gcov_notes *n);

/* Read one run's data file at `path` (its name in diagnostics: `shown`)
 * into the notes' counts, replacing the previous run's.  False with a
 * diagnostic when the file is truncated, corrupt, or not of this build. */
bool gcov_notes_read_counts(struct gcov_notes *n, const char *path, const char *shown,
                            struct diag_list *diags);

/* After gcov_notes_read_counts: every function (ran or not) and every
 * line that ran, in gcov's order. */
void gcov_notes_functions(const struct gcov_notes *n,
                          void (*fn)(void *ctx, const char *name, const char *file,
                                     uint32_t start_line, bool ran),
                          void *ctx);
void gcov_notes_lines(const struct gcov_notes *n,
                      void (*line)(void *ctx, const char *file, uint32_t number), void *ctx);

#endif
