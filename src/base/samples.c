#include "base/samples.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

static void list_add(struct sample_list *list, char *path)
{
    list->paths = xgrow(list->paths, &list->cap, list->len + 1, sizeof *list->paths);
    list->paths[list->len++] = path;
}

void sample_list_free(struct sample_list *list)
{
    for (size_t i = 0; i < list->len; i++)
        free(list->paths[i]);
    free(list->paths);
    *list = (struct sample_list)SAMPLE_LIST_INIT;
}

const char *samples_display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? SAMPLES_STDIN_NAME : path;
}

bool samples_file_starts_with(const char *path, const char *prefix)
{
    size_t len = strlen(prefix);
    char *buf = xmalloc(len + 1);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, len, f) : 0;
    if (f)
        fclose(f);
    bool starts = f && n == len && memcmp(buf, prefix, len) == 0;
    free(buf);
    return starts;
}

/* Path order, component by component: '/' sorts before every other byte, so
 * a directory's entries stay together ahead of names that extend its name. */
static int path_cmp(const void *a, const void *b)
{
    const unsigned char *x = *(const unsigned char *const *)a;
    const unsigned char *y = *(const unsigned char *const *)b;
    for (; *x == *y; x++, y++)
        if (!*x)
            return 0;
    if (!*x || !*y)
        return *x ? 1 : -1;
    unsigned cx = *x == '/' ? 0u : *x, cy = *y == '/' ? 0u : *y;
    return cx < cy ? -1 : 1;
}

static char *join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] == '/';
    char *p = xmalloc(dl + nl + 2);
    memcpy(p, dir, dl);
    if (!slash)
        p[dl++] = '/';
    memcpy(p + dl, name, nl + 1);
    return p;
}

/* Every sample file below `root` (a directory), appended in path order.
 * Returns the number of errors. */
static size_t walk(const char *root, struct sample_list *out, struct diag_list *diags)
{
    size_t errors = 0;
    char **pending = NULL; /* directories still to list (a stack; order is fixed by sorting) */
    size_t npending = 0, pending_cap = 0;
    struct sample_list found = SAMPLE_LIST_INIT;
    pending = xgrow(pending, &pending_cap, 1, sizeof *pending);
    pending[npending++] = xstrdup(root);
    while (npending) {
        char *dir = pending[--npending];
        DIR *d = opendir(dir);
        if (!d) {
            diag_add(diags, DIAG_ERROR, dir, 0, 0, "cannot list directory: %s", strerror(errno));
            errors++;
            free(dir);
            continue;
        }
        struct dirent *e;
        errno = 0;
        while ((e = readdir(d))) {
            const char *name = e->d_name;
            if (name[0] == '.')
                continue; /* hidden, and . and .. */
            char *path = join(dir, name);
            struct stat st;
            if (lstat(path, &st) != 0) {
                diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
                errors++;
                free(path);
            } else if (S_ISDIR(st.st_mode)) {
                pending = xgrow(pending, &pending_cap, npending + 1, sizeof *pending);
                pending[npending++] = path;
            } else if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                diag_add(diags, DIAG_WARNING, path, 0, 0,
                         "symbolic link to a directory, not followed");
                free(path);
            } else if (S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode)) {
                /* stat failed (a dangling link) or the target is not a file. */
                diag_add(diags, DIAG_WARNING, path, 0, 0,
                         "symbolic link to something that is not a file, skipped");
                free(path);
            } else if (!S_ISREG(st.st_mode)) {
                diag_add(diags, DIAG_WARNING, path, 0, 0, "not a regular file, skipped");
                free(path);
            } else if (strcmp(name, SAMPLES_MANIFEST_NAME) == 0) {
                free(path); /* a suite's description, not a sample */
            } else {
                list_add(&found, path);
            }
            errno = 0;
        }
        if (errno) {
            diag_add(diags, DIAG_ERROR, dir, 0, 0, "cannot list directory: %s", strerror(errno));
            errors++;
        }
        closedir(d);
        free(dir);
    }
    free(pending);
    if (found.len == 0 && errors == 0)
        diag_add(diags, DIAG_WARNING, root, 0, 0, "no sample files in this directory");
    if (found.len > 1)
        qsort(found.paths, found.len, sizeof *found.paths, path_cmp);
    for (size_t i = 0; i < found.len; i++)
        list_add(out, found.paths[i]);
    free(found.paths);
    return errors;
}

/* What kind of file st is, for "a character device, not a regular file". */
static const char *file_kind(const struct stat *st)
{
    return S_ISCHR(st->st_mode)    ? "a character device"
           : S_ISBLK(st->st_mode)  ? "a block device"
           : S_ISFIFO(st->st_mode) ? "a pipe"
           : S_ISSOCK(st->st_mode) ? "a socket"
                                   : "a special file";
}

bool samples_kind_allowed(const char *path, bool any_file, struct diag_list *diags)
{
    struct stat st;
    if (any_file || strcmp(path, "-") == 0 || stat(path, &st) != 0 || S_ISREG(st.st_mode) ||
        S_ISDIR(st.st_mode))
        return true;
    diag_add(diags, DIAG_ERROR, path, 0, 0,
             "cannot read: %s, not a regular file (--any-file reads it)", file_kind(&st));
    return false;
}

size_t samples_expand(const char *const *args, size_t nargs, bool any_file,
                      struct sample_list *out, struct diag_list *diags)
{
    size_t errors = 0;
    for (size_t i = 0; i < nargs; i++) {
        const char *arg = args[i];
        struct stat st;
        if (strcmp(arg, "-") == 0) {
            list_add(out, xstrdup(arg));
        } else if (stat(arg, &st) != 0) {
            diag_add(diags, DIAG_ERROR, arg, 0, 0, "cannot read: %s", strerror(errno));
            errors++;
        } else if (S_ISDIR(st.st_mode)) {
            errors += walk(arg, out, diags);
        } else if (!samples_kind_allowed(arg, any_file, diags)) {
            errors++;
        } else {
            list_add(out, xstrdup(arg));
        }
    }
    return errors;
}

/* ---- reading -------------------------------------------------------------- */

enum { READ_CHUNK = 1 << 16 };

/* Room for a file of known size in `out` (empty), which read() writes once
 * from end to end: a large one gets memory that asks for huge pages
 * (xmalloc_written_once).  The memory is malloc's, freed and grown as any
 * strbuf's. */
static void read_room(struct strbuf *out, size_t bytes)
{
    if (bytes < XALLOC_HUGE_PAGE || out->cap >= bytes || out->len)
        return;
    free(out->data);
    out->data = xmalloc_written_once(bytes, &out->cap);
}

bool samples_read(const char *path, size_t max_size, struct strbuf *out,
                  struct diag_list *diags)
{
    return samples_read_limited(path, max_size, " (--max-input-size)", out, diags);
}

bool samples_read_limited(const char *path, size_t max_size, const char *limit_note,
                          struct strbuf *out, struct diag_list *diags)
{
    const char *why = limit_note ? limit_note : "";
    const char *name = samples_display_name(path);
    bool is_stdin = strcmp(path, "-") == 0;
    strbuf_reset(out);
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, name, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    bool ok = true;
    struct stat st;
    size_t expected = 0;
    if (fstat(fd, &st) != 0) {
        diag_add(diags, DIAG_ERROR, name, 0, 0, "cannot read: %s", strerror(errno));
        ok = false;
    } else if (S_ISDIR(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, name, 0, 0, "cannot read: %s", strerror(EISDIR));
        ok = false;
    } else if (S_ISREG(st.st_mode)) {
        if ((uintmax_t)st.st_size > (uintmax_t)max_size) {
            diag_add(diags, DIAG_ERROR, name, 0, 0,
                     "input is %jd bytes, more than the limit of %zu%s",
                     (intmax_t)st.st_size, max_size, why);
            ok = false;
        } else {
            expected = (size_t)st.st_size;
            read_room(out, expected + 2); /* the bytes, one more to see the end, NUL */
        }
    }
    /* Read at most max_size + 1 bytes: one more tells that there are more. */
    size_t room = max_size < SIZE_MAX ? max_size + 1 : max_size;
    while (ok && out->len < room) {
        size_t want = READ_CHUNK;
        if (out->len < expected && expected - out->len + 1 > want)
            want = expected - out->len + 1; /* the known size, and one more to see the end */
        if (want > room - out->len)
            want = room - out->len;
        out->data = xgrow(out->data, &out->cap, out->len + want + 1, 1);
        ssize_t got = read(fd, out->data + out->len, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            diag_add(diags, DIAG_ERROR, name, 0, 0, "cannot read: %s", strerror(errno));
            ok = false;
            break;
        }
        if (got == 0)
            break;
        out->len += (size_t)got;
    }
    if (out->data)
        out->data[out->len] = '\0';
    if (ok && out->len > max_size) {
        diag_add(diags, DIAG_ERROR, name, 0, 0,
                 "input is more than %zu bytes, the limit%s", max_size, why);
        ok = false;
    }
    if (!is_stdin)
        close(fd);
    if (!ok)
        strbuf_reset(out);
    return ok;
}

bool samples_parse_size(const char *text, size_t *out)
{
    uintmax_t v = 0;
    const char *s = text;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (SIZE_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    unsigned shift = 0;
    if (*s == 'K' || *s == 'k')
        shift = 10, s++;
    else if (*s == 'M')
        shift = 20, s++;
    else if (*s == 'G')
        shift = 30, s++;
    if (*s || v == 0 || v > (SIZE_MAX >> shift))
        return false;
    *out = (size_t)(v << shift);
    return true;
}
