/* _GNU_SOURCE: close_range, pipe2 and execvpe; wait4 for a child's rusage. */
#define _GNU_SOURCE
#include "run/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/number.h"
#include "base/sha256.h"
#include "base/xalloc.h"

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

struct child {
    bool active;
    pid_t pid;              /* also its process group (setsid) */
    struct capture out, err;
    int status_fd;          /* the exec error pipe: bytes only when exec failed */
    double started;         /* seconds, monotonic */
    double deadline;        /* 0: none */
    bool timed_out, reaped;
    int wstatus;
    struct rusage ru;
    char *dir;
    bool owns_dir;
    void *user;
    struct strbuf kept;
};

struct runner {
    struct runner_options opts;
    struct child *slots; /* opts.jobs of them */
    struct pollfd *fds;  /* 2 * opts.jobs: what runner_poll watches */
    size_t running;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct runner *runner_new(const struct runner_options *opts)
{
    struct runner *r = xcalloc(1, sizeof *r);
    r->opts = *opts;
    if (r->opts.jobs == 0)
        r->opts.jobs = 1;
    r->slots = xcalloc(r->opts.jobs, sizeof *r->slots);
    r->fds = xcalloc(2 * (size_t)r->opts.jobs, sizeof *r->fds);
    return r;
}

void runner_free(struct runner *r)
{
    if (!r)
        return;
    runner_kill_all(r);
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

/* ---- starting a child ----------------------------------------------------- */

static char *make_run_dir(const struct runner_options *o, struct diag_list *diags)
{
    const char *parent = o->tmp_parent;
    if (!parent)
        parent = getenv("TMPDIR");
    if (!parent || !*parent)
        parent = "/tmp";
    struct strbuf path = STRBUF_INIT;
    strbuf_addf(&path, "%s/kpath-run-XXXXXX", parent);
    if (!mkdtemp(path.data)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot make a run directory in %s: %s", parent,
                 strerror(errno));
        strbuf_free(&path);
        return NULL;
    }
    return strbuf_detach(&path, NULL);
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

/* In the child, between fork and exec: tell the parent why it failed. */
static void child_fail(int status_fd, const char *stage)
{
    int e = errno;
    char buf[256];
    int n = snprintf(buf, sizeof buf, "%s: %s", stage, strerror(e));
    if (n > 0)
        (void)!write(status_fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
    _exit(127);
}

static void set_limit(int resource, uint64_t value)
{
    struct rlimit rl = {.rlim_cur = (rlim_t)value, .rlim_max = (rlim_t)value};
    (void)setrlimit(resource, &rl);
}

static void close_other_fds(int keep)
{
    if (close_range(3, (unsigned)keep - 1, 0) == 0 && close_range((unsigned)keep + 1, ~0U, 0) == 0)
        return;
    for (int fd = 3; fd < 4096; fd++)
        if (fd != keep)
            close(fd);
}

static void run_child(const struct runner_options *o, char **argv, char **env, const char *cwd,
                      const char *stdin_path, int out_w, int err_w, int status_w)
{
    /* Its own session: a new process group (killed as a whole at the end)
     * and no controlling terminal. */
    if (setsid() < 0)
        child_fail(status_w, "setsid");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD};
    for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
        sigaction(reset[i], &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (chdir(cwd) != 0)
        child_fail(status_w, "cannot enter the run directory");
    int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    if (in < 0)
        child_fail(status_w, "cannot open the input");
    if (dup2(in, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        child_fail(status_w, "dup2");
    if (in > 2)
        close(in);
    if (o->max_memory) {
        set_limit(RLIMIT_AS, o->max_memory);
        set_limit(RLIMIT_FSIZE, o->max_memory);
    }
    set_limit(RLIMIT_CORE, 0);
    close_other_fds(status_w);
    execvpe(argv[0], argv, env);
    child_fail(status_w, argv[0]);
}

static void capture_init(struct capture *c, int fd, struct strbuf *kept, size_t keep_max)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    sha256_init(&c->hash);
    c->kept = kept;
    c->keep_max = keep_max;
}

bool runner_start(struct runner *r, const struct runner_job *job, struct diag_list *diags)
{
    struct child *c = NULL;
    for (uint32_t i = 0; i < r->opts.jobs && !c; i++)
        if (!r->slots[i].active)
            c = &r->slots[i];
    if (!c) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no free slot for a run");
        return false;
    }
    char *dir = job->in_dir ? xstrdup(job->in_dir) : make_run_dir(&r->opts, diags);
    if (!dir)
        return false;
    bool owns_dir = !job->in_dir;
    struct strbuf cwd = STRBUF_INIT, input = STRBUF_INIT;
    strbuf_addf(&cwd, "%s/cwd", dir);
    bool ok = true;
    if (owns_dir)
        ok = mkdir(cwd.data, 0700) == 0;
    if (ok && job->input_name) {
        strbuf_addf(&input, "%s/in", dir);
        ok = (mkdir(input.data, 0700) == 0 || errno == EEXIST);
        const char *name = job->input_name;
        if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
            name = "input";
        strbuf_addf(&input, "/%s", name);
        ok = ok && (write_input(input.data, job->input, job->input_len) ||
                    (job->in_dir && errno == EEXIST));
    }
    int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, status_p[2] = {-1, -1};
    if (ok)
        ok = pipe2(out_p, O_CLOEXEC) == 0 && pipe2(err_p, O_CLOEXEC) == 0 &&
             pipe2(status_p, O_CLOEXEC) == 0;
    if (!ok) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot prepare the run directory %s: %s", dir,
                 strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (out_p[i] >= 0) close(out_p[i]);
            if (err_p[i] >= 0) close(err_p[i]);
            if (status_p[i] >= 0) close(status_p[i]);
        }
        if (owns_dir)
            runner_remove_tree(dir);
        free(dir);
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
     * close-on-exec); the status pipe's end closes by itself on exec. */
    pid_t pid = fork();
    if (pid == 0)
        run_child(&r->opts, argv, env, cwd.data, job->input_name ? input.data : NULL, out_p[1],
                  err_p[1], status_p[1]);
    free_strv(argv);
    free_strv(env);
    strbuf_free(&cwd);
    strbuf_free(&input);
    close(out_p[1]);
    close(err_p[1]);
    close(status_p[1]);
    if (pid < 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot fork: %s", strerror(errno));
        close(out_p[0]);
        close(err_p[0]);
        close(status_p[0]);
        if (owns_dir)
            runner_remove_tree(dir);
        free(dir);
        return false;
    }
    memset(c, 0, sizeof *c);
    c->active = true;
    c->pid = pid;
    fcntl(out_p[0], F_SETFL, O_NONBLOCK);
    fcntl(err_p[0], F_SETFL, O_NONBLOCK);
    capture_init(&c->out, out_p[0], job->keep_stdout ? &c->kept : NULL, job->keep_stdout);
    capture_init(&c->err, err_p[0], NULL, 0);
    c->status_fd = status_p[0];
    c->started = now_seconds();
    c->deadline = r->opts.timeout_ms ? c->started + (double)r->opts.timeout_ms / 1000.0 : 0;
    c->dir = dir;
    c->owns_dir = owns_dir;
    c->user = job->user;
    r->running++;
    return true;
}

/* ---- watching children ---------------------------------------------------- */

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

static void try_reap(struct child *c)
{
    if (c->reaped)
        return;
    pid_t got = wait4(c->pid, &c->wstatus, WNOHANG, &c->ru);
    if (got == c->pid) {
        c->reaped = true;
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
    res->dir = c->dir;
    res->owns_dir = c->owns_dir;
    res->wall_ms = (now_seconds() - c->started) * 1000.0;
    res->cpu_ms = (double)(c->ru.ru_utime.tv_sec + c->ru.ru_stime.tv_sec) * 1000.0 +
                  (double)(c->ru.ru_utime.tv_usec + c->ru.ru_stime.tv_usec) / 1000.0;
    res->max_rss_kb = (uint64_t)c->ru.ru_maxrss;
    char why[256];
    ssize_t n = read(c->status_fd, why, sizeof why - 1);
    close(c->status_fd);
    if (n > 0) {
        why[n] = '\0';
        res->end = RUNNER_START_FAILED;
        res->error = xstrdup(why);
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
    return res;
}

struct runner_result *runner_poll(struct runner *r, int wait_ms)
{
    double t = now_seconds();
    struct pollfd *fds = r->fds;
    size_t nfds = 0;
    int wait = wait_ms < 0 ? 0 : wait_ms;
    for (uint32_t i = 0; i < r->opts.jobs; i++) {
        struct child *c = &r->slots[i];
        if (!c->active)
            continue;
        try_reap(c);
        if (c->reaped)
            return finish(r, c);
        if (c->deadline && t >= c->deadline && !c->timed_out) {
            c->timed_out = true;
            kill_group(c);
        }
        /* Children end with their pipes closed, which wakes poll; one that
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
    for (uint32_t i = 0; i < r->opts.jobs; i++) {
        struct child *c = &r->slots[i];
        if (!c->active)
            continue;
        capture_read(&c->out);
        capture_read(&c->err);
        try_reap(c);
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
        }
        if (c->out.fd >= 0)
            close(c->out.fd);
        if (c->err.fd >= 0)
            close(c->err.fd);
        close(c->status_fd);
        strbuf_free(&c->out.first);
        strbuf_free(&c->err.first);
        strbuf_free(&c->kept);
        if (c->owns_dir)
            runner_remove_tree(c->dir);
        free(c->dir);
        memset(c, 0, sizeof *c);
        r->running--;
    }
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
    if (res->owns_dir)
        runner_remove_tree(res->dir);
    free(res->dir);
    free(res->error);
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
