/* file_hint: what to say when a grammar file cannot be opened — that it
 * does not exist (or is a directory), and which file next to it, or among
 * the bundled grammars, the user probably meant (a did-you-mean by edit
 * distance on the file name).  Used by every command that reads a grammar
 * (grammar_read_file: `kpath info grammars/exp.ebnf`) and by the explorer
 * (tui.c: `kpath grammars/exp.ebnf`; :load); the same typo test picks the
 * closest of a list of names (file_hint_closest_name: `kpath target
 * --feature fn:parse_hex`).  A bottom module: it reads directories, nothing
 * else of kpath. */
#ifndef KPATH_FILE_HINT_H
#define KPATH_FILE_HINT_H

#include <stdbool.h>

#include "base/strbuf.h"

/* The file the user probably meant by the missing `path`: the closest name
 * (edit distance, a typo's worth at most) in the directory path names, else
 * in bundled_dir (NULL: none), appended to out as the user would type it
 * (in path's directory as written; relative to the working directory where
 * it is under it).  False, nothing appended, when none is close. */
bool file_hint_suggest(const char *path, const char *bundled_dir, struct strbuf *out);

/* When `path` is not a file that exists: append why ("PATH: No such file
 * or directory", then `sep` and "did you mean FILE?" when a file next to
 * it or in bundled_dir (NULL: none) is a likely typo; or "PATH is a
 * directory; ..."), and return true.  False, and nothing appended, when it
 * is a file. */
bool file_hint_missing(const char *path, const char *bundled_dir, const char *sep,
                       struct strbuf *out);

/* The name of names[0 .. n) closest to `want` by edit distance, when it is a
 * typo's worth away (at most strlen(want) / 4 edits, rounded down);
 * the first such on ties; NULL when none is that close or want is one of
 * them. */
const char *file_hint_closest_name(const char *want, char *const *names, size_t n);

#endif
