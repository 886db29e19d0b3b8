/* file_hint: the did-you-mean for a grammar file that is not there
 * (file_hint.h).  Directories and strings only, no curses. */
#include "base/file_hint.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

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
            strbuf_addf(best, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        }
    }
    closedir(d);
}

/* dir/name as the user would type it: "./" dropped, and a directory under
 * the working directory given relative to it (the bundled grammars are
 * found by an absolute path). */
static void relative_name(const char *full, struct strbuf *out)
{
    if (strncmp(full, "./", 2) == 0)
        full += 2;
    char *cwd = getcwd(NULL, 0);
    size_t n = cwd ? strlen(cwd) : 0;
    if (cwd && full[0] == '/' && strncmp(full, cwd, n) == 0 && full[n] == '/')
        full += n + 1;
    free(cwd);
    strbuf_addstr(out, full);
}

bool file_hint_suggest(const char *path, const char *bundled_dir, struct strbuf *out)
{
    const char *slash = strrchr(path, '/');
    const char *want = slash ? slash + 1 : path;
    if (!*want)
        return false;
    struct strbuf dir = STRBUF_INIT, best = STRBUF_INIT;
    if (slash)
        strbuf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
    else
        strbuf_addstr(&dir, ".");
    size_t best_d = strlen(want) / 3 + 2; /* farther than this is no typo */
    closest_in(strbuf_str(&dir), want, &best, &best_d);
    if (bundled_dir)
        closest_in(bundled_dir, want, &best, &best_d);
    bool found = best.len > 0;
    if (found)
        relative_name(strbuf_str(&best), out);
    strbuf_free(&dir);
    strbuf_free(&best);
    return found;
}

const char *file_hint_closest_name(const char *want, char *const *names, size_t n)
{
    /* Stricter than for file names: names of one kind share long prefixes
     * (fn:cJSON_Minify is 6 edits from fn:cJSON_Delete, no typo). */
    size_t best_d = strlen(want) / 4 + 1;
    const char *best = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(want, names[i]);
        if (d == 0)
            return NULL;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
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
    struct strbuf hint = STRBUF_INIT;
    if (file_hint_suggest(path, bundled_dir, &hint))
        strbuf_addf(out, "%sdid you mean %s?", sep, strbuf_str(&hint));
    strbuf_free(&hint);
    return true;
}
