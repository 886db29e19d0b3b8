/* grammar_load: the one entry point that opens a grammar file in any format
 * kpath reads, picking the importer by --format or by the file's extension.
 *
 *   format       extension   module
 *   ebnf         (any other)  src/grammar/ebnf_reader.c   kpath's own format
 *   g4           .g4          src/formats/import_antlr.c  ANTLR 4 (combined or split)
 *   fuzzingbook  .json        src/formats/import_fuzzingbook.c
 *   tribble      .tribble     src/formats/import_tribble.c
 *   fandango     .fan         src/formats/import_fandango.c
 *
 * Contract: every importer produces the same struct grammar as the .ebnf
 * loader (a valid grammar, or NULL with at least one error), with diagnostics
 * at FILE:LINE:COL of the file it read, and with its rules marked as having
 * no source text (writers print them from their syntax trees).  Nothing here
 * prints or exits. */
#ifndef KPATH_GRAMMAR_LOAD_H
#define KPATH_GRAMMAR_LOAD_H

#include <stdbool.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "grammar/grammar_file.h"
#include "base/strbuf.h"

enum grammar_format {
    GRAMMAR_FORMAT_AUTO, /* by extension */
    GRAMMAR_FORMAT_EBNF,
    GRAMMAR_FORMAT_G4,
    GRAMMAR_FORMAT_FUZZINGBOOK,
    GRAMMAR_FORMAT_TRIBBLE,
    GRAMMAR_FORMAT_FANDANGO,
};

/* "ebnf", "g4" (or "antlr"), "fuzzingbook" (or "json"), "tribble",
 * "fandango" (or "fan"); false for any other name. */
bool grammar_format_parse(const char *name, enum grammar_format *out);
/* The canonical name ("ebnf", "g4", ...). */
const char *grammar_format_name(enum grammar_format f);
/* The format a file's name says (GRAMMAR_FORMAT_EBNF when it says none). */
enum grammar_format grammar_format_of_path(const char *path);

/* Load `path` in `format` (AUTO: by its extension). */
struct grammar *grammar_open(const char *path, enum grammar_format format,
                             const struct grammar_options *opts, struct diag_list *diags);
/* Load text that was read from `name` in `format` (AUTO: by name). */
struct grammar *grammar_open_string(const char *name, const char *text, size_t len,
                                    enum grammar_format format,
                                    const struct grammar_options *opts,
                                    struct diag_list *diags);

#endif
