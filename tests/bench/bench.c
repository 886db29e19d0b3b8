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

void bench_run_child_cpu(char *const argv[], const char *dir, const char *out_path,
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

/* The sections, in order; `bench ROOT NAME...` runs only those named. */
static const struct section {
    const char *name;
    void (*run)(const char *root);
} sections[] = {
    {"core", bench_core},       {"generation", bench_generation},
    {"big-grammars", bench_big_grammars},
    {"parsing", bench_parsing}, {"output", bench_output},
    {"concise", bench_concise}, {"tui", bench_tui},
    {"run", bench_run},         {"explain", bench_explain},
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
    printf("kpath benchmarks (wall-clock times on this machine; nothing is asserted)\n");
    for (size_t i = 0; i < n; i++) {
        bool chosen = argc <= 2;
        for (int a = 2; a < argc; a++)
            chosen |= strcmp(argv[a], sections[i].name) == 0;
        if (chosen)
            sections[i].run(root);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak memory of the whole run (max RSS): %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
