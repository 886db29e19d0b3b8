/* file_hint: what to say when a grammar file cannot be opened — that it
 * does not exist (or is a directory), and which file next to it, or among
 * the bundled grammars, the user probably meant (a did-you-mean by edit
 * distance on the file name).  Used by the command line (tui.c: kpath
 * grammars/exp.ebnf) and by :load (commands.c).  A bottom layer module: it
 * reads directories, nothing of the app. */
#ifndef KPATH_UI_FILE_HINT_H
#define KPATH_UI_FILE_HINT_H

#include <stdbool.h>

#include "strbuf.h"

/* When `path` is not a file that exists: append why ("PATH: No such file
 * or directory", then `sep` and "did you mean FILE?" when a file next to
 * it or in bundled_dir (NULL: none) is a likely typo; or "PATH is a
 * directory; ..."), and return true.  False, and nothing appended, when it
 * is a file. */
bool file_hint_missing(const char *path, const char *bundled_dir, const char *sep,
                       struct strbuf *out);

#endif
