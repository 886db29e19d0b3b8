/* grammar_file: see grammar_file.h. */
#include "grammar/grammar_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file_hint.h"
#include "base/samples.h"

bool grammar_read_file(const char *path, const struct grammar_options *opts,
                       struct strbuf *out, struct diag_list *diags)
{
    strbuf_reset(out);
    size_t max_size = opts && opts->max_size ? opts->max_size : GRAMMAR_DEFAULT_MAX_SIZE;
    /* "-" is standard input, as for samples (a file called "-" is "./-"),
     * within the same size limit; a pipe or a terminal needs no --any-file
     * there, as it is asked for by name. */
    if (strcmp(path, "-") == 0)
        return samples_read_limited("-", max_size, " for a grammar file", out, diags);
    struct stat st;
    if (stat(path, &st) != 0) {
        int err = errno;
        struct strbuf hint = STRBUF_INIT;
        bool typo = err == ENOENT && file_hint_suggest(path, NULL, &hint);
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read: %s%s%s%s", strerror(err),
                 typo ? "; did you mean " : "", strbuf_str(&hint), typo ? "?" : "");
        strbuf_free(&hint);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(EISDIR));
        return false;
    }
    if (!samples_kind_allowed(path, opts && opts->any_file, diags))
        return false;
    return samples_read_limited(path, max_size, " for a grammar file", out, diags);
}

struct grammar *grammar_load_file(const char *path, const struct grammar_options *opts,
                                  struct diag_list *diags)
{
    struct strbuf sb = STRBUF_INIT;
    if (!grammar_read_file(path, opts, &sb, diags)) {
        strbuf_free(&sb);
        return NULL;
    }
    struct grammar *g = grammar_load_string(path, strbuf_str(&sb), sb.len, opts, diags);
    strbuf_free(&sb);
    return g;
}
