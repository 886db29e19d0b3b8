/* The benchmark driver: `make bench` runs it with the repository root. */
#define _DEFAULT_SOURCE /* wait4: the peak RSS of one particular child */
#include "bench.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_ADDRESS_SPACE ((rlim_t)12 << 30) /* per run */

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *bench_read(const char *root, const char *relative, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

void bench_run_child(char *const argv[], const char *dir, const char *out_path,
                     const char *err_path, double limit_seconds, struct bench_run *r)
{
    bench_run_child_cpu(argv, dir, out_path, err_path, 0, limit_seconds, r);
}

static void run_child(char *const argv[], const char *dir, const char *out_path,
                      const char *err_path, double cpu_seconds, double wall_seconds,
                      struct bench_run *r)
{
    memset(r, 0, sizeof *r);
    fflush(stdout);
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0)
        return;
    if (pid == 0) {
        setpgid(0, 0);
        struct rlimit rl = {CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE};
        setrlimit(RLIMIT_AS, &rl);
        if (cpu_seconds > 0) {
            /* SIGXCPU at the limit; SIGKILL a second later if it is caught. */
            rlim_t cpu = (rlim_t)cpu_seconds;
            struct rlimit cl = {cpu, cpu + 1};
            setrlimit(RLIMIT_CPU, &cl);
        }
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0 || chdir(dir) != 0)
            _exit(126);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        close(out);
        close(err);
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    struct rusage ru;
    int status = 0;
    bool wall_killed = false;
    for (;;) {
        pid_t got = wait4(pid, &status, WNOHANG, &ru);
        if (got == pid)
            break;
        if (bench_now() - t0 > wall_seconds) {
            kill(-pid, SIGKILL);
            wait4(pid, &status, 0, &ru);
            wall_killed = true;
            break;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
    r->seconds = bench_now() - t0;
    r->finished = WIFEXITED(status) && !wall_killed;
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r->peak = (double)ru.ru_maxrss * 1024.0;
    r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    if (!r->finished) {
        double load[1] = {0};
        r->load = getloadavg(load, 1) == 1 ? load[0] : -1;
        r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        r->stopped = wall_killed ? "the wall-clock limit"
                   : cpu_seconds > 0 && (r->signal == SIGXCPU || r->signal == SIGKILL)
                       ? "its CPU-time limit"
                       : "a signal";
    }
}

/* ---- the spawner ------------------------------------------------------------
 * The peak RSS that wait4 reports for a child counts from the fork: at exec
 * the kernel keeps the larger of the program's peak and that of the copy it
 * replaced, which holds everything the bench had resident when it forked (25
 * MiB after the in-process sections, more than kpath and python3 need for 1
 * MB).  So children are forked by a spawner, itself forked when the bench
 * starts and still small, which runs each request as run_child does and
 * sends back the result. */

#define SPAWN_ARGS 32

struct spawn_request {
    int argc;
    char argv[SPAWN_ARGS][4096];
    char dir[4096], out[4096], err[4096];
    double cpu_seconds, wall_seconds;
};

static int spawn_to = -1, spawn_from = -1; /* the bench's ends of the pipes */
static pid_t spawner;

static bool write_full(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len) {
        ssize_t n = read(fd, p, len);
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static void spawner_loop(int from, int to)
{
    static struct spawn_request q;
    char *argv[SPAWN_ARGS + 1];
    while (read_full(from, &q, sizeof q)) {
        for (int i = 0; i < q.argc; i++)
            argv[i] = q.argv[i];
        argv[q.argc] = NULL;
        struct bench_run r;
        run_child(argv, q.dir, q.out, q.err, q.cpu_seconds, q.wall_seconds, &r);
        /* r.stopped points at a literal: the same address in the bench */
        if (!write_full(to, &r, sizeof r))
            break;
    }
    _exit(0);
}

static void spawner_start(void)
{
    int req[2], rep[2];
    if (pipe(req) != 0)
        return;
    if (pipe(rep) != 0) {
        close(req[0]);
        close(req[1]);
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(req[1]);
        close(rep[0]);
        spawner_loop(req[0], rep[1]);
    }
    close(req[0]);
    close(rep[1]);
    if (pid < 0) {
        close(req[1]);
        close(rep[0]);
        return;
    }
    spawner = pid;
    spawn_to = req[1];
    spawn_from = rep[0];
}

static void spawner_stop(void)
{
    if (spawner <= 0)
        return;
    close(spawn_to);
    close(spawn_from);
    waitpid(spawner, NULL, 0);
    spawner = 0;
}

void bench_run_child_cpu(char *const argv[], const char *dir, const char *out_path,
                         const char *err_path, double cpu_seconds, double wall_seconds,
                         struct bench_run *r)
{
    static struct spawn_request q;
    int argc = 0;
    bool fits = strlen(dir) < sizeof q.dir && strlen(out_path) < sizeof q.out &&
                strlen(err_path) < sizeof q.err;
    while (argv[argc] && fits) {
        fits = argc < SPAWN_ARGS && strlen(argv[argc]) < sizeof q.argv[0];
        argc++;
    }
    if (spawner > 0 && fits) {
        memset(&q, 0, sizeof q);
        q.argc = argc;
        for (int i = 0; i < argc; i++)
            strcpy(q.argv[i], argv[i]);
        strcpy(q.dir, dir);
        strcpy(q.out, out_path);
        strcpy(q.err, err_path);
        q.cpu_seconds = cpu_seconds;
        q.wall_seconds = wall_seconds;
        fflush(stdout);
        if (write_full(spawn_to, &q, sizeof q) && read_full(spawn_from, r, sizeof *r))
            return;
        spawner_stop(); /* it is gone: fork from here, peaks and all */
    }
    run_child(argv, dir, out_path, err_path, cpu_seconds, wall_seconds, r);
}

/* The sections, in order; `bench ROOT NAME...` runs only those named. */
static const struct section {
    const char *name;
    void (*run)(const char *root);
} sections[] = {
    {"core", bench_core},       {"generation", bench_generation},
    {"big-grammars", bench_big_grammars},
    {"parsing", bench_parsing}, {"parse-errors", bench_parse_errors},
    {"output", bench_output},
    {"concise", bench_concise}, {"tui", bench_tui},
    {"run", bench_run},         {"explain", bench_explain},
    {"shrink", bench_shrink},   {"convert", bench_convert},
};

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    size_t n = sizeof sections / sizeof sections[0];
    for (int a = 2; a < argc; a++) {
        size_t i = 0;
        while (i < n && strcmp(argv[a], sections[i].name) != 0)
            i++;
        if (i == n) {
            fprintf(stderr, "bench: no section '%s' (sections:", argv[a]);
            for (i = 0; i < n; i++)
                fprintf(stderr, " %s", sections[i].name);
            fprintf(stderr, ")\n");
            return 2;
        }
    }
    spawner_start();
    printf("kpath benchmarks (wall-clock times on this machine; nothing is asserted)\n");
    for (size_t i = 0; i < n; i++) {
        bool chosen = argc <= 2;
        for (int a = 2; a < argc; a++)
            chosen |= strcmp(argv[a], sections[i].name) == 0;
        if (chosen)
            sections[i].run(root);
    }
    spawner_stop();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak memory of the whole run (max RSS): %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
