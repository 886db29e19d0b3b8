/* _GNU_SOURCE: close_range, pipe2, execvpe, vfork; wait4 for a child's rusage. */
#define _GNU_SOURCE
#include "run/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/number.h"
#include "base/sha256.h"
#include "base/xalloc.h"
#include "run/harness.h"

extern char **environ;

/* One captured stream of a running child. */
struct capture {
    int fd;                 /* -1 once closed */
    struct sha256 hash;
    uint64_t size;
    struct strbuf first;    /* the first line, up to RUNNER_FIRST_LINE_MAX bytes */
    bool first_done;        /* a newline was seen, or the cap reached */
    struct strbuf *kept;    /* stdout of a helper: kept whole up to keep_max */
    size_t keep_max;
    bool cut;
};

/* A run directory of the pool: BASE/N with cwd/ and in/ made once. */
struct run_dir {
    char *path;             /* owned */
    char *input;            /* owned: the input copy in it, or NULL */
    struct run_dir *next;   /* in the pool's free list */
};

/* The run directories of a runner, shared with the results that still use
 * one (a collector's helper runs in its main run's directory after the main
 * run's slot is free again); freed, and BASE removed, when the runner and
 * every result are gone. */
struct run_pool {
    size_t refs;
    char *base;             /* owned: PARENT/kpath-run-PID-XXXXXX, or NULL (not made yet) */
    int lock_fd;            /* BASE/lock, flocked while this process lives */
    unsigned made;          /* directories made so far (their names) */
    struct run_dir *free;
    /* On tmpfs a directory's size counts its entries: a run directory as
     * made (cwd/ and in/) and an empty one have these sizes, so that one
     * lstat tells that a directory is as new (0: not known, scan it). */
    off_t made_size, empty_size;
    bool tmpfs;
};

struct child {
    bool active;
    pid_t pid;              /* also its process group and session (setsid) */
    int pidfd;              /* readable once it has ended; -1 without pidfd_open */
    int poll_at;            /* its pidfd's entry in runner.fds during a poll, or -1 */
    struct capture out, err;
    char *start_error;      /* owned: why the program could not start, or NULL */
    double started;         /* seconds, monotonic */
    double deadline;        /* 0: none */
    double prepare_ms;      /* kpath's own work before the program started */
    bool timed_out, reaped;
    int wstatus;
    struct rusage ru;
    struct run_dir *dir;    /* NULL: runs in an existing directory (in_dir) */
    char *in_dir;
    void *user;
    struct strbuf kept;
};

/* A harness's fork server (runner_harness) and the run it is doing. */
struct server {
    pid_t pid;              /* 0: not started; its process group and session */
    int pidfd;
    int req_w, msg_r, input_fd, shm_fd; /* -1 when closed */
    struct capture out, err; /* its stdout and stderr, for every run in turn */
    struct run_dir *dir;
    char *cwd;              /* owned: dir's cwd/, where the runs run */
    const void *shm;        /* mapped read-only once the driver said hello */
    size_t shm_size;
    bool busy, ended, timed_out;
    pid_t child;            /* the run's process (group, session); 0 until known; in
                             * process, the child that stays between runs */
    uint32_t sent;          /* requests sent to this server (harness_msg.seq) */
    uint64_t child_cpu_us;  /* in process: the child's CPU time at its last input's end */
    double started, deadline, prepare_ms;
    int wstatus;
    uint64_t cpu_us, max_rss_kb;
    char *error;            /* owned: why the run could not be done */
    void *user;
    char msg[sizeof(struct harness_msg)];
    size_t msg_len;
};

#define RUNNER_PIDS_KEPT 4096 /* the last runs' pids: their groups were killed */

struct runner {
    struct runner_options opts;
    struct child *slots; /* opts.jobs of them */
    struct pollfd *fds;  /* 3 * opts.jobs: what runner_poll watches */
    size_t running;
    struct run_pool *pool;
    bool subreaper;      /* descendants that lose their parent come to kpath */
    pid_t session;       /* kpath's own session: its other children are not runs' */
    pid_t self;          /* kpath's pid (runs start from this process only) */
    int children_fd;     /* /proc/self/task/SELF/children, or -1 (sweep) */
    int status_fd;       /* /proc/self/status, or -1 (handled_signals) */
    pid_t keeper;        /* the process that cleans up if kpath dies; 0: none */
    int keeper_fd;       /* its pipe, never written: its end tells the keeper kpath ended */
    volatile int32_t *keeper_live; /* shared with the keeper: the runs under way (pids) */
    size_t keeper_cap;
    pid_t started[RUNNER_PIDS_KEPT]; /* ring of the runs started: pids = groups = sessions */
    size_t nstarted;
    size_t escaped;      /* processes that left their run's group and were killed */
    struct server *servers; /* opts.jobs of them with a harness, else NULL */
    char **guard_names;  /* the harness's features by guard (harness_names) */
    uint32_t nguards;
    uint32_t *seen;      /* per guard: the last run that reached it (duplicates) */
    uint32_t runs;
    struct runner *next_runner; /* in all_runners */
};

/* Every runner of the process: a sweep must not take another runner's runs
 * (the explorer may run two jobs at once) for escaped processes. */
static struct runner *all_runners;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- removing a run directory ------------------------------------------- */

bool runner_remove_tree(const char *root)
{
    struct strbuf path = STRBUF_INIT;
    strbuf_addstr(&path, root);
    size_t root_len = path.len;
    bool ok = true;
    for (;;) {
        DIR *d = opendir(path.data);
        if (!d && (errno == EACCES || errno == EPERM) && chmod(path.data, 0700) == 0)
            d = opendir(path.data);
        bool descended = false;
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                size_t len = path.len;
                strbuf_addch(&path, '/');
                strbuf_addstr(&path, e->d_name);
                struct stat st;
                if (lstat(path.data, &st) == 0 && S_ISDIR(st.st_mode)) {
                    /* A program may have made it unreadable or unwritable. */
                    if ((st.st_mode & 0700) != 0700)
                        (void)chmod(path.data, 0700);
                    descended = true;
                    break;
                }
                if (unlink(path.data) != 0 && errno != ENOENT)
                    ok = false;
                path.len = len;
                path.data[len] = '\0';
            }
            closedir(d);
        }
        if (descended)
            continue;
        /* Empty now (or it cannot be emptied: then give up rather than
         * rescanning the same entries forever). */
        if (rmdir(path.data) != 0 && errno != ENOENT) {
            ok = false;
            break;
        }
        if (path.len <= root_len)
            break;
        while (path.len > root_len && path.data[path.len - 1] != '/')
            path.len--;
        path.len--;
        path.data[path.len] = '\0';
    }
    strbuf_free(&path);
    return ok;
}

/* ---- checking the command ----------------------------------------------- */

static bool check_file(const char *path, const char *name, struct diag_list *diags)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s: no such command", name);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s: is a directory, not a command", name);
        return false;
    }
    if (access(path, X_OK) != 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s: is not executable", name);
        return false;
    }
    return true;
}

bool runner_check_command(const char *name, struct diag_list *diags)
{
    if (!name || !*name) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "an empty command name");
        return false;
    }
    if (strchr(name, '/'))
        return check_file(name, name, diags);
    const char *p = getenv("PATH");
    if (!p)
        p = "/usr/local/bin:/usr/bin:/bin";
    struct strbuf candidate = STRBUF_INIT;
    bool found_unexecutable = false;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        strbuf_reset(&candidate);
        if (len)
            strbuf_add(&candidate, p, len);
        else
            strbuf_addch(&candidate, '.');
        strbuf_addch(&candidate, '/');
        strbuf_addstr(&candidate, name);
        struct stat st;
        if (stat(candidate.data, &st) == 0 && S_ISREG(st.st_mode)) {
            if (access(candidate.data, X_OK) == 0) {
                strbuf_free(&candidate);
                return true;
            }
            found_unexecutable = true;
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    strbuf_free(&candidate);
    diag_add(diags, DIAG_ERROR, NULL, 0, 0,
             found_unexecutable ? "%s: is not executable" : "%s: command not found in PATH",
             name);
    return false;
}

/* ---- the run directories ------------------------------------------------- */

const char *runner_dir_parent(const char *tmp_parent)
{
    if (tmp_parent && *tmp_parent)
        return tmp_parent;
    const char *env = getenv("TMPDIR");
    if (env && *env)
        return env;
    struct stat st;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0)
        return "/dev/shm";
    return "/tmp";
}

/* Empty a directory, leaving it; false if something stayed. */
static bool empty_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    bool ok = true;
    struct strbuf sub = STRBUF_INIT;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        strbuf_reset(&sub);
        strbuf_addf(&sub, "%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(sub.data, &st) == 0 && S_ISDIR(st.st_mode))
            ok = runner_remove_tree(sub.data) && ok;
        else if (unlink(sub.data) != 0 && errno != ENOENT)
            ok = false;
    }
    closedir(d);
    strbuf_free(&sub);
    return ok;
}

/* Make DIR/NAME a directory of mode 0700 with nothing in it (it is one
 * already, unless the program changed it). */
static bool fresh_subdir(struct strbuf *path, const char *dir, const char *name)
{
    strbuf_reset(path);
    strbuf_addf(path, "%s/%s", dir, name);
    struct stat st;
    if (lstat(path->data, &st) == 0) {
        if (S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700)
            return empty_dir(path->data);
        if (S_ISDIR(st.st_mode) ? !runner_remove_tree(path->data) : unlink(path->data) != 0)
            return false;
    }
    return mkdir(path->data, 0700) == 0;
}

/* Put a directory back in the state of a new one: cwd/ and in/ empty and
 * nothing else (a collector's files, whatever the program made). */
/* Is PATH a directory of mode 0700 whose size is `size` and that holds no
 * directory of its own (tmpfs: a size that counts entries)? */
static bool dir_as_made(const char *path, off_t size, nlink_t links)
{
    struct stat st;
    return size && lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
           (st.st_mode & 07777) == 0700 && st.st_size == size && st.st_nlink == links;
}

static bool reset_dir(const struct run_pool *p, struct run_dir *d)
{
    if (d->input) {
        (void)unlink(d->input);
        free(d->input);
        d->input = NULL;
    }
    if (p->tmpfs) {
        /* Nothing left, nothing changed: three lstat instead of three
         * directory scans. */
        char sub[PATH_MAX];
        int n = snprintf(sub, sizeof sub, "%s/cwd", d->path);
        if (n > 0 && (size_t)n < sizeof sub && dir_as_made(d->path, p->made_size, 4) &&
            dir_as_made(sub, p->empty_size, 2)) {
            memcpy(sub + n - 3, "in", 3);
            if (dir_as_made(sub, p->empty_size, 2))
                return true;
        }
    }
    struct stat st;
    if (lstat(d->path, &st) != 0 || !S_ISDIR(st.st_mode) || (st.st_mode & 07777) != 0700)
        return false;
    DIR *top = opendir(d->path);
    if (!top)
        return false;
    bool ok = true;
    struct strbuf sub = STRBUF_INIT;
    struct dirent *e;
    while ((e = readdir(top)) != NULL) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "cwd") || !strcmp(n, "in"))
            continue;
        strbuf_reset(&sub);
        strbuf_addf(&sub, "%s/%s", d->path, n);
        if (lstat(sub.data, &st) == 0 && S_ISDIR(st.st_mode))
            ok = runner_remove_tree(sub.data) && ok;
        else if (unlink(sub.data) != 0 && errno != ENOENT)
            ok = false;
    }
    closedir(top);
    ok = ok && fresh_subdir(&sub, d->path, "cwd") && fresh_subdir(&sub, d->path, "in");
    strbuf_free(&sub);
    return ok;
}

static void dir_free(struct run_dir *d)
{
    free(d->path);
    free(d->input);
    free(d);
}

/* Remove the run directories of kpath processes that are gone: a base
 * whose lock nobody holds.  (One being made has no "lock" yet: it is
 * renamed into place locked.) */
static void remove_stale(const char *parent)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    struct strbuf path = STRBUF_INIT;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "kpath-run-", 10) != 0)
            continue;
        strbuf_reset(&path);
        strbuf_addf(&path, "%s/%s/lock", parent, e->d_name);
        int fd = open(path.data, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            strbuf_reset(&path);
            strbuf_addf(&path, "%s/%s", parent, e->d_name);
            runner_remove_tree(path.data);
        }
        close(fd);
    }
    closedir(d);
    strbuf_free(&path);
}

static struct run_pool *pool_new(void)
{
    struct run_pool *p = xcalloc(1, sizeof *p);
    p->refs = 1;
    p->lock_fd = -1;
    return p;
}

/* Make the pool's base directory, locked, once. */
static bool pool_open(struct run_pool *p, const struct runner_options *o, struct diag_list *diags)
{
    if (p->base)
        return true;
    const char *parent = runner_dir_parent(o->tmp_parent);
    remove_stale(parent);
    struct strbuf path = STRBUF_INIT, lock = STRBUF_INIT;
    strbuf_addf(&path, "%s/kpath-run-%ld-XXXXXX", parent, (long)getpid());
    if (!mkdtemp(path.data)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot make a run directory in %s: %s", parent,
                 strerror(errno));
        strbuf_free(&path);
        return false;
    }
    strbuf_addf(&lock, "%s/lock.new", path.data);
    int fd = open(lock.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && flock(fd, LOCK_EX) == 0;
    if (ok) {
        char *final = xstrdup(lock.data);
        final[strlen(final) - 4] = '\0'; /* ".../lock" */
        ok = rename(lock.data, final) == 0;
        free(final);
    }
    if (!ok) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot lock the run directory %s: %s", path.data,
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        runner_remove_tree(path.data);
        strbuf_free(&path);
        strbuf_free(&lock);
        return false;
    }
    strbuf_free(&lock);
    struct statfs fs;
    p->tmpfs = statfs(path.data, &fs) == 0 && fs.f_type == TMPFS_MAGIC;
    p->base = strbuf_detach(&path, NULL);
    p->lock_fd = fd;
    return true;
}

static struct run_dir *pool_take(struct run_pool *p, struct diag_list *diags)
{
    if (p->free) {
        struct run_dir *d = p->free;
        p->free = d->next;
        d->next = NULL;
        return d;
    }
    struct run_dir *d = xcalloc(1, sizeof *d);
    struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT;
    strbuf_addf(&path, "%s/%u", p->base, ++p->made);
    bool ok = mkdir(path.data, 0700) == 0;
    strbuf_addf(&sub, "%s/cwd", path.data);
    ok = ok && mkdir(sub.data, 0700) == 0;
    strbuf_reset(&sub);
    strbuf_addf(&sub, "%s/in", path.data);
    ok = ok && mkdir(sub.data, 0700) == 0;
    struct stat made, empty;
    if (ok && p->tmpfs && !p->made_size && lstat(path.data, &made) == 0 &&
        lstat(sub.data, &empty) == 0 && made.st_size > empty.st_size && empty.st_size > 0) {
        p->made_size = made.st_size;
        p->empty_size = empty.st_size;
    }
    strbuf_free(&sub);
    d->path = strbuf_detach(&path, NULL);
    if (!ok) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot make the run directory %s: %s", d->path,
                 strerror(errno));
        runner_remove_tree(d->path);
        dir_free(d);
        return NULL;
    }
    return d;
}

/* A directory back to the pool, emptied (or removed when it cannot be). */
static void pool_give(struct run_pool *p, struct run_dir *d)
{
    if (reset_dir(p, d)) {
        d->next = p->free;
        p->free = d;
    } else {
        runner_remove_tree(d->path);
        dir_free(d);
    }
}

static void pool_unref(struct run_pool *p)
{
    if (--p->refs)
        return;
    while (p->free) {
        struct run_dir *d = p->free;
        p->free = d->next;
        dir_free(d);
    }
    if (p->base)
        runner_remove_tree(p->base);
    if (p->lock_fd >= 0)
        close(p->lock_fd);
    free(p->base);
    free(p);
}

/* ---- the keeper and the subreaper --------------------------------------- */

/* Kill every process whose session is one of `sessions` (found in /proc):
 * what a run forked that left its process group but not its session. */
static void kill_sessions(const pid_t *sessions, size_t n)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    char path[300], buf[512];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (len <= 0)
            continue;
        buf[len] = '\0';
        const char *p = strrchr(buf, ')');
        long pid = atol(e->d_name), ppid = 0, pgrp = 0, sid = 0;
        char state;
        if (!p || sscanf(p + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &sid) != 4)
            continue;
        for (size_t i = 0; i < n; i++)
            if (sid == sessions[i])
                kill((pid_t)pid, SIGKILL);
    }
    closedir(d);
}

/* The keeper: a process forked once per runner that outlives kpath.  The
 * runs under way are listed in memory it shares with kpath (`live`, `cap`
 * slots: a pid, or 0), written by kpath as runs start and end, so that a
 * run costs the keeper nothing: it only waits for the end of its pipe,
 * which comes when kpath ends.  Runs still listed then mean that kpath died
 * without ending them (kill -9, the OOM killer, an unhandled signal): their
 * direct children die of PR_SET_PDEATHSIG, and the keeper kills their
 * process groups and sessions and removes the run directories, then
 * exits. */
static void keeper_main(int fd, const volatile int32_t *live, size_t cap, const char *base)
{
    static const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1,
                                  SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        signal(ignored[i], SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    (void)prctl(PR_SET_NAME, "kpath-keeper", 0, 0, 0);
    /* Hold nothing of kpath's: not its terminal, not its output pipes (a
     * reader would wait for the keeper), not the pool's lock. */
    if (dup2(fd, 0) < 0)
        _exit(1);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
    }
    if (close_range(3, ~0U, 0) != 0)
        for (int i = 3; i < 4096; i++)
            close(i);
    /* kpath never writes: the read returns at the pipe's end. */
    for (;;) {
        char byte;
        ssize_t k = read(0, &byte, 1);
        if (k <= 0 && !(k < 0 && errno == EINTR))
            break;
    }
    size_t n = 0;
    pid_t *ended = calloc(cap ? cap : 1, sizeof *ended);
    for (size_t i = 0; ended && i < cap; i++)
        if (live[i] > 0)
            ended[n++] = live[i];
    for (size_t i = 0; i < n; i++) {
        kill(-ended[i], SIGKILL);
        kill(ended[i], SIGKILL);
    }
    if (n)
        kill_sessions(ended, n);
    if (base) {
        struct strbuf lock = STRBUF_INIT;
        strbuf_addf(&lock, "%s/lock", base);
        int lf = open(lock.data, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        /* Held: kpath lives on (a result still uses the directory). */
        if (lf >= 0 && flock(lf, LOCK_EX | LOCK_NB) == 0)
            runner_remove_tree(base);
        strbuf_free(&lock);
    }
    _exit(0);
}

static void keeper_start(struct runner *r)
{
    size_t cap = 2 * (size_t)r->opts.jobs; /* a run, or a server and its child, per slot */
    void *m = mmap(NULL, cap * sizeof(int32_t), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        munmap(m, cap * sizeof(int32_t));
        return;
    }
    pid_t pid = fork();
    if (pid == 0)
        keeper_main(p[0], m, cap, r->pool->base);
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        munmap(m, cap * sizeof(int32_t));
        return;
    }
    r->keeper = pid;
    r->keeper_fd = p[1];
    r->keeper_live = m;
    r->keeper_cap = cap;
}

/* A run started (pid > 0) or ended (-pid): listed for the keeper, or no
 * longer.  A plain store to shared memory: no system call. */
static void keeper_tell(struct runner *r, int32_t v)
{
    if (!r->keeper_live)
        return;
    int32_t want = v > 0 ? 0 : -v, put = v > 0 ? v : 0;
    for (size_t i = 0; i < r->keeper_cap; i++)
        if (r->keeper_live[i] == want) {
            r->keeper_live[i] = put;
            return;
        }
}

static void keeper_stop(struct runner *r)
{
    if (r->keeper_fd >= 0)
        close(r->keeper_fd);
    r->keeper_fd = -1;
    if (r->keeper > 0)
        while (waitpid(r->keeper, NULL, 0) < 0 && errno == EINTR)
            ;
    r->keeper = 0;
    if (r->keeper_live)
        munmap((void *)r->keeper_live, r->keeper_cap * sizeof(int32_t));
    r->keeper_live = NULL;
}

static bool pid_in(const pid_t *v, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == pid)
            return true;
    return false;
}

/* As subreaper, kpath inherits what a run forked when its parent dies.  One
 * in the session of a run under way is that run's business; one killed with
 * its run's group is reaped; any other left its run's group (setsid, a
 * daemon): it is killed with its own group and counted. */
static void sweep(struct runner *r)
{
    if (!r->subreaper)
        return;
    char buf[4096];
    if (r->children_fd < 0) {
        /* Opened once: each pread from 0 lists the children of now. */
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)r->self);
        r->children_fd = open(path, O_RDONLY | O_CLOEXEC);
        if (r->children_fd < 0)
            return;
    }
    for (int round = 0; round < 64; round++) {
        ssize_t len = pread(r->children_fd, buf, sizeof buf - 1, 0);
        if (len <= 0)
            return;
        buf[len] = '\0';
        bool any = false;
        for (char *p = buf, *end; *p; p = end) {
            long kid = strtol(p, &end, 10);
            if (end == p)
                break;
            if (kid <= 0 || kid == r->keeper)
                continue;
            /* A run under way (with -j 1 too: the next run starts before
             * the last is recorded) needs no look at its /proc entry. */
            bool running = false;
            for (const struct runner *o = all_runners; o && !running; o = o->next_runner)
                for (uint32_t i = 0; i < o->opts.jobs && !running; i++)
                    running = (o->slots[i].active && !o->slots[i].reaped &&
                               o->slots[i].pid == kid) ||
                              (o->servers && o->servers[i].pid == kid);
            if (running)
                continue;
            bool active = false, active_session = false;
            char stat_path[64], st[512];
            snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", kid);
            int sfd = open(stat_path, O_RDONLY | O_CLOEXEC);
            if (sfd < 0)
                continue;
            ssize_t sl = read(sfd, st, sizeof st - 1);
            close(sfd);
            if (sl <= 0)
                continue;
            st[sl] = '\0';
            const char *q = strrchr(st, ')');
            long ppid, pgrp, sid;
            char state;
            if (!q || sscanf(q + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &sid) != 4)
                continue;
            if (sid == r->session)
                continue; /* a child of kpath's own, not of a run */
            bool contained = false;
            for (const struct runner *o = all_runners; o; o = o->next_runner) {
                for (uint32_t i = 0; i < o->opts.jobs; i++) {
                    const struct child *c = &o->slots[i];
                    if (c->active && c->pid == kid)
                        active = true;
                    if (c->active && !c->reaped && c->pid == sid)
                        active_session = true;
                    if (o->servers && o->servers[i].pid == kid)
                        active = true;
                    if (o->servers && o->servers[i].busy && o->servers[i].child == sid)
                        active_session = true;
                }
                size_t kept = o->nstarted < RUNNER_PIDS_KEPT ? o->nstarted : RUNNER_PIDS_KEPT;
                contained = contained || pid_in(o->started, kept, (pid_t)pgrp);
            }
            if (active || active_session)
                continue;
            kill((pid_t)kid, SIGKILL);
            if (pgrp > 1 && pgrp != getpgrp())
                kill(-(pid_t)pgrp, SIGKILL);
            while (waitpid((pid_t)kid, NULL, 0) < 0 && errno == EINTR)
                ;
            if (!contained)
                r->escaped++;
            any = true;
        }
        if (!any)
            return;
    }
}

size_t runner_escaped(const struct runner *r)
{
    return r->escaped;
}

static bool write_input(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (fd < 0)
        return false;
    const char *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return close(fd) == 0;
}

/* The input in memory, sealed: the program reads it on standard input and
 * can neither write nor resize it (not even by opening /proc/self/fd/0
 * again), and it needs no file, directory entry or removal.  -1 when memfd
 * or seals are not there (then the input is a file in in/). */
static int sealed_input(const void *data, size_t len)
{
    int fd = memfd_create("kpath-input", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    /* pwrite: the offset stays at 0, where the program starts reading. */
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t n = pwrite(fd, p + done, len - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* "NAME=VALUE" with every "{run}" replaced by the run directory. */
static char *expand_run(const char *text, const char *dir)
{
    struct strbuf out = STRBUF_INIT;
    const char *p = text, *hit;
    while ((hit = strstr(p, "{run}")) != NULL) {
        strbuf_add(&out, p, (size_t)(hit - p));
        strbuf_addstr(&out, dir);
        p = hit + 5;
    }
    strbuf_addstr(&out, p);
    return strbuf_detach(&out, NULL);
}

/* The environment of a run: kpath's, with the job's entries replacing those
 * of the same name. */
static char **build_env(char *const *extra, const char *dir)
{
    size_t nextra = 0, nenv = 0;
    while (extra && extra[nextra])
        nextra++;
    while (environ[nenv])
        nenv++;
    char **env = xcalloc(nenv + nextra + 1, sizeof *env);
    size_t n = 0;
    for (size_t i = 0; i < nenv; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t name_len = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        bool replaced = false;
        for (size_t j = 0; j < nextra && !replaced; j++)
            replaced = strncmp(extra[j], environ[i], name_len) == 0 && extra[j][name_len] == '=';
        if (!replaced)
            env[n++] = xstrdup(environ[i]);
    }
    for (size_t j = 0; j < nextra; j++)
        env[n++] = expand_run(extra[j], dir);
    env[n] = NULL;
    return env;
}

static void free_strv(char **v)
{
    if (!v)
        return;
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

static void set_limit(int resource, uint64_t value)
{
    struct rlimit rl = {.rlim_cur = (rlim_t)value, .rlim_max = (rlim_t)value};
    (void)setrlimit(resource, &rl);
}

static void close_other_fds(int keep)
{
    if (keep < 0) {
        if (close_range(3, ~0U, 0) == 0)
            return;
        for (int fd = 3; fd < 4096; fd++)
            close(fd);
        return;
    }
    if (close_range(3, (unsigned)keep - 1, 0) == 0 && close_range((unsigned)keep + 1, ~0U, 0) == 0)
        return;
    for (int fd = 3; fd < 4096; fd++)
        if (fd != keep)
            close(fd);
}

/* ---- starting a child ----------------------------------------------------- */

/* Why a child could not start: written by the child into the parent's
 * memory (`fail`: the child is vforked and shares it until exec, so the
 * parent knows when vfork returns), or to a status pipe (a harness's
 * server); formatted by the parent (the child must not allocate). */
struct start_failure {
    int err;
    char stage[200];
};

static _Noreturn void child_fail(int status_fd, struct start_failure *fail, const char *stage)
{
    struct start_failure f;
    memset(&f, 0, sizeof f);
    f.err = errno;
    for (size_t i = 0; stage[i] && i < sizeof f.stage - 1; i++)
        f.stage[i] = stage[i];
    if (fail)
        memcpy(fail, &f, sizeof f);
    else
        (void)!write(status_fd, &f, sizeof f);
    _exit(127);
}

/* The signals whose disposition is not the default (caught or ignored),
 * from /proc/self/status in one read rather than a sigaction per signal;
 * every signal when it cannot be read. */
static void handled_signals(struct runner *r, sigset_t *out)
{
    sigemptyset(out);
    char buf[4096];
    if (r->status_fd < 0) /* opened once, read from 0 each time */
        r->status_fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    ssize_t len = r->status_fd >= 0 ? pread(r->status_fd, buf, sizeof buf - 1, 0) : -1;
    int found = 0;
    if (len > 0) {
        buf[len] = '\0';
        static const char *const keys[] = {"\nSigIgn:", "\nSigCgt:"};
        for (int k = 0; k < 2; k++) {
            const char *at = strstr(buf, keys[k]);
            if (!at)
                continue;
            char *end;
            unsigned long long mask = strtoull(at + 9, &end, 16);
            if (end == at + 9)
                continue;
            found++;
            for (int sig = 1; sig < 32; sig++)
                if (mask >> (sig - 1) & 1)
                    sigaddset(out, sig);
        }
    }
    if (found < 2)
        for (int sig = 1; sig < 32; sig++)
            sigaddset(out, sig);
}

/* The child, between vfork and exec: only system calls, nothing that
 * allocates or touches the parent's state. */
static _Noreturn void run_child(const struct runner_options *o, char **argv, char **env,
                                const char *cwd, const char *stdin_path, int stdin_fd,
                                int out_w, int err_w, int status_w, struct start_failure *fail,
                                const sigset_t *handled, pid_t parent, const int *extra,
                                int nextra)
{
    /* Die with kpath: PR_SET_PDEATHSIG fires when the thread that forked
     * this child ends, and kpath forks runs from its main thread only. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent)
        child_fail(status_w, fail, "kpath ended");
    /* Its own session: a new process group (killed as a whole at the end)
     * and no controlling terminal. */
    if (setsid() < 0)
        child_fail(status_w, fail, "setsid");
    /* kpath's handlers (and what it ignores) are not the program's. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < 32; sig++)
        if (sig != SIGKILL && sig != SIGSTOP && sigismember(handled, sig) == 1)
            sigaction(sig, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (chdir(cwd) != 0)
        child_fail(status_w, fail, "cannot enter the run directory");
    int in = stdin_fd >= 0 ? stdin_fd : open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    if (in < 0)
        child_fail(status_w, fail, "cannot open the input");
    if (dup2(in, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        child_fail(status_w, fail, "dup2");
    if (in > 2)
        close(in);
    if (o->max_memory) {
        set_limit(RLIMIT_AS, o->max_memory);
        set_limit(RLIMIT_FSIZE, o->max_memory);
    }
    set_limit(RLIMIT_CORE, 0);
    if (nextra) {
        /* A harness's fork server: its descriptors at 3, 4, ... (moved out
         * of the way first, so that none overwrites another). */
        int high[8];
        for (int i = 0; i < nextra && i < 8; i++)
            if ((high[i] = fcntl(extra[i], F_DUPFD, 64)) < 0)
                child_fail(status_w, fail, "dup");
        if ((status_w = fcntl(status_w, F_DUPFD_CLOEXEC, 64)) < 0)
            child_fail(status_w, fail, "dup");
        for (int i = 0; i < nextra && i < 8; i++)
            if (dup2(high[i], 3 + i) < 0)
                child_fail(status_w, fail, "dup2");
        if (close_range((unsigned)(3 + nextra), (unsigned)status_w - 1, 0) != 0)
            for (int fd = 3 + nextra; fd < status_w; fd++)
                close(fd);
        if (close_range((unsigned)status_w + 1, ~0U, 0) != 0)
            for (int fd = status_w + 1; fd < 4096; fd++)
                close(fd);
    } else {
        close_other_fds(status_w);
    }
    execvpe(argv[0], argv, env);
    child_fail(status_w, fail, argv[0]);
}

static void capture_init(struct capture *c, int fd, struct strbuf *kept, size_t keep_max)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    sha256_init(&c->hash);
    c->kept = kept;
    c->keep_max = keep_max;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    long fd = syscall(SYS_pidfd_open, pid, 0); /* close-on-exec already */
    if (fd >= 0)
        return (int)fd;
#else
    (void)pid;
#endif
    return -1;
}

/* vfork: the child borrows kpath's memory until exec, so starting a run
 * costs the same whatever kpath's size (fork would copy its page tables).
 * Signals stay blocked until the child has reset kpath's handlers. */
static pid_t start_child(struct runner *r, char **argv, char **env, const char *cwd,
                         const char *stdin_path, int stdin_fd, int out_w, int err_w, int status_w,
                         struct start_failure *fail, const int *extra, int nextra)
{
    sigset_t all, old, handled;
    handled_signals(r, &handled);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    if (fail)
        memset(fail, 0, sizeof *fail);
    pid_t pid = vfork();
    if (pid == 0)
        run_child(&r->opts, argv, env, cwd, stdin_path, stdin_fd, out_w, err_w, status_w, fail,
                  &handled,
                  r->self, extra, nextra);
    int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return pid;
}

/* ---- a harness's fork server ------------------------------------------------ */

static void capture_reset(struct capture *c)
{
    sha256_init(&c->hash);
    c->size = 0;
    strbuf_reset(&c->first);
    c->first_done = false;
}

static void capture_read(struct capture *c);
static void capture_discard(struct capture *c)
{
    capture_read(c);
    capture_reset(c);
}

static void server_close(struct runner *r, struct server *s)
{
    /* The child has its own session: its group goes first (in process it
     * outlives its runs). */
    if (s->child > 0) {
        kill(-s->child, SIGKILL);
        kill(s->child, SIGKILL);
        keeper_tell(r, -(int32_t)s->child);
        s->child = 0;
    }
    if (s->pid > 0) {
        kill(-s->pid, SIGKILL);
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        keeper_tell(r, -(int32_t)s->pid);
    }
    int *fds[] = {&s->pidfd, &s->req_w, &s->msg_r, &s->input_fd, &s->shm_fd, &s->out.fd,
                  &s->err.fd};
    for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    if (s->shm)
        munmap((void *)s->shm, s->shm_size);
    s->shm = NULL;
    strbuf_free(&s->out.first);
    strbuf_free(&s->err.first);
    if (s->dir)
        pool_give(r->pool, s->dir);
    s->dir = NULL;
    free(s->cwd);
    s->cwd = NULL;
    s->pid = 0;
    s->msg_len = 0;
}

/* Read the messages that are there; false at the end of the pipe (the
 * server is gone). */
static bool server_read(struct runner *r, struct server *s)
{
    for (;;) {
        ssize_t n = read(s->msg_r, s->msg + s->msg_len, sizeof s->msg - s->msg_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n <= 0)
            return false;
        s->msg_len += (size_t)n;
        if (s->msg_len < sizeof s->msg)
            continue;
        s->msg_len = 0;
        struct harness_msg m;
        memcpy(&m, s->msg, sizeof m);
        if (m.kind == HARNESS_HELLO && !s->shm) {
            struct stat st;
            if (fstat(s->shm_fd, &st) == 0 && (uint64_t)st.st_size == m.b && m.b) {
                void *p = mmap(NULL, (size_t)m.b, PROT_READ, MAP_SHARED, s->shm_fd, 0);
                if (p != MAP_FAILED) {
                    s->shm = p;
                    s->shm_size = (size_t)m.b;
                }
            }
            if (!s->shm)
                return false;
        } else if (m.kind == HARNESS_STARTED) {
            /* A child took request m.seq (the server ends one before it
             * forks the next: the last one is gone). */
            s->child = (pid_t)m.a;
            s->child_cpu_us = 0;
            keeper_tell(r, (int32_t)s->child);
            r->started[r->nstarted++ % RUNNER_PIDS_KEPT] = s->child;
            if (s->timed_out && s->busy && !s->ended && m.seq == s->sent) {
                kill(-s->child, SIGKILL);
                kill(s->child, SIGKILL);
            }
        } else if (m.kind == HARNESS_DONE) {
            /* In process: the child is done with request m.seq and stays. */
            if (s->busy && !s->ended && m.seq == s->sent) {
                s->wstatus = 0;
                s->cpu_us = m.b >= s->child_cpu_us ? m.b - s->child_cpu_us : 0;
                s->max_rss_kb = m.c;
                s->ended = true;
            }
            s->child_cpu_us = m.b;
        } else if (m.kind == HARNESS_ENDED) {
            /* The child is gone.  Its end is the run's when it had taken
             * the run's request and not said it was done with it (in
             * process a child also ends between runs: after its last
             * input, or killed while it waited). */
            if (s->child)
                keeper_tell(r, -(int32_t)s->child);
            s->child = 0;
            if (s->busy && !s->ended && m.seq == s->sent) {
                s->wstatus = (int)m.a;
                s->cpu_us = m.b >= s->child_cpu_us ? m.b - s->child_cpu_us : 0;
                s->max_rss_kb = m.c;
                s->ended = true;
            }
            s->child_cpu_us = 0;
        } else if (m.kind == HARNESS_FAILED) {
            free(s->error);
            s->error = xstrdup(m.b == 4 ? "the fork server cannot fork"
                               : m.b == 2 ? "the harness cannot be loaded"
                                          : "the fork server cannot start");
            if (s->busy)
                s->ended = true;
        }
    }
}

/* Start a slot's server and wait for its table of guards. */
static bool server_start(struct runner *r, struct server *s, struct diag_list *diags)
{
    const struct runner_harness *h = r->opts.harness;
    if (!pool_open(r->pool, &r->opts, diags) || !(s->dir = pool_take(r->pool, diags)))
        return false;
    if (r->keeper == 0 && r->keeper_fd < 0)
        keeper_start(r);
    struct strbuf cwd = STRBUF_INIT;
    strbuf_addf(&cwd, "%s/cwd", s->dir->path);
    s->cwd = strbuf_detach(&cwd, NULL);
    int req[2] = {-1, -1}, msg[2] = {-1, -1}, out_p[2] = {-1, -1}, err_p[2] = {-1, -1},
        status_p[2] = {-1, -1};
    s->input_fd = memfd_create("kpath-harness-input", MFD_CLOEXEC);
    s->shm_fd = memfd_create("kpath-harness-guards", MFD_CLOEXEC);
    bool ok = s->input_fd >= 0 && s->shm_fd >= 0 && pipe2(req, O_CLOEXEC) == 0 &&
              pipe2(msg, O_CLOEXEC) == 0 && pipe2(out_p, O_CLOEXEC) == 0 &&
              pipe2(err_p, O_CLOEXEC) == 0 && pipe2(status_p, O_CLOEXEC) == 0;
    pid_t pid = -1;
    if (ok) {
        size_t argc = 0;
        while (h->argv[argc])
            argc++;
        char **argv = xcalloc(argc + 1, sizeof *argv);
        for (size_t i = 0; i < argc; i++)
            argv[i] = xstrdup(h->argv[i]);
        char resident[64];
        snprintf(resident, sizeof resident, "%s=%u", HARNESS_ENV_IN_PROCESS,
                 h->in_process_runs);
        char *env_extra[] = {resident, NULL};
        char **env = build_env(h->in_process_runs ? env_extra : NULL, s->dir->path);
        int extra[4] = {req[0], msg[1], s->input_fd, s->shm_fd};
        pid = start_child(r, argv, env, s->cwd, NULL, -1, out_p[1], err_p[1], status_p[1], NULL,
                          extra, 4);
        free_strv(argv);
        free_strv(env);
    }
    int fork_errno = errno;
    int to_close[] = {req[0], msg[1], out_p[1], err_p[1], status_p[1]};
    for (size_t i = 0; i < sizeof to_close / sizeof *to_close; i++)
        if (to_close[i] >= 0)
            close(to_close[i]);
    s->req_w = req[1];
    s->msg_r = msg[0];
    s->sent = 0;
    s->child = 0;
    s->child_cpu_us = 0;
    capture_init(&s->out, out_p[0], NULL, 0);
    capture_init(&s->err, err_p[0], NULL, 0);
    s->pidfd = -1;
    if (!ok || pid < 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot start the harness's fork server: %s",
                 strerror(fork_errno));
        if (status_p[0] >= 0)
            close(status_p[0]);
        server_close(r, s);
        return false;
    }
    s->pid = pid;
    keeper_tell(r, (int32_t)pid);
    r->started[r->nstarted++ % RUNNER_PIDS_KEPT] = pid;
    s->pidfd = open_pidfd(pid);
    fcntl(s->msg_r, F_SETFL, O_NONBLOCK);
    fcntl(s->out.fd, F_SETFL, O_NONBLOCK);
    fcntl(s->err.fd, F_SETFL, O_NONBLOCK);
    /* Its initialization (LLVMFuzzerInitialize) gets the runs' timeout, or 60 s. */
    double deadline = now_seconds() + (r->opts.timeout_ms ? (double)r->opts.timeout_ms / 1000.0 : 60);
    bool alive = true;
    while (alive && !s->shm && !s->error && now_seconds() < deadline) {
        struct pollfd fds[3] = {{.fd = s->msg_r, .events = POLLIN},
                                {.fd = s->out.fd, .events = POLLIN},
                                {.fd = s->err.fd, .events = POLLIN}};
        int n = poll(fds, s->out.fd >= 0 && s->err.fd >= 0 ? 3 : 1, 50);
        if (n < 0 && errno != EINTR)
            break;
        capture_read(&s->out);
        capture_read(&s->err);
        alive = server_read(r, s);
    }
    struct start_failure why;
    ssize_t got = read(status_p[0], &why, sizeof why);
    close(status_p[0]);
    if (!s->shm) {
        struct strbuf msgt = STRBUF_INIT;
        if (got == (ssize_t)sizeof why) {
            why.stage[sizeof why.stage - 1] = '\0';
            strbuf_addf(&msgt, "%s: %s", why.stage, strerror(why.err));
        } else {
            strbuf_addstr(&msgt, s->error ? s->error
                                 : alive  ? "it published no table of guards in time"
                                          : "it ended before it published its table of guards");
        }
        if (s->err.first.len)
            strbuf_addf(&msgt, "; stderr: %.*s", (int)s->err.first.len, s->err.first.data);
        diag_add(diags, DIAG_ERROR, h->argv[h->argv[1] ? 1 : 0], 0, 0,
                 "the harness's fork server did not start: %s", msgt.data);
        strbuf_free(&msgt);
        free(s->error);
        s->error = NULL;
        server_close(r, s);
        return false;
    }
    if (!r->guard_names) {
        if (!harness_names(s->shm, s->shm_size, h->argv[0], h->edges, &r->guard_names,
                           &r->nguards, diags)) {
            server_close(r, s);
            return false;
        }
        r->seen = xcalloc((size_t)r->nguards + 1, sizeof *r->seen);
    } else {
        struct harness_shm hs;
        memcpy(&hs, s->shm, sizeof hs);
        if (hs.nguards != r->nguards) {
            diag_add(diags, DIAG_ERROR, h->argv[0], 0, 0,
                     "the harness's fork servers disagree on its guards (%u, %u)", hs.nguards,
                     r->nguards);
            server_close(r, s);
            return false;
        }
    }
    return true;
}

static bool write_all_at(int fd, const void *data, size_t len, off_t at)
{
    const char *p = data;
    while (len) {
        ssize_t n = pwrite(fd, p, len, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
        at += n;
    }
    return true;
}

static bool harness_start(struct runner *r, const struct runner_job *job, struct diag_list *diags)
{
    double t0 = now_seconds();
    struct server *s = NULL;
    for (uint32_t i = 0; i < r->opts.jobs && !s; i++)
        if (!r->servers[i].busy)
            s = &r->servers[i];
    if (!s || r->running >= r->opts.jobs) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no free slot for a run");
        return false;
    }
    if (!s->pid && !server_start(r, s, diags))
        return false;
    const struct runner_harness *h = r->opts.harness;
    size_t len = h->prefix_len + job->input_len + h->suffix_len;
    /* What an escaped process wrote since the last run is not this run's. */
    capture_discard(&s->out);
    capture_discard(&s->err);
    uint32_t len32 = (uint32_t)len;
    bool ok = len <= UINT32_MAX && write_all_at(s->input_fd, h->prefix, h->prefix_len, 0) &&
              write_all_at(s->input_fd, job->input, job->input_len, (off_t)h->prefix_len) &&
              write_all_at(s->input_fd, h->suffix, h->suffix_len,
                           (off_t)(h->prefix_len + job->input_len));
    free(s->error);
    s->error = NULL;
    s->busy = true;
    s->ended = s->timed_out = false;
    s->wstatus = 0;
    s->cpu_us = s->max_rss_kb = 0;
    s->user = job->user;
    r->running++;
    if (!ok || write(s->req_w, &len32, sizeof len32) != (ssize_t)sizeof len32) {
        /* The server is gone: this run cannot be done; the next starts a new one. */
        s->error = xstrdup(ok ? "the fork server ended" : "cannot pass the input");
        s->ended = true;
    } else {
        s->sent++;
    }
    s->started = now_seconds();
    s->prepare_ms = (s->started - t0) * 1000.0;
    s->deadline = r->opts.timeout_ms ? s->started + (double)r->opts.timeout_ms / 1000.0 : 0;
    return true;
}

static void finish_stream(struct capture *c, struct run_stream *s);

static struct runner_result *harness_finish(struct runner *r, struct server *s)
{
    /* What it wrote is in the pipes: its group is dead (the server killed it). */
    capture_read(&s->out);
    capture_read(&s->err);
    struct runner_result *res = xcalloc(1, sizeof *res);
    res->user = s->user;
    res->dir = xstrdup(s->dir ? s->dir->path : "");
    res->start_ms = s->prepare_ms;
    res->wall_ms = (now_seconds() - s->started) * 1000.0;
    res->cpu_ms = (double)s->cpu_us / 1000.0;
    res->max_rss_kb = s->max_rss_kb;
    if (s->error) {
        res->end = RUNNER_START_FAILED;
        res->error = s->error;
        s->error = NULL;
    } else if (s->timed_out) {
        res->end = RUNNER_TIMEOUT;
    } else if (WIFSIGNALED(s->wstatus)) {
        res->end = RUNNER_SIGNALED;
        res->code = WTERMSIG(s->wstatus);
    } else {
        res->end = RUNNER_EXITED;
        res->code = WEXITSTATUS(s->wstatus);
    }
    finish_stream(&s->out, &res->out);
    finish_stream(&s->err, &res->err);
    capture_reset(&s->out);
    capture_reset(&s->err);
    /* The guards it reached, each once, whatever the program did to the list. */
    if (s->shm && res->end != RUNNER_START_FAILED) {
        struct harness_shm hs;
        memcpy(&hs, s->shm, sizeof hs);
        uint32_t n = hs.count < r->nguards ? hs.count : r->nguards;
        const uint32_t *list = (const uint32_t *)((const char *)s->shm + sizeof hs);
        if (++r->runs == 0) {
            memset(r->seen, 0, ((size_t)r->nguards + 1) * sizeof *r->seen);
            r->runs = 1;
        }
        res->features = xcalloc((size_t)n + 1, sizeof *res->features);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = list[i];
            if (g == 0 || g > r->nguards || !r->guard_names[g] || r->seen[g] == r->runs)
                continue;
            r->seen[g] = r->runs;
            res->features[res->nfeatures++] = xstrdup(r->guard_names[g]);
        }
    }
    /* A forked child is gone once its end is known; in process it stays. */
    if (s->child && !r->opts.harness->in_process_runs) {
        keeper_tell(r, -(int32_t)s->child);
        s->child = 0;
    }
    s->busy = false;
    r->running--;
    /* A fresh working directory for the next run (checked: usually empty). */
    if (s->pid && s->cwd && !empty_dir(s->cwd))
        server_close(r, s);
    sweep(r);
    return res;
}

/* One busy server's share of runner_poll: a finished run, or NULL after
 * adding what to wait for to fds and lowering *wait. */
static struct runner_result *harness_poll(struct runner *r, struct server *s, double t,
                                          struct pollfd *fds, size_t *nfds, int *wait)
{
    if (!s->ended && s->pid) {
        capture_read(&s->out);
        capture_read(&s->err);
        if (!server_read(r, s)) {
            /* The server died: so did its run (PR_SET_PDEATHSIG). */
            if (!s->ended && !s->timed_out)
                s->error = xstrdup("the fork server ended");
            s->ended = true;
            server_close(r, s);
        }
    }
    if (s->ended)
        return harness_finish(r, s);
    if (s->deadline && t >= s->deadline && !s->timed_out) {
        s->timed_out = true;
        if (s->child) {
            kill(-s->child, SIGKILL);
            kill(s->child, SIGKILL);
        }
    }
    fds[(*nfds)++] = (struct pollfd){.fd = s->msg_r, .events = POLLIN};
    if (s->out.fd >= 0)
        fds[(*nfds)++] = (struct pollfd){.fd = s->out.fd, .events = POLLIN};
    if (s->err.fd >= 0)
        fds[(*nfds)++] = (struct pollfd){.fd = s->err.fd, .events = POLLIN};
    int cap = 1000;
    if (s->timed_out)
        cap = 5;
    else if (s->deadline) {
        double left = (s->deadline - t) * 1000.0;
        if (left < cap)
            cap = left < 0 ? 0 : (int)left + 1;
    }
    if (cap < *wait)
        *wait = cap;
    return NULL;
}

bool runner_start(struct runner *r, const struct runner_job *job, struct diag_list *diags)
{
    if (r->servers && !job->in_dir)
        return harness_start(r, job, diags);
    double t0 = now_seconds();
    struct child *c = NULL;
    for (uint32_t i = 0; i < r->opts.jobs && !c; i++)
        if (!r->slots[i].active)
            c = &r->slots[i];
    if (!c) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no free slot for a run");
        return false;
    }
    struct run_dir *rd = NULL;
    if (!job->in_dir) {
        if (!pool_open(r->pool, &r->opts, diags) || !(rd = pool_take(r->pool, diags)))
            return false;
        if (r->keeper == 0 && r->keeper_fd < 0)
            keeper_start(r);
    }
    const char *dir = rd ? rd->path : job->in_dir;
    struct strbuf cwd = STRBUF_INIT, input = STRBUF_INIT;
    strbuf_addf(&cwd, "%s/cwd", dir);
    bool ok = true;
    /* A file in in/ only where the program or a collector's helper names
     * it ({}, input_file) or in an existing directory; else the input goes
     * sealed in memory (sealed_input). */
    bool braces = false;
    for (size_t i = 0; job->argv[i] && !braces; i++)
        braces = strcmp(job->argv[i], "{}") == 0;
    int stdin_fd = -1;
    if (job->input_name && rd && !braces && !job->input_file)
        stdin_fd = sealed_input(job->input, job->input_len);
    if (job->input_name && stdin_fd < 0) {
        const char *name = job->input_name;
        if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
            name = "input";
        strbuf_addf(&input, "%s/in", dir);
        if (!rd)
            ok = mkdir(input.data, 0700) == 0 || errno == EEXIST;
        strbuf_addf(&input, "/%s", name);
        ok = ok && (write_input(input.data, job->input, job->input_len) ||
                    (!rd && errno == EEXIST));
        if (rd && ok)
            rd->input = xstrdup(input.data);
    }
    int out_p[2] = {-1, -1}, err_p[2] = {-1, -1};
    if (ok)
        ok = pipe2(out_p, O_CLOEXEC) == 0 && pipe2(err_p, O_CLOEXEC) == 0;
    if (!ok) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot prepare the run directory %s: %s", dir,
                 strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (out_p[i] >= 0) close(out_p[i]);
            if (err_p[i] >= 0) close(err_p[i]);
        }
        if (stdin_fd >= 0)
            close(stdin_fd);
        if (rd)
            pool_give(r->pool, rd);
        strbuf_free(&cwd);
        strbuf_free(&input);
        return false;
    }
    size_t argc = 0;
    while (job->argv[argc])
        argc++;
    char **argv = xcalloc(argc + 1, sizeof *argv);
    for (size_t i = 0; i < argc; i++)
        argv[i] = xstrdup(job->input_name && strcmp(job->argv[i], "{}") == 0 ? input.data
                                                                              : job->argv[i]);
    /* The child runs in its own directory: a relative command path means
     * kpath's working directory. */
    if (argc && strchr(argv[0], '/') && argv[0][0] != '/') {
        char here[PATH_MAX];
        if (getcwd(here, sizeof here)) {
            struct strbuf abs = STRBUF_INIT;
            strbuf_addf(&abs, "%s/%s", here, argv[0]);
            free(argv[0]);
            argv[0] = strbuf_detach(&abs, NULL);
        }
    }
    char **env = build_env(job->env, dir);
    /* The child's stdout/stderr ends are dup2'd over 1 and 2 (dup2 clears
     * close-on-exec); why it could not start, if so, is in `fail`. */
    struct start_failure fail;
    pid_t pid = start_child(r, argv, env, cwd.data,
                            job->input_name && stdin_fd < 0 ? input.data : NULL, stdin_fd,
                            out_p[1], err_p[1], -1, &fail, NULL, 0);
    int fork_errno = errno;
    if (stdin_fd >= 0)
        close(stdin_fd);
    free_strv(argv);
    free_strv(env);
    strbuf_free(&cwd);
    strbuf_free(&input);
    close(out_p[1]);
    close(err_p[1]);
    if (pid < 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot fork: %s", strerror(fork_errno));
        close(out_p[0]);
        close(err_p[0]);
        if (rd)
            pool_give(r->pool, rd);
        return false;
    }
    keeper_tell(r, (int32_t)pid);
    r->started[r->nstarted++ % RUNNER_PIDS_KEPT] = pid;
    memset(c, 0, sizeof *c);
    c->active = true;
    c->pid = pid;
    c->pidfd = open_pidfd(pid);
    fcntl(out_p[0], F_SETFL, O_NONBLOCK);
    fcntl(err_p[0], F_SETFL, O_NONBLOCK);
    capture_init(&c->out, out_p[0], job->keep_stdout ? &c->kept : NULL, job->keep_stdout);
    capture_init(&c->err, err_p[0], NULL, 0);
    if (fail.stage[0]) {
        fail.stage[sizeof fail.stage - 1] = '\0';
        struct strbuf msg = STRBUF_INIT;
        strbuf_addf(&msg, "%s: %s", fail.stage, strerror(fail.err));
        c->start_error = strbuf_detach(&msg, NULL);
    }
    c->started = now_seconds();
    c->prepare_ms = (c->started - t0) * 1000.0;
    c->deadline = r->opts.timeout_ms ? c->started + (double)r->opts.timeout_ms / 1000.0 : 0;
    c->dir = rd;
    c->in_dir = rd ? NULL : xstrdup(job->in_dir);
    c->user = job->user;
    r->running++;
    return true;
}

static void capture_data(struct capture *c, const char *buf, size_t n)
{
    sha256_update(&c->hash, buf, n);
    c->size += n;
    for (size_t i = 0; i < n && !c->first_done; i++) {
        if (buf[i] == '\n' || c->first.len >= RUNNER_FIRST_LINE_MAX)
            c->first_done = true;
        else
            strbuf_addch(&c->first, buf[i]);
    }
    if (c->kept) {
        size_t room = c->keep_max - c->kept->len;
        strbuf_add(c->kept, buf, n < room ? n : room);
        c->cut = c->cut || n > room;
    }
}

/* Read what is there without blocking; close at end of file. */
static void capture_read(struct capture *c)
{
    char buf[65536];
    while (c->fd >= 0) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n > 0) {
            capture_data(c, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        close(c->fd);
        c->fd = -1;
    }
}

static void kill_group(const struct child *c)
{
    /* The group, and the child itself in case it has not reached setsid. */
    kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
}

static void try_reap(struct runner *r, struct child *c)
{
    if (c->reaped)
        return;
    pid_t got = wait4(c->pid, &c->wstatus, WNOHANG, &c->ru);
    if (got < 0 && errno == ECHILD) {
        /* Reaped behind the runner's back (a waitpid(-1) elsewhere): it
         * ended, how is unknown; say SIGKILL rather than wait forever. */
        c->wstatus = SIGKILL;
        memset(&c->ru, 0, sizeof c->ru);
        got = c->pid;
    }
    if (got == c->pid) {
        c->reaped = true;
        keeper_tell(r, -(int32_t)c->pid);
        /* Whatever it forked dies with it; what they wrote is in the pipes. */
        kill(-c->pid, SIGKILL);
        capture_read(&c->out);
        capture_read(&c->err);
        /* A descendant that left the group may hold the pipes open: do not
         * wait for it. */
        if (c->out.fd >= 0) {
            close(c->out.fd);
            c->out.fd = -1;
        }
        if (c->err.fd >= 0) {
            close(c->err.fd);
            c->err.fd = -1;
        }
    }
}

static void finish_stream(struct capture *c, struct run_stream *s)
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_final(&c->hash, digest);
    sha256_to_hex(digest, s->sha256);
    s->size = c->size;
    s->first_line = strbuf_detach(&c->first, NULL);
    if (!s->first_line)
        s->first_line = xstrdup("");
}

static struct runner_result *finish(struct runner *r, struct child *c)
{
    struct runner_result *res = xcalloc(1, sizeof *res);
    res->user = c->user;
    if (c->dir) {
        res->dir = xstrdup(c->dir->path);
        res->owns_dir = true;
        res->pool = r->pool;
        res->pooled = c->dir;
        r->pool->refs++;
    } else {
        res->dir = c->in_dir;
    }
    res->start_ms = c->prepare_ms;
    res->wall_ms = (now_seconds() - c->started) * 1000.0;
    res->cpu_ms = (double)(c->ru.ru_utime.tv_sec + c->ru.ru_stime.tv_sec) * 1000.0 +
                  (double)(c->ru.ru_utime.tv_usec + c->ru.ru_stime.tv_usec) / 1000.0;
    res->max_rss_kb = (uint64_t)c->ru.ru_maxrss;
    if (c->pidfd >= 0)
        close(c->pidfd);
    if (c->start_error) {
        res->end = RUNNER_START_FAILED;
        res->error = c->start_error;
    } else if (c->timed_out) {
        res->end = RUNNER_TIMEOUT;
    } else if (WIFSIGNALED(c->wstatus)) {
        res->end = RUNNER_SIGNALED;
        res->code = WTERMSIG(c->wstatus);
    } else {
        res->end = RUNNER_EXITED;
        res->code = WEXITSTATUS(c->wstatus);
    }
    finish_stream(&c->out, &res->out);
    finish_stream(&c->err, &res->err);
    res->stdout_kept = c->kept;
    res->stdout_cut = c->out.cut;
    memset(c, 0, sizeof *c);
    r->running--;
    sweep(r);
    return res;
}

struct runner_result *runner_poll(struct runner *r, int wait_ms)
{
    double t = now_seconds();
    struct pollfd *fds = r->fds;
    size_t nfds = 0;
    int wait = wait_ms < 0 ? 0 : wait_ms;
    for (uint32_t i = 0; r->servers && i < r->opts.jobs; i++) {
        if (!r->servers[i].busy)
            continue;
        struct runner_result *res = harness_poll(r, &r->servers[i], t, fds, &nfds, &wait);
        if (res)
            return res;
    }
    for (uint32_t i = 0; i < r->opts.jobs; i++) {
        struct child *c = &r->slots[i];
        if (!c->active)
            continue;
        /* With a pidfd, poll says when it has ended: no wait4 before. */
        c->poll_at = -1;
        if (c->pidfd < 0 || c->timed_out) {
            try_reap(r, c);
            if (c->reaped)
                return finish(r, c);
        }
        if (c->deadline && t >= c->deadline && !c->timed_out) {
            c->timed_out = true;
            kill_group(c);
        }
        /* A child's end makes its pidfd readable.  Without pidfd_open,
         * children end with their pipes closed, which wakes poll; one that
         * closed them early, or whose pipes a descendant holds, is checked
         * every few milliseconds. */
        bool open = false;
        struct capture *caps[2] = {&c->out, &c->err};
        for (int k = 0; k < 2; k++) {
            if (caps[k]->fd < 0)
                continue;
            open = true;
            fds[nfds++] = (struct pollfd){.fd = caps[k]->fd, .events = POLLIN};
        }
        int cap = open ? 20 : 1;
        if (c->pidfd >= 0) {
            c->poll_at = (int)nfds;
            fds[nfds++] = (struct pollfd){.fd = c->pidfd, .events = POLLIN};
            cap = 1000;
        }
        if (c->timed_out)
            cap = 1;
        else if (c->deadline) {
            double left = (c->deadline - t) * 1000.0;
            if (left < cap)
                cap = left < 0 ? 0 : (int)left + 1;
        }
        if (cap < wait)
            wait = cap;
    }
    if (r->running == 0)
        return NULL;
    int n = poll(fds, nfds, wait);
    if (n < 0)
        return NULL; /* a signal: let the caller look at its flags */
    for (uint32_t i = 0; r->servers && i < r->opts.jobs; i++) {
        struct server *s = &r->servers[i];
        if (!s->busy)
            continue;
        struct runner_result *res = harness_poll(r, s, now_seconds(), fds, &nfds, &wait);
        if (res)
            return res;
    }
    for (uint32_t i = 0; i < r->opts.jobs; i++) {
        struct child *c = &r->slots[i];
        if (!c->active)
            continue;
        capture_read(&c->out);
        capture_read(&c->err);
        if (c->poll_at >= 0 && n >= 0 && !fds[c->poll_at].revents && !c->timed_out)
            continue; /* its pidfd says it runs on */
        try_reap(r, c);
        if (c->reaped)
            return finish(r, c);
    }
    return NULL;
}

void runner_kill_all(struct runner *r)
{
    for (uint32_t i = 0; i < r->opts.jobs; i++) {
        struct child *c = &r->slots[i];
        if (!c->active)
            continue;
        kill_group(c);
        if (!c->reaped) {
            while (wait4(c->pid, &c->wstatus, 0, &c->ru) < 0 && errno == EINTR)
                ;
            c->reaped = true;
            keeper_tell(r, -(int32_t)c->pid);
        }
        if (c->out.fd >= 0)
            close(c->out.fd);
        if (c->err.fd >= 0)
            close(c->err.fd);
        free(c->start_error);
        if (c->pidfd >= 0)
            close(c->pidfd);
        strbuf_free(&c->out.first);
        strbuf_free(&c->err.first);
        strbuf_free(&c->kept);
        if (c->dir)
            pool_give(r->pool, c->dir);
        free(c->in_dir);
        memset(c, 0, sizeof *c);
        r->running--;
    }
    for (uint32_t i = 0; r->servers && i < r->opts.jobs; i++) {
        struct server *s = &r->servers[i];
        if (!s->busy)
            continue;
        server_close(r, s); /* its child's group too */
        free(s->error);
        s->error = NULL;
        s->busy = false;
        r->running--;
    }
    sweep(r);
}

struct runner *runner_new(const struct runner_options *opts)
{
    struct runner *r = xcalloc(1, sizeof *r);
    r->opts = *opts;
    if (r->opts.jobs == 0)
        r->opts.jobs = 1;
    r->slots = xcalloc(r->opts.jobs, sizeof *r->slots);
    r->fds = xcalloc(6 * (size_t)r->opts.jobs + 6, sizeof *r->fds);
    if (r->opts.harness) {
        r->servers = xcalloc(r->opts.jobs, sizeof *r->servers);
        for (uint32_t i = 0; i < r->opts.jobs; i++) {
            struct server *s = &r->servers[i];
            s->pidfd = s->req_w = s->msg_r = s->input_fd = s->shm_fd = s->out.fd = s->err.fd = -1;
        }
    }
    r->pool = pool_new();
    r->keeper_fd = -1;
    r->session = getsid(0);
    r->self = getpid();
    r->children_fd = r->status_fd = -1;
    /* What a run forks and leaves behind comes to kpath, not to init, so
     * that it can be killed and counted (sweep). */
    r->subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    r->next_runner = all_runners;
    all_runners = r;
    return r;
}

void runner_free(struct runner *r)
{
    if (!r)
        return;
    runner_kill_all(r);
    for (uint32_t i = 0; r->servers && i < r->opts.jobs; i++)
        server_close(r, &r->servers[i]);
    /* Processes killed with their group reach kpath a moment later. */
    if (r->subreaper && r->nstarted) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
        sweep(r);
    }
    keeper_stop(r);
    if (r->children_fd >= 0)
        close(r->children_fd);
    if (r->status_fd >= 0)
        close(r->status_fd);
    for (struct runner **p = &all_runners; *p; p = &(*p)->next_runner)
        if (*p == r) {
            *p = r->next_runner;
            break;
        }
    pool_unref(r->pool);
    free(r->servers);
    harness_names_free(r->guard_names, r->nguards);
    free(r->seen);
    free(r->slots);
    free(r->fds);
    free(r);
}

bool runner_has_slot(const struct runner *r)
{
    return r->running < r->opts.jobs;
}

size_t runner_running(const struct runner *r)
{
    return r->running;
}

/* ---- results -------------------------------------------------------------- */

const char *runner_signal_name(int sig, char buf[16])
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
        {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
        {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, 16, "SIG%d", sig);
    return buf;
}

void runner_outcome(const struct runner_result *res, struct strbuf *out)
{
    char buf[16];
    switch (res->end) {
    case RUNNER_EXITED:
        strbuf_addf(out, "exit:%d", res->code);
        break;
    case RUNNER_SIGNALED:
        strbuf_addf(out, "signal:%s", runner_signal_name(res->code, buf));
        break;
    case RUNNER_TIMEOUT:
        strbuf_addstr(out, "timeout");
        break;
    case RUNNER_START_FAILED:
        strbuf_addf(out, "error:%s", res->error ? res->error : "cannot start");
        break;
    }
}

void runner_result_free(struct runner_result *res)
{
    if (!res)
        return;
    if (res->pooled) {
        pool_give(res->pool, res->pooled);
        pool_unref(res->pool);
    }
    free(res->dir);
    free(res->error);
    for (size_t i = 0; i < res->nfeatures; i++)
        free(res->features[i]);
    free(res->features);
    free(res->out.first_line);
    free(res->err.first_line);
    strbuf_free(&res->stdout_kept);
    free(res);
}

bool runner_parse_timeout(const char *text, uint64_t *ms)
{
    return number_parse_duration_ms(text, ms); /* N, Ns, NNNms, Nm */
}

void runner_default_options(struct runner_options *o)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (struct runner_options){.jobs = cores > 0 ? (uint32_t)(cores > 1024 ? 1024 : cores) : 1,
                                 .timeout_ms = RUNNER_DEFAULT_TIMEOUT_S * 1000,
                                 .max_memory = RUNNER_DEFAULT_MAX_MEMORY};
}
