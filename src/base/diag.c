#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void diag_vadd(struct diag_list *list, enum diag_severity severity,
               const char *file, uint32_t line, uint32_t col,
               const char *fmt, va_list ap)
{
    list->items = xgrow(list->items, &list->cap, list->len + 1, sizeof *list->items);
    struct diag *d = &list->items[list->len++];
    struct strbuf sb = STRBUF_INIT;
    strbuf_vaddf(&sb, fmt, ap);
    d->severity = severity;
    d->file = file ? xstrdup(file) : NULL;
    d->line = line;
    d->col = col;
    d->message = strbuf_detach(&sb, NULL);
    if (severity == DIAG_ERROR)
        list->errors++;
}

void diag_add(struct diag_list *list, enum diag_severity severity,
              const char *file, uint32_t line, uint32_t col,
              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(list, severity, file, line, col, fmt, ap);
    va_end(ap);
}

bool diag_has_errors(const struct diag_list *list)
{
    return list->errors > 0;
}

static const char *severity_name(enum diag_severity s)
{
    switch (s) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
    }
    return "error";
}

void diag_format(const struct diag *d, struct strbuf *out)
{
    if (d->file && d->line)
        strbuf_addf(out, "%s:%u:%u: ", d->file, d->line, d->col);
    else if (d->file)
        strbuf_addf(out, "%s: ", d->file);
    strbuf_addf(out, "%s: %s", severity_name(d->severity), d->message);
}

static int position_cmp(const struct diag *a, const struct diag *b)
{
    int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    return 0;
}

void diag_sort(struct diag_list *list)
{
    /* Insertion sort: stable, and the lists are short. */
    for (size_t i = 1; i < list->len; i++) {
        struct diag d = list->items[i];
        size_t j = i;
        while (j > 0 && position_cmp(&list->items[j - 1], &d) > 0) {
            list->items[j] = list->items[j - 1];
            j--;
        }
        list->items[j] = d;
    }
}

void diag_list_free(struct diag_list *list)
{
    for (size_t i = 0; i < list->len; i++) {
        free(list->items[i].file);
        free(list->items[i].message);
    }
    free(list->items);
    list->items = NULL;
    list->len = list->cap = list->errors = 0;
}

void diag_list_cap(struct diag_list *list, size_t max_errors, const char *file)
{
    size_t errors = 0, shown = 0;
    for (; shown < list->len && errors < max_errors; shown++)
        errors += list->items[shown].severity == DIAG_ERROR;
    size_t more_errors = list->errors - errors, more_others = list->len - shown - more_errors;
    if (!more_errors) /* only warnings after the last error shown: they are no flood */
        return;
    for (size_t i = shown; i < list->len; i++) {
        free(list->items[i].file);
        free(list->items[i].message);
    }
    list->len = shown;
    list->errors = errors;
    struct strbuf others = STRBUF_INIT;
    if (more_others)
        strbuf_addf(&others, " and %zu more warning%s", more_others, more_others == 1 ? "" : "s");
    diag_add(list, DIAG_NOTE, file, 0, 0,
             "%zu more error%s%s not shown ('kpath check %s' lists every one)", more_errors,
             more_errors == 1 ? "" : "s", strbuf_str(&others), file);
    strbuf_free(&others);
}
