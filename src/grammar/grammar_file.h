/* grammar_file: reading a grammar file's text within the bounds of
 * struct grammar_options, for the .ebnf loader and every importer (an ANTLR
 * or Fandango grammar reads the files it imports the same way).  Nothing
 * here prints or exits. */
#ifndef KPATH_GRAMMAR_FILE_H
#define KPATH_GRAMMAR_FILE_H

#include <stdbool.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "grammar/grammar.h"

/* Read a whole grammar file into `out` (reset first), within the bounds of
 * opts (may be NULL: the defaults; see struct grammar_options): only regular
 * files unless opts->any_file, and at most opts->max_size bytes
 * (GRAMMAR_DEFAULT_MAX_SIZE), checked before reading a regular file.  False
 * with "PATH: error: cannot read: ..." or the size in diags. */
bool grammar_read_file(const char *path, const struct grammar_options *opts,
                       struct strbuf *out, struct diag_list *diags);

/* Read `path` (as grammar_read_file) and load it as kpath's own format
 * (grammar_load_string); other formats go through grammar_open (formats/). */
struct grammar *grammar_load_file(const char *path, const struct grammar_options *opts,
                                  struct diag_list *diags);

#endif
