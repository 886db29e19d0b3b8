/* The benchmark driver: `make bench` runs it with the repository root. */
#define _DEFAULT_SOURCE /* wait4: the peak RSS of one particular child */
#include "bench.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
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
    for (;;) {
        pid_t got = wait4(pid, &status, WNOHANG, &ru);
        if (got == pid)
            break;
        if (bench_now() - t0 > limit_seconds) {
            kill(-pid, SIGKILL);
            wait4(pid, &status, 0, &ru);
            r->seconds = bench_now() - t0;
            return;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
    r->seconds = bench_now() - t0;
    r->finished = WIFEXITED(status);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r->peak = (double)ru.ru_maxrss * 1024.0;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    /* bench ROOT [SECTION...]: only the named sections (all without). */
    static const struct {
        const char *name;
        void (*run)(const char *root);
    } sections[] = {
        {"core", bench_core},       {"generation", bench_generation}, {"parsing", bench_parsing},
        {"output", bench_output},   {"concise", bench_concise},       {"tui", bench_tui},
        {"run", bench_run},         {"explain", bench_explain},
    };
    size_t nsections = sizeof sections / sizeof *sections;
    for (int a = 2; a < argc; a++) {
        size_t i = 0;
        while (i < nsections && strcmp(argv[a], sections[i].name) != 0)
            i++;
        if (i == nsections) {
            fprintf(stderr, "bench: unknown section '%s' (core, generation, parsing, output, "
                            "concise, tui, run, explain)\n", argv[a]);
            return 2;
        }
    }
    printf("kpath benchmarks (wall-clock times on this machine; nothing is asserted)\n");
    for (size_t i = 0; i < nsections; i++) {
        bool wanted = argc <= 2;
        for (int a = 2; a < argc && !wanted; a++)
            wanted = strcmp(argv[a], sections[i].name) == 0;
        if (wanted)
            sections[i].run(root);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak memory of the whole run (max RSS): %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
