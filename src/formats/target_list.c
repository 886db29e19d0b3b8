#include "formats/target_list.h"

#include <stdlib.h>
#include <string.h>

#include "formats/grammar_load.h"
#include "graph/pattern.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* Move the diagnostics of `from` (which have no position) to `to`, at
 * file:line:col. */
static void move_diags(struct diag_list *from, struct diag_list *to, const char *file,
                       uint32_t line, uint32_t col)
{
    for (size_t i = 0; i < from->len; i++)
        diag_add(to, from->items[i].severity, file, line, col, "%s", from->items[i].message);
    diag_list_free(from);
}

bool target_list_read(const struct graph *g, const char *path, uint32_t want_k,
                      struct target_list *out, struct diag_list *diags)
{
    *out = (struct target_list)TARGET_LIST_INIT;
    struct strbuf text = STRBUF_INIT;
    if (!grammar_read_file(path, NULL, &text, diags)) { /* the bounds of a grammar file */
        strbuf_free(&text);
        return false;
    }
    size_t errors = diags->errors, cap = 0;
    uint32_t k = want_k;
    const char *p = strbuf_str(&text), *end = p + text.len;
    uint32_t line = 0;
    while (p < end) {
        line++;
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *first = p;
        while (first < eol && (*first == ' ' || *first == '\t'))
            first++;
        uint32_t col = (uint32_t)(first - p) + 1;
        size_t len = (size_t)(eol - first);
        while (len && (first[len - 1] == '\r' || first[len - 1] == ' ' || first[len - 1] == '\t'))
            len--;
        p = eol + (eol < end);
        if (!len || *first == '#')
            continue;
        if (memchr(first, '\0', len)) {
            diag_add(diags, DIAG_ERROR, path, line, col, "a NUL byte in the line");
            continue;
        }
        char *one = xmemdup(first, len + 1);
        one[len] = '\0';
        struct diag_list local = DIAG_LIST_INIT;
        uint32_t n = 0;
        uint32_t *ids = graph_parse_path(g, one, &n, &local);
        free(one);
        if (!ids && !local.errors)
            diag_add(&local, DIAG_ERROR, NULL, 0, 0, "no node in the line");
        else if (ids && k && n != k)
            diag_add(&local, DIAG_ERROR, NULL, 0, 0, "a %u-path, but %s %u-paths%s", n,
                     want_k ? "-k asks for" : "the first line has", k,
                     want_k ? "" : " (every line holds a path of the same length)");
        else if (ids)
            pattern_check_path(g, ids, n, &local);
        bool ok = ids && !diag_has_errors(&local);
        move_diags(&local, diags, path, line, col);
        if (ok) {
            k = n;
            out->paths = xgrow(out->paths, &cap, (out->len + 1) * k, sizeof *out->paths);
            memcpy(out->paths + out->len * k, ids, k * sizeof *ids);
            out->len++;
        }
        free(ids);
    }
    strbuf_free(&text);
    if (diags->errors == errors && !out->len)
        diag_add(diags, DIAG_ERROR, path, 0, 0, "no k-path in the file (one a line, as kpath "
                                                "paths prints them)");
    if (diags->errors != errors) {
        target_list_free(out);
        return false;
    }
    out->k = k;
    return true;
}

void target_list_free(struct target_list *list)
{
    free(list->paths);
    *list = (struct target_list)TARGET_LIST_INIT;
}
