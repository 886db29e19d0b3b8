/* bench: kpath's benchmarks, one module per area, one driver (bench.c).
 * They print figures and assert nothing. */
#ifndef KPATH_BENCH_H
#define KPATH_BENCH_H

#include <stdbool.h>
#include <stddef.h>

double bench_now(void);
/* The bundled file `relative` below the repository root; NULL if unreadable. */
char *bench_read(const char *root, const char *relative, size_t *len);

/* One child program's run (see bench_run_child). */
struct bench_run {
    bool finished;   /* exited by itself (any status) */
    int status;      /* exit status when finished */
    double seconds;  /* wall clock */
    double cpu;      /* user + system CPU seconds (steady on a shared machine) */
    double peak;     /* max RSS, bytes */
    /* When not finished: what stopped it ("its CPU-time limit", "the
     * wall-clock limit", "signal N"), and the one-minute load average then
     * (cpu and seconds say how far it got). */
    const char *stopped;
    int signal;
    double load;
};
/* Run argv in `dir` as its own process group, stdout to out_path, stderr to
 * err_path, under an address-space limit and a time limit of `limit_seconds`
 * (then it is killed with its group and `finished` is false). */
void bench_run_child(char *const argv[], const char *dir, const char *out_path,
                     const char *err_path, double limit_seconds, struct bench_run *r);
/* The same under a limit of `cpu_seconds` of CPU time (RLIMIT_CPU: a
 * machine shared with other builds slows the wall clock, not the CPU time a
 * run needs), with `wall_seconds` of wall clock as a backstop. */
void bench_run_child_cpu(char *const argv[], const char *dir, const char *out_path,
                         const char *err_path, double cpu_seconds, double wall_seconds,
                         struct bench_run *r);

void bench_core(const char *root);
void bench_generation(const char *root);
/* kpath cover as a child on big grammars (part of `generation` in issue 17). */
void bench_big_grammars(const char *root);
void bench_parsing(const char *root);
/* Invalid samples beside the same made valid (issue 38). */
void bench_parse_errors(const char *root);
void bench_output(const char *root);
void bench_tui(const char *root);
void bench_concise(const char *root);
void bench_run(const char *root);
void bench_explain(const char *root);
/* kpath shrink against HDD* and ddmin on failing inputs of real programs. */
void bench_shrink(const char *root);
/* kpath convert to every format on grammars of many rules (issue 38). */
void bench_convert(const char *root);

#endif
