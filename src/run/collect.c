#include "run/collect.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void str_list_add(struct str_list *l, const char *s)
{
    l->items = xgrow(l->items, &l->cap, l->len + 2, sizeof *l->items);
    l->items[l->len++] = xstrdup(s);
    l->items[l->len] = NULL;
}

void str_list_addf(struct str_list *l, const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&sb, fmt, ap);
    va_end(ap);
    str_list_add(l, strbuf_str(&sb));
    strbuf_free(&sb);
}

void str_list_free(struct str_list *l)
{
    for (size_t i = 0; i < l->len; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* The outcome needs no work of its own: it is always the run's first feature. */
static bool outcome_collect(const struct collector *c, const struct collect_run *run,
                            const struct runner_result *helper, struct str_list *out,
                            struct diag_list *diags)
{
    (void)c, (void)helper, (void)diags;
    str_list_add(out, run->outcome);
    return true;
}

static const struct collector_ops outcome_ops = {.collect = outcome_collect};

void collector_outcome(struct collector *c)
{
    memset(c, 0, sizeof *c);
    c->ops = &outcome_ops;
    c->name = xstrdup("outcome");
}

void collector_free(struct collector *c)
{
    if (c->ops && c->ops->free)
        c->ops->free(c);
    free(c->name);
    memset(c, 0, sizeof *c);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void collect_files_below(const char *dir, const char *suffix, struct str_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t first = out->len, slen = strlen(suffix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > slen && strcmp(e->d_name + len - slen, suffix) == 0)
            str_list_addf(out, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(out->items + first, out->len - first, sizeof *out->items, compare_strings);
}
