/* outdir: see outdir.h.  Every file operation goes through a descriptor of the
 * directory (openat, renameat, unlinkat), so the suite lands in the directory
 * that was checked even if its path is renamed meanwhile. */
#ifdef __linux__
#define _GNU_SOURCE /* syncfs: one flush for a whole batch of files */
#endif
#include "base/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/xalloc.h"

/* "DIR/NAME" for diagnostics, without doubling a trailing slash. */
static void full_name(const struct outdir *od, const char *name, struct strbuf *out)
{
    strbuf_reset(out);
    strbuf_addstr(out, od->path);
    if (out->len && out->data[out->len - 1] != '/')
        strbuf_addch(out, '/');
    strbuf_addstr(out, name);
}

static void report(struct diag_list *diags, enum diag_severity sev, const struct outdir *od,
                   const char *name, const char *what, int err)
{
    struct strbuf path = STRBUF_INIT;
    full_name(od, name, &path);
    diag_add(diags, sev, strbuf_str(&path), 0, 0, "%s: %s", what, strerror(err));
    strbuf_free(&path);
}

/* mkdir -p: create each missing component of `path`, then `path` itself. */
static bool make_directories(const char *path, struct diag_list *diags)
{
    char *copy = xstrdup(path);
    size_t len = strlen(copy);
    bool ok = true;
    for (size_t i = 1; i <= len && ok; i++) {
        if (i < len && !(copy[i] == '/' && copy[i - 1] != '/'))
            continue;
        char saved = copy[i];
        copy[i] = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            diag_add(diags, DIAG_ERROR, copy, 0, 0, "cannot create directory: %s",
                     strerror(errno));
            ok = false;
        }
        copy[i] = saved;
    }
    free(copy);
    return ok;
}

/* 1 when the directory has an entry besides . and .., 0 when not, -1 on error. */
static int directory_has_entries(int dirfd)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int found = 0;
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            found = 1;
            break;
        }
    }
    if (!e && errno)
        found = -1;
    closedir(d);
    return found;
}

enum outdir_status outdir_open(struct outdir *od, const char *path, bool force,
                               struct diag_list *diags)
{
    memset(od, 0, sizeof *od);
    od->dirfd = -1;
    od->force = force;
    od->path = xstrdup(path);
    od->batch_files = OUTDIR_BATCH_FILES;
    const char *kill_at = getenv("KPATH_OUTDIR_KILL_AT");
    if (kill_at)
        od->kill_at = strtoul(kill_at, NULL, 10);

    if (!*path) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "the output directory name is empty");
        return OUTDIR_REFUSED;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s exists and is not a directory", path);
            return OUTDIR_REFUSED;
        }
    } else if (errno == ENOENT) {
        if (!make_directories(path, diags))
            return OUTDIR_FAILED;
        od->created = true;
    } else {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot use as output directory: %s",
                 strerror(errno));
        return OUTDIR_FAILED;
    }

    od->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (od->dirfd < 0) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot open directory: %s", strerror(errno));
        return OUTDIR_FAILED;
    }
    int has = directory_has_entries(od->dirfd);
    if (has < 0) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot list directory: %s", strerror(errno));
        return OUTDIR_FAILED;
    }
    od->was_empty = has == 0;
    od->manifest_gone = od->was_empty;
    if (has && !force) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                 "%s is not empty (use --force to replace its test cases)", path);
        return OUTDIR_REFUSED;
    }
    return OUTDIR_OK;
}

static bool plain_name(const char *name)
{
    return *name && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* The test hook: die, as a kill -9 would, before the chosen change. */
static void step(struct outdir *od)
{
    if (od->kill_at && ++od->steps == od->kill_at)
        raise(SIGKILL);
}

static bool write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool sync_directory(struct outdir *od, struct diag_list *diags);

static void trace(struct outdir *od, enum outdir_event event, const char *name, size_t bytes)
{
    if (od->trace)
        od->trace(od->trace_ctx, event, name, bytes);
}

/* Drop the pending batch from index `from` on, removing its temporaries. */
static void drop_pending(struct outdir *od, size_t from)
{
    for (size_t i = from; i < od->npending; i++) {
        unlinkat(od->dirfd, od->pending[i].tmp, 0);
        free(od->pending[i].name);
        free(od->pending[i].tmp);
    }
    od->npending = from;
}

/* An earlier run's manifest goes before anything of this run is in place. */
static bool remove_old_manifest(struct outdir *od, struct diag_list *diags)
{
    if (od->manifest_gone)
        return true;
    struct stat st;
    if (fstatat(od->dirfd, OUTDIR_MANIFEST, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT) {
            report(diags, DIAG_ERROR, od, OUTDIR_MANIFEST, "cannot check the old manifest", errno);
            return false;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        step(od);
        if (unlinkat(od->dirfd, OUTDIR_MANIFEST, 0) != 0 && errno != ENOENT) {
            report(diags, DIAG_ERROR, od, OUTDIR_MANIFEST, "cannot remove the old manifest", errno);
            return false;
        }
        trace(od, OUTDIR_EVENT_REMOVED, OUTDIR_MANIFEST, 0);
        /* Durable before any file it describes changes. */
        if (!sync_directory(od, diags))
            return false;
    }
    od->manifest_gone = true;
    return true;
}

bool outdir_commit(struct outdir *od, struct diag_list *diags)
{
    if (od->dirfd < 0)
        return false;
    if (!od->npending)
        return true;
#ifdef __linux__
    /* The batch's data, durable before any of it is renamed into place. */
    if (syncfs(od->dirfd) != 0) {
        diag_add(diags, DIAG_ERROR, od->path, 0, 0, "cannot write (syncfs): %s", strerror(errno));
        drop_pending(od, 0);
        return false;
    }
    trace(od, OUTDIR_EVENT_DATA_SYNCED, NULL, 0);
#endif
    if (!remove_old_manifest(od, diags)) {
        drop_pending(od, 0);
        return false;
    }
    for (size_t i = 0; i < od->npending; i++) {
        struct outdir_pending *p = &od->pending[i];
        step(od);
        if (renameat(od->dirfd, p->tmp, od->dirfd, p->name) != 0) {
            report(diags, DIAG_ERROR, od, p->name, "cannot put the new file in place", errno);
            drop_pending(od, i); /* those before i are in place, and in names */
            od->npending = 0;
            od->pending_bytes = 0;
            sync_directory(od, NULL);
            return false;
        }
        trace(od, OUTDIR_EVENT_RENAMED, p->name, 0);
        od->names = xgrow(od->names, &od->names_cap, od->nnames + 1, sizeof *od->names);
        od->names[od->nnames++] = p->name;
        free(p->tmp);
        od->written++;
    }
    od->npending = 0;
    od->pending_bytes = 0;
    od->unsynced = true;
    return sync_directory(od, diags);
}

bool outdir_write(struct outdir *od, const char *name, const void *data, size_t len,
                  struct diag_list *diags)
{
    if (od->dirfd < 0 || !plain_name(name)) {
        diag_add(diags, DIAG_ERROR, od->path, 0, 0, "cannot write '%s': %s", name,
                 od->dirfd < 0 ? "the directory is not open" : "not a plain file name");
        return false;
    }
    bool last = strcmp(name, OUTDIR_MANIFEST) == 0;
    /* The manifest describes files that are in place, so they go first. */
    if (last && !outdir_commit(od, diags))
        return false;
    /* A directory in the way would fail only at the rename: say so now. */
    struct stat st;
    if (fstatat(od->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
        report(diags, DIAG_ERROR, od, name, "cannot put the new file in place", EISDIR);
        outdir_commit(od, diags);
        return false;
    }
    static unsigned long serial;
    struct strbuf tmp = STRBUF_INIT;
    int fd = -1;
    step(od);
    for (int attempt = 0; attempt < 1000; attempt++) {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, ".%s.%ld-%lu.tmp", name, (long)getpid(), serial++);
        fd = openat(od->dirfd, tmp.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        report(diags, DIAG_ERROR, od, name, "cannot create a temporary file for it", errno);
        strbuf_free(&tmp);
        outdir_commit(od, diags);
        return false;
    }

    const char *failed = NULL;
    int err = 0;
    if (!write_all(fd, data, len)) {
        failed = "cannot write";
        err = errno;
    } else if (od->trace) {
        /* What the file holds, as the file system says, not what was asked. */
        struct stat written;
        trace(od, OUTDIR_EVENT_TEMP_WRITTEN, name,
              fstat(fd, &written) == 0 ? (size_t)written.st_size : 0);
    }
#ifndef __linux__
    else if (fsync(fd) != 0) { /* no syncfs: each file on its own */
        failed = "cannot write (fsync)";
        err = errno;
    } else {
        trace(od, OUTDIR_EVENT_DATA_SYNCED, name, 0);
    }
#endif
    if (close(fd) != 0 && !failed) {
        failed = "cannot write (close)";
        err = errno;
    }
    if (failed) {
        unlinkat(od->dirfd, tmp.data, 0);
        report(diags, DIAG_ERROR, od, name, failed, err);
        strbuf_free(&tmp);
        outdir_commit(od, diags);
        return false;
    }
    od->pending = xgrow(od->pending, &od->pending_cap, od->npending + 1, sizeof *od->pending);
    od->pending[od->npending++] =
        (struct outdir_pending){xstrdup(name), strbuf_detach(&tmp, NULL)};
    od->pending_bytes += len;
    if (last || od->npending >= od->batch_files || od->pending_bytes >= OUTDIR_BATCH_BYTES)
        return outdir_commit(od, diags);
    return true;
}

bool outdir_is_case_name(const char *name, const char *suffix)
{
    size_t digits = 0;
    while (name[digits] >= '0' && name[digits] <= '9')
        digits++;
    return digits >= 4 && strcmp(name + digits, suffix) == 0;
}

void outdir_case_name(struct strbuf *out, size_t number, size_t count, const char *suffix)
{
    int width = 4;
    for (size_t c = count; c >= 10000; c /= 10)
        width++;
    strbuf_addf(out, "%0*zu%s", width, number, suffix);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool sync_directory(struct outdir *od, struct diag_list *diags)
{
    od->unsynced = false;
    /* Some file systems cannot sync a directory; that is no error of ours. */
    if (fsync(od->dirfd) != 0 && errno != EINVAL && errno != ENOTSUP) {
        if (diags)
            diag_add(diags, DIAG_ERROR, od->path, 0, 0, "cannot sync directory: %s",
                     strerror(errno));
        return false;
    }
    trace(od, OUTDIR_EVENT_DIR_SYNCED, NULL, 0);
    return true;
}

/* Is `name` a temporary file of outdir_write (".NAME.PID-N.tmp") whose
 * process is gone?  Then nobody will ever rename it: a killed run's. */
static bool is_orphan_temporary(const char *name)
{
    size_t len = strlen(name);
    if (name[0] != '.' || len < 10 || strcmp(name + len - 4, ".tmp") != 0)
        return false;
    size_t end = len - 4, i = end;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == end || i == 0 || name[i - 1] != '-')
        return false;
    size_t pid_end = --i;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == pid_end || i < 3 || name[i - 1] != '.')
        return false;
    long pid = strtol(name + i, NULL, 10);
    if (pid <= 0 || pid == (long)getpid())
        return false;
    int saved = errno; /* the caller is in a readdir loop that checks errno */
    bool gone = kill((pid_t)pid, 0) != 0 && errno == ESRCH;
    errno = saved;
    return gone;
}

bool outdir_finish(struct outdir *od, const char *suffix, struct diag_list *diags)
{
    if (od->dirfd < 0)
        return false;
    if (!outdir_commit(od, diags))
        return false; /* stale cases stay until a run is complete */
    bool ok = true;
    /* The names written, sorted, to look up each directory entry. */
    char **sorted = xcalloc(od->nnames + 1, sizeof *sorted);
    if (od->nnames)
        memcpy(sorted, od->names, od->nnames * sizeof *sorted);
    qsort(sorted, od->nnames, sizeof *sorted, compare_names);

    int fd = openat(od->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        diag_add(diags, DIAG_ERROR, od->path, 0, 0, "cannot list directory: %s",
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        free(sorted);
        return false;
    }
    /* Collect first, remove afterwards: removing while reading a directory
     * may make readdir skip or repeat entries. */
    char **stale = NULL;
    size_t nstale = 0, stale_cap = 0;
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (is_orphan_temporary(n)) {
            stale = xgrow(stale, &stale_cap, nstale + 1, sizeof *stale);
            stale[nstale++] = xstrdup(n);
            continue;
        }
        if (!outdir_is_case_name(n, suffix))
            continue;
        if (bsearch(&n, sorted, od->nnames, sizeof *sorted, compare_names))
            continue;
        stale = xgrow(stale, &stale_cap, nstale + 1, sizeof *stale);
        stale[nstale++] = xstrdup(n);
    }
    if (errno) {
        diag_add(diags, DIAG_ERROR, od->path, 0, 0, "cannot list directory: %s",
                 strerror(errno));
        ok = false;
    }
    closedir(d);
    free(sorted);

    if (nstale)
        qsort(stale, nstale, sizeof *stale, compare_names);
    for (size_t i = 0; i < nstale; i++) {
        struct stat st;
        if (fstatat(od->dirfd, stale[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            struct strbuf path = STRBUF_INIT;
            full_name(od, stale[i], &path);
            diag_add(diags, DIAG_WARNING, strbuf_str(&path), 0, 0,
                     "not removed: a directory with the name of a stale test case");
            strbuf_free(&path);
        } else if (step(od), unlinkat(od->dirfd, stale[i], 0) != 0 && errno != ENOENT) {
            report(diags, DIAG_ERROR, od, stale[i],
                   stale[i][0] == '.' ? "cannot remove a killed run's temporary file"
                                      : "cannot remove stale test case", errno);
            ok = false;
        } else {
            trace(od, OUTDIR_EVENT_REMOVED, stale[i], 0);
            od->unsynced = true;
        }
        free(stale[i]);
    }
    free(stale);
    if (!sync_directory(od, diags))
        ok = false;
    return ok;
}

void outdir_close(struct outdir *od)
{
    /* A zeroed outdir has no path, and its descriptor 0 is not ours. */
    if (od->path && od->dirfd >= 0) {
        if (od->npending) {
            struct diag_list ignored = DIAG_LIST_INIT;
            outdir_commit(od, &ignored);
            diag_list_free(&ignored);
        }
        if (od->unsynced)
            sync_directory(od, NULL);
        close(od->dirfd);
    }
    for (size_t i = 0; i < od->nnames; i++)
        free(od->names[i]);
    free(od->names);
    for (size_t i = 0; i < od->npending; i++) {
        free(od->pending[i].name);
        free(od->pending[i].tmp);
    }
    free(od->pending);
    free(od->path);
    memset(od, 0, sizeof *od);
    od->dirfd = -1;
}
