/* Formats whose importers are not written yet: a clear error. */
#include "import.h"

static struct grammar *not_yet(const char *path, const char *format, struct diag_list *diags)
{
    diag_add(diags, DIAG_ERROR, path, 0, 0, "reading %s grammars is not supported yet", format);
    return NULL;
}

struct grammar *import_fandango(const char *path, const char *text, size_t len,
                                const struct grammar_options *opts, struct diag_list *diags)
{
    (void)text, (void)len, (void)opts;
    return not_yet(path, "Fandango", diags);
}
