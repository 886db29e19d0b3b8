/* file_hint: the did-you-mean for a grammar file that is not there
 * (file_hint.h).  Bottom layer: directories and strings only. */
#include "file_hint.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xalloc.h"

/* Levenshtein distance, two rows; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *prev = xmalloc((lb + 1) * sizeof *prev), *cur = xmalloc((lb + 1) * sizeof *cur);
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            cur[j] = best;
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

/* The closest file name to `path`'s base name in `dir`; appended to best
 * when closer than *best_d. */
static void closest_in(const char *dir, const char *want, struct strbuf *best, size_t *best_d)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t dist = edit_distance(want, e->d_name);
        if (dist < *best_d) {
            *best_d = dist;
            strbuf_reset(best);
            strbuf_addf(best, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
}

bool file_hint_missing(const char *path, const char *bundled_dir, const char *sep,
                       struct strbuf *out)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return false;
        strbuf_addf(out, "%s is a directory; the explorer takes one grammar file, e.g. "
                         "%s/expr.ebnf", path, bundled_dir ? bundled_dir : "grammars");
        return true;
    }
    strbuf_addf(out, "%s: %s", path, strerror(errno));
    const char *slash = strrchr(path, '/');
    const char *want = slash ? slash + 1 : path;
    struct strbuf dir = STRBUF_INIT, best = STRBUF_INIT;
    if (slash)
        strbuf_add(&dir, path, (size_t)(slash - path));
    else
        strbuf_addstr(&dir, ".");
    size_t best_d = strlen(want) / 3 + 2; /* farther than this is no typo */
    closest_in(strbuf_str(&dir), want, &best, &best_d);
    if (bundled_dir)
        closest_in(bundled_dir, want, &best, &best_d);
    if (best.len) {
        const char *b = strbuf_str(&best);
        strbuf_addf(out, "%sdid you mean %s?", sep, strncmp(b, "./", 2) == 0 ? b + 2 : b);
    }
    strbuf_free(&dir);
    strbuf_free(&best);
    return true;
}
