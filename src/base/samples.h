/* samples: finding and reading sample inputs (files to parse and measure).
 *
 * samples_expand turns command-line arguments into a list of files:
 *  - a FILE argument stays as it is when it is a regular file, or any kind
 *    of file that can be read (a pipe, /dev/stdin, a device) when the caller
 *    allows it (--any-file); otherwise a device, pipe or socket is an error
 *    naming --any-file (reading /dev/zero or an unconnected pipe would block
 *    or fill the size limit with nonsense); "-" stays "-" and means standard
 *    input, which is asked for explicitly and always read;
 *  - a DIR argument becomes every regular file below it, at any depth, in
 *    order of path, compared component by component in bytes (so `a/x` comes
 *    before `a-b/y` and the order is the same on every machine).  Skipped
 *    while walking: hidden entries (names starting with '.'), files named
 *    `manifest.json` (what `kpath gen -o` writes beside a suite: a description
 *    of the inputs, not an input), and anything that is neither a regular file
 *    nor a directory (pipes, sockets, devices).  Symbolic links met while
 *    walking are followed to files but not into directories, so a link cycle
 *    cannot make the walk endless; a directory given as an argument may be a
 *    link.
 * An argument that does not exist, or a directory that cannot be listed, is an
 * error "PATH: error: cannot ...": the rest is still expanded.  The walk uses
 * an explicit work list, never recursion, so any nesting depth is safe.
 *
 * samples_read reads one file (or standard input for "-") whole, after
 * checking its size against a limit BEFORE reading: a regular file larger
 * than the limit is refused without reading a byte of it, and anything else
 * (a pipe, standard input) is read to at most limit + 1 bytes and refused
 * when there are more.  Errors are "FILE: error: MESSAGE" diagnostics.
 *
 * Nothing here prints or exits.  Ownership: a sample_list owns its strings. */
#ifndef KPATH_SAMPLES_H
#define KPATH_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"

/* The name standard input gets in diagnostics and reports. */
#define SAMPLES_STDIN_NAME "<stdin>"
/* The file kpath gen -o writes beside a suite; skipped in directories. */
#define SAMPLES_MANIFEST_NAME "manifest.json"

struct sample_list {
    char **paths; /* owned; each owned; "-" for standard input */
    size_t len, cap;
};

#define SAMPLE_LIST_INIT {NULL, 0, 0}

/* Append the files that args[0..nargs) name to `out`, in argument order,
 * each directory's files sorted as described above.  Returns the number of
 * errors appended to `diags` (0 when every argument could be expanded).  A
 * directory without any sample file gets a warning. */
size_t samples_expand(const char *const *args, size_t nargs, bool any_file,
                      struct sample_list *out, struct diag_list *diags);

/* Whether `path` names a kind of file that may be read as a sample or a
 * grammar: a regular file, "-", or (callers handle them) a directory or a
 * path that does not exist; any other kind (a device, a pipe, a socket) only
 * when any_file, else false with the error "PATH: error: cannot read: a
 * character device, not a regular file (--any-file reads it)".  Checked
 * before opening, so a pipe without a writer is never waited for. */
bool samples_kind_allowed(const char *path, bool any_file, struct diag_list *diags);
void sample_list_free(struct sample_list *list);

/* The name of a sample in diagnostics: SAMPLES_STDIN_NAME for "-", else the path. */
const char *samples_display_name(const char *path);

/* Read `path` ("-": standard input) into `out` (reset first).  False, with an
 * error diagnostic, when it cannot be read or is larger than `max_size` bytes. */
bool samples_read(const char *path, size_t max_size, struct strbuf *out,
                  struct diag_list *diags);
/* The same for any file read whole under a limit (grammar files too): the
 * message about the limit ends with `limit_note` (samples_read's is
 * " (--max-input-size)"; NULL: nothing). */
bool samples_read_limited(const char *path, size_t max_size, const char *limit_note,
                          struct strbuf *out, struct diag_list *diags);

/* Does the file at `path` begin with the bytes of `prefix`?  Reads no more
 * than those; false for a shorter file and for one that cannot be read.  How
 * a kind of kpath file is told by its first bytes (workspace_file_is,
 * results_file_is). */
bool samples_file_starts_with(const char *path, const char *prefix);

/* A size in bytes as users write it: digits, optionally followed by K, M or G
 * (powers of 1024; "16M" is 16777216).  False for anything else, for 0, and
 * for sizes that do not fit in a size_t. */
bool samples_parse_size(const char *text, size_t *out);

#endif
