/* grammar_load: picking the importer for a grammar file. */
#include "formats/grammar_load.h"

#include <stdio.h>
#include <string.h>

#include "base/file_kinds.h"
#include "formats/import.h"
#include "base/samples.h"

static const struct {
    const char *name;
    enum grammar_format format;
} format_names[] = {
    {"ebnf", GRAMMAR_FORMAT_EBNF},
    {"g4", GRAMMAR_FORMAT_G4},
    {"antlr", GRAMMAR_FORMAT_G4},
    {"fuzzingbook", GRAMMAR_FORMAT_FUZZINGBOOK},
    {"json", GRAMMAR_FORMAT_FUZZINGBOOK},
    {"tribble", GRAMMAR_FORMAT_TRIBBLE},
    {"fandango", GRAMMAR_FORMAT_FANDANGO},
    {"fan", GRAMMAR_FORMAT_FANDANGO},
};

bool grammar_format_parse(const char *name, enum grammar_format *out)
{
    for (size_t k = 0; k < sizeof format_names / sizeof *format_names; k++) {
        if (strcmp(name, format_names[k].name) == 0) {
            *out = format_names[k].format;
            return true;
        }
    }
    return false;
}

const char *grammar_format_name(enum grammar_format f)
{
    for (size_t k = 0; k < sizeof format_names / sizeof *format_names; k++)
        if (format_names[k].format == f)
            return format_names[k].name;
    return "auto";
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

enum grammar_format grammar_format_of_path(const char *path)
{
    if (ends_with(path, ".g4"))
        return GRAMMAR_FORMAT_G4;
    if (ends_with(path, ".json"))
        return GRAMMAR_FORMAT_FUZZINGBOOK;
    if (ends_with(path, ".tribble"))
        return GRAMMAR_FORMAT_TRIBBLE;
    if (ends_with(path, ".fan"))
        return GRAMMAR_FORMAT_FANDANGO;
    return GRAMMAR_FORMAT_EBNF;
}

/* The file's text, checked before it is opened: only the kinds of file
 * opts allow, and at most max_size bytes (a regular file's size is checked
 * first; a pipe is read to one byte past the limit and no further). */
struct grammar *grammar_open_string(const char *name, const char *text, size_t len,
                                    enum grammar_format format,
                                    const struct grammar_options *opts,
                                    struct diag_list *diags)
{
    if (format == GRAMMAR_FORMAT_AUTO) {
        format = grammar_format_of_path(name);
        /* kpath's own files in a grammar's place (arguments in the wrong
         * order) would be read as .ebnf, an error on nearly every line */
        static const struct {
            const char *first_bytes, *kind;
        } own[] = {{RESULTS_FIRST_BYTES, "a results file (kpath run writes them)"},
                   {WORKSPACE_FIRST_BYTES, "a workspace (the explorer's :save writes them)"}};
        for (size_t i = 0; format == GRAMMAR_FORMAT_EBNF && i < sizeof own / sizeof *own; i++) {
            size_t n = strlen(own[i].first_bytes);
            if (len >= n && memcmp(text, own[i].first_bytes, n) == 0) {
                diag_add(diags, DIAG_ERROR, name, 0, 0,
                         "this is %s, not a grammar: is it in GRAMMAR's place? (--help gives the "
                         "order of the arguments)",
                         own[i].kind);
                return NULL;
            }
        }
    }
    switch (format) {
    case GRAMMAR_FORMAT_G4: return import_antlr(name, text, len, opts, diags);
    case GRAMMAR_FORMAT_FUZZINGBOOK: return import_fuzzingbook(name, text, len, opts, diags);
    case GRAMMAR_FORMAT_TRIBBLE: return import_tribble(name, text, len, opts, diags);
    case GRAMMAR_FORMAT_FANDANGO: return import_fandango(name, text, len, opts, diags);
    default: return grammar_load_string(name, text, len, opts, diags);
    }
}

struct grammar *grammar_open(const char *path, enum grammar_format format,
                             const struct grammar_options *opts, struct diag_list *diags)
{
    /* Diagnostics name standard input "<stdin>", as for samples.  AUTO is
     * left to grammar_open_string, which knows kpath's own files too. */
    struct strbuf sb = STRBUF_INIT;
    struct grammar *g = NULL;
    if (grammar_read_file(path, opts, &sb, diags))
        g = grammar_open_string(samples_display_name(path), strbuf_str(&sb), sb.len, format, opts,
                                diags);
    strbuf_free(&sb);
    return g;
}
