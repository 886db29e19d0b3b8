/* import: the importers of other grammar formats, one module each, called
 * through grammar_open (src/formats/grammar_load.h), whose contract they follow.
 * `path` names the file in diagnostics; the ANTLR importer also reads the
 * grammars a file imports (and its tokenVocab) from the directory of `path`. */
#ifndef KPATH_IMPORT_H
#define KPATH_IMPORT_H

#include <stddef.h>

#include "base/diag.h"
#include "grammar/grammar.h"

/* The rule an ANTLR import adds for the tokens sent to skip or a hidden
 * channel (see src/formats/import_antlr.c); the g4 writer turns it back into them.
 * ANTLR names cannot start with '_', so it never clashes. */
#define ANTLR_SKIP_RULE "_skip"

struct grammar *import_antlr(const char *path, const char *text, size_t len,
                             const struct grammar_options *opts, struct diag_list *diags);
struct grammar *import_fuzzingbook(const char *path, const char *text, size_t len,
                                   const struct grammar_options *opts, struct diag_list *diags);
struct grammar *import_tribble(const char *path, const char *text, size_t len,
                               const struct grammar_options *opts, struct diag_list *diags);
struct grammar *import_fandango(const char *path, const char *text, size_t len,
                                const struct grammar_options *opts, struct diag_list *diags);

#endif
