/* Benchmark of `kpath run`'s own cost: runs per second of a trivial command
 * (/bin/true) on 1,000 inputs with 1 and 2 workers, through the campaign's
 * step API as the CLI drives it (run directory emptied, input copy,
 * fork/exec, pipes, kill, record appended), against a plain shell loop
 * (`for f in DIR/NAME...; do /bin/true <"$f"; done`) timed in the same run, as
 * ratios (the goal: >= 90% of the loop at -j 1, about 2x at -j 2 on 2
 * cores), each -j N beside the machine's own ceiling measured just before
 * it: a bare posix_spawn(/bin/true)+wait loop and a bare
 * fork+setsid+_exit+wait loop, in one process and in N processes at once
 * (on a virtual machine where creating a process does not scale with the
 * processes doing it, no runner can do better than that loop: -j N is
 * then printed as a fraction of the N-process spawn loop); then the extra
 * time per run of --gcov on the bundled subject (build/subjects/calc),
 * -j 1: counters read directly (gcov_data, the
 * goal: <= 0.5 ms per run) against a gcov process per run (the way before
 * it) and against no collection; then harness mode (kpath run --harness:
 * a libFuzzer harness built with function coverage, the goal >= 2,000
 * runs/s with function features on a small C parser), a fork per input
 * and --in-process, -j 1 and -j 2, on tests/subjects/harness_list.c and on
 * cJSON's own harness (fuzzing/cjson_read_fuzzer.c, from CJSON_GIT,
 * default /work/.mirror/DaveGamble+cJSON/repo, when it is there), as
 * ratios to the goal and to a bare fork/setsid/exit/wait loop measured in
 * the same run (the ceiling of a fork per input), against the same parser
 * as a program with --gcov and the shell loop.  Prints figures; asserts
 * nothing. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "run/campaign.h"
#include "run/collect.h"
#include "run/gcov_data.h"
#include "run/harness.h"
#include "run/runner.h"
#include "base/samples.h"

/* CPU seconds used so far by this process and its waited-for children. */
static double cpu_now(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
                    kids.ru_stime.tv_sec) +
           (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
                    kids.ru_stime.tv_usec) * 1e-6;
}

/* Seconds for running every input of `inputs` through argv, or -1; the CPU
 * seconds of kpath and the runs in *cpu. */
/* How --gcov reads counters, if at all. */
enum gcov_way { GCOV_NONE, GCOV_READER, GCOV_SPAWN };

static double campaign_time_with(char *const *argv, uint32_t jobs, enum gcov_way way,
                                 const char *gcov_dir, const struct runner_harness *harness,
                                 const struct sample_list *inputs, const char *results,
                                 double *cpu)
{
    struct collector cols[2];
    size_t ncols = 0;
    struct diag_list diags = DIAG_LIST_INIT;
    collector_outcome(&cols[ncols++]);
    if (harness)
        collector_harness(&cols[ncols++]);
    bool (*make)(struct collector *, const char *, bool, struct diag_list *) =
        way == GCOV_SPAWN ? collector_gcov_spawn : collector_gcov;
    if (way != GCOV_NONE && !make(&cols[ncols++], gcov_dir, false, &diags)) {
        ncols--;
        diag_list_free(&diags);
        collector_free(&cols[0]);
        return -1;
    }
    char *names[2] = {cols[0].name, ncols > 1 ? cols[1].name : NULL};
    struct results_header h = {.kpath_version = "bench", .grammar = "none",
                               .command = (char **)argv, .ncommand = 1,
                               .collect = names, .ncollect = (uint32_t)ncols};
    memset(h.grammar_sha256, '0', SHA256_HEX_SIZE - 1);
    unlink(results);
    struct campaign_options o = {.runner = {.jobs = jobs, .timeout_ms = 10000,
                                            .max_memory = (uint64_t)1 << 32,
                                            .harness = harness},
                                 .argv = argv, .collectors = cols, .ncollectors = ncols,
                                 .results_path = results, .header = &h,
                                 .max_input_size = 1 << 20, .keep_going = true};
    double start = bench_now(), cpu_start = cpu_now();
    struct campaign *c = campaign_open(&o, inputs, &diags);
    enum campaign_state st = c ? CAMPAIGN_RUNNING : CAMPAIGN_FAILED;
    while (st == CAMPAIGN_RUNNING)
        st = campaign_step(c, 100, &diags);
    double took = bench_now() - start;
    if (cpu)
        *cpu = cpu_now() - cpu_start;
    campaign_free(c);
    for (size_t i = 0; i < ncols; i++)
        collector_free(&cols[i]);
    if (diags.errors)
        fprintf(stderr, "bench run: %s\n", diags.items[0].message);
    diag_list_free(&diags);
    unlink(results);
    return st == CAMPAIGN_DONE ? took : -1;
}

static double campaign_time(char *const *argv, uint32_t jobs, enum gcov_way way,
                            const char *gcov_dir, const struct sample_list *inputs,
                            const char *results, double *cpu)
{
    return campaign_time_with(argv, jobs, way, gcov_dir, NULL, inputs, results, cpu);
}

/* Seconds for a shell loop that runs /bin/true once per input, or -1; the
 * CPU seconds of the shell and its children in *cpu. */
static double shell_loop_time(const char *dir, double *cpu)
{
    char script[512];
    snprintf(script, sizeof script, "for f in %s/*.txt; do /bin/true <\"$f\"; done", dir);
    double start = bench_now(), cpu_start = cpu_now();
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    if (cpu)
        *cpu = cpu_now() - cpu_start;
    return bench_now() - start;
}

/* The reader alone, without the runs: one run's .gcda of calc read,
 * solved and turned into functions and lines, many times over. */
static void count_fn(void *ctx, const char *name, const char *file, uint32_t line, bool ran)
{
    (void)name, (void)file, (void)line;
    *(size_t *)ctx += ran;
}

static void count_line(void *ctx, const char *file, uint32_t number)
{
    (void)file, (void)number;
    ++*(size_t *)ctx;
}

static void bench_reader_alone(const char *build)
{
    char gcno[8192], dir[] = "/tmp/kpath-bench-gcda-XXXXXX", cmd[16384], gcda[16384];
    snprintf(gcno, sizeof gcno, "%s/calc.gcno", build);
    struct gcov_notes *notes = NULL;
    struct diag_list diags = DIAG_LIST_INIT;
    char version[5];
    if (!mkdtemp(dir) ||
        gcov_notes_read(gcno, &notes, version, &diags) != GCOV_READ_OK) {
        diag_list_free(&diags);
        return;
    }
    snprintf(cmd, sizeof cmd, "printf '1+2*3' | GCOV_PREFIX=%s GCOV_PREFIX_STRIP=0 %s/calc >/dev/null",
             dir, build);
    snprintf(gcda, sizeof gcda, "%s%s/calc.gcda", dir, build);
    enum { TIMES = 20000 };
    size_t fns = 0, lines = 0;
    if (system(cmd) == 0) {
        double start = bench_now(), cpu_start = cpu_now();
        for (int i = 0; i < TIMES; i++) {
            if (!gcov_notes_read_counts(notes, gcda, gcda, &diags))
                break;
            gcov_notes_functions(notes, count_fn, &fns);
            gcov_notes_lines(notes, count_line, &lines);
        }
        double took = bench_now() - start, cpu = cpu_now() - cpu_start;
        if (!diags.errors)
            printf("  the reader alone (calc's .gcda read, solved, %zu functions and %zu lines "
                   "that ran): %.1f us per run (CPU %.1f us)\n",
                   fns / TIMES, lines / TIMES, took * 1e6 / TIMES, cpu * 1e6 / TIMES);
    }
    gcov_notes_free(notes);
    diag_list_free(&diags);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("  (could not remove %s)\n", dir);
}

extern char **environ;

/* One bare loop of n process starts: fork+setsid+_exit+wait (the floor of
 * any fork server) or posix_spawn(/bin/true)+wait (the floor of any runner
 * that executes a program); false when one failed. */
static bool bare_loop(size_t n, bool spawn)
{
    for (size_t i = 0; i < n; i++) {
        pid_t pid;
        if (spawn) {
            char *argv[] = {"true", NULL};
            if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ) != 0)
                return false;
        } else if ((pid = fork()) == 0) {
            setsid();
            _exit(0);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid)
            return false;
    }
    return true;
}

/* Seconds for n bare process starts in all, split over `procs` processes
 * running the bare loop at once, or -1; their CPU seconds in *cpu. */
static double bare_time(size_t n, unsigned procs, bool spawn, double *cpu)
{
    double start = bench_now(), cpu_start = cpu_now();
    if (procs <= 1) {
        if (!bare_loop(n, spawn))
            return -1;
    } else {
        pid_t pids[64];
        unsigned started = 0;
        bool ok = true;
        for (unsigned p = 0; p < procs && p < 64; p++) {
            size_t share = n / procs + (p < n % procs);
            pid_t pid = fork();
            if (pid == 0)
                _exit(bare_loop(share, spawn) ? 0 : 1);
            if (pid < 0) {
                ok = false;
                break;
            }
            pids[started++] = pid;
        }
        for (unsigned p = 0; p < started; p++) {
            int status;
            ok = waitpid(pids[p], &status, 0) == pids[p] && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0 && ok;
        }
        if (!ok)
            return -1;
    }
    if (cpu)
        *cpu = cpu_now() - cpu_start;
    return bench_now() - start;
}

/* Seconds for n bare fork+setsid+exit+wait4 in one process. */
static double bare_fork_time(size_t n)
{
    return bare_time(n, 1, false, NULL);
}

/* The machine's ceiling for `procs` processes starting processes at once,
 * measured now: runs/s of the bare fork and spawn loops (spawn: its CPU ms
 * per run in *spawn_cpu_ms), printed. */
static double ceiling(size_t n, unsigned procs, double *spawn_cpu_ms)
{
    double rate[2] = {-1, -1}, cpu[2] = {0, 0};
    for (int spawn = 0; spawn <= 1; spawn++) {
        double t = bare_time(n, procs, spawn, &cpu[spawn]);
        if (t > 0)
            rate[spawn] = (double)n / t;
    }
    printf("  the machine, %u process%s at once: bare fork+setsid+exit+wait %.0f runs/s (CPU "
           "%.3f ms per run), bare posix_spawn(/bin/true)+wait %.0f runs/s (CPU %.3f ms per "
           "run)\n", procs, procs > 1 ? "es" : "", rate[0], cpu[0] * 1e3 / (double)n, rate[1],
           cpu[1] * 1e3 / (double)n);
    *spawn_cpu_ms = cpu[1] * 1e3 / (double)n;
    return rate[1];
}

/* One harness, a fork per input and in process, -j 1 and -j 2: runs/s as
 * ratios to the goal and to the bare fork loop (runs/s `bare`). */
#define HARNESS_GOAL 2000.0
static void bench_harness_modes(const char *label, const struct harness_program *prog,
                                const char *prefix, const char *suffix, size_t suffix_len,
                                const struct sample_list *inputs, const char *results,
                                double bare, double loop)
{
    double n = (double)inputs->len;
    for (int in_process = 0; in_process <= 1; in_process++) {
        double one = -1;
        for (uint32_t j = 1; j <= 2; j++) {
            struct runner_harness h = {.argv = prog->argv, .prefix = prefix,
                                       .prefix_len = strlen(prefix), .suffix = suffix,
                                       .suffix_len = suffix_len,
                                       .in_process_runs = in_process ? 1000 : 0};
            double cpu = 0;
            double t = campaign_time_with(prog->argv, j, GCOV_NONE, NULL, &h, inputs, results,
                                          &cpu);
            if (t <= 0)
                continue;
            printf("  %s, %s, fn features, -j %u: %.0f runs/s (%.3f ms per run, CPU %.3f ms); "
                   "%.2fx the goal of 2,000/s", label,
                   in_process ? "--in-process" : "a fork per input", j, n / t, t * 1e3 / n,
                   cpu * 1e3 / n, n / t / HARNESS_GOAL);
            if (bare > 0)
                printf("; %.2fx the bare fork loop", n / t / bare);
            if (loop > 0 && !in_process && j == 1)
                printf("; %.2fx the shell loop of /bin/true", loop / t);
            if (j == 1)
                one = t;
            else if (one > 0)
                printf("; %.2fx -j 1", one / t);
            printf("\n");
        }
    }
}

/* Write `n` inputs DIR/NAME.EXT (the exprs' paths with EXT added) made by
 * `make` into *out. */
static void write_inputs(const struct sample_list *exprs, const char *ext,
                         void (*make)(FILE *, size_t), struct sample_list *out)
{
    for (size_t i = 0; i < exprs->len; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s.%s", exprs->paths[i], ext);
        FILE *f = fopen(path, "w");
        if (!f)
            continue;
        make(f, i);
        fclose(f);
        out->paths = realloc(out->paths, (out->len + 1) * sizeof *out->paths);
        out->paths[out->len++] = strdup(path);
    }
}

static void make_list(FILE *f, size_t i)
{
    fprintf(f, "[%zu,ab,[%zu]]", i, i * 7);
}

static void make_json(FILE *f, size_t i)
{
    fprintf(f, "{\"id\": %zu, \"name\": \"n%zu\", \"tags\": [true, null, %zu.5]}", i, i, i % 13);
}

static void remove_inputs(struct sample_list *inputs)
{
    for (size_t i = 0; i < inputs->len; i++)
        unlink(inputs->paths[i]);
    sample_list_free(inputs);
}

/* cJSON's own harness, built from the mirror into `dir`; false when the
 * mirror is not there or it does not build (saying so). */
static bool build_cjson(const char *dir, const char *cache, struct harness_program *prog)
{
    const char *git = getenv("CJSON_GIT");
    if (!git || !*git)
        git = "/work/.mirror/DaveGamble+cJSON/repo";
    struct stat st;
    if (stat(git, &st) != 0) {
        printf("  (no cJSON repository at %s (CJSON_GIT): cJSON's harness skipped)\n", git);
        return false;
    }
    size_t need = 4 * strlen(dir) + 3 * strlen(git) + 256;
    char *cmd = malloc(need);
    if (!cmd)
        return false;
    snprintf(cmd, need,
             "mkdir -p '%s/fuzzing' && git --git-dir='%s' show HEAD:cJSON.c >'%s/cJSON.c' && "
             "git --git-dir='%s' show HEAD:cJSON.h >'%s/cJSON.h' && git --git-dir='%s' show "
             "HEAD:fuzzing/cjson_read_fuzzer.c >'%s/fuzzing/cjson_read_fuzzer.c'",
             dir, git, dir, git, dir, git, dir);
    int rc = system(cmd);
    free(cmd);
    if (rc != 0) {
        printf("  (cannot read cJSON's harness from %s)\n", git);
        return false;
    }
    char harness[200], source[200];
    snprintf(harness, sizeof harness, "%s/fuzzing/cjson_read_fuzzer.c", dir);
    snprintf(source, sizeof source, "%s/cJSON.c", dir);
    const char *sources[] = {source};
    struct harness_spec spec = {.harness = harness, .sources = sources, .nsources = 1,
                                .cache_dir = cache};
    struct diag_list diags = DIAG_LIST_INIT;
    double t0 = bench_now();
    bool ok = harness_build(&spec, prog, &diags);
    if (ok)
        printf("  cJSON's fuzzing/cjson_read_fuzzer.c with cJSON.c built: %.2f s\n",
               bench_now() - t0);
    else
        printf("  cJSON's harness: not built (%s)\n", diags.len ? diags.items[0].message : "?");
    diag_list_free(&diags);
    return ok;
}

/* Harness mode: tests/subjects/harness_list.c built by kpath (clang,
 * function coverage, its fork server) and cJSON's harness, a fork per
 * input and in process, -j 1 and 2, against a bare fork loop, the same
 * parser as a program of its own built with --coverage and run with
 * --gcov (build/tests/subjects/harness_list), and the shell loop. */
static void bench_harness(const char *root, const struct sample_list *exprs, const char *results,
                          double loop)
{
    char src[4096], standalone[4096], build[4096], cache[] = "/tmp/kpath-bench-harness-XXXXXX";
    snprintf(src, sizeof src, "%s/tests/subjects/harness_list.c", root);
    snprintf(standalone, sizeof standalone, "%s/build/tests/subjects/harness_list", root);
    snprintf(build, sizeof build, "%s/build/tests/subjects", root);
    if (!mkdtemp(cache))
        return;
    struct harness_spec spec = {.harness = src, .cache_dir = cache};
    struct harness_program prog;
    struct diag_list diags = DIAG_LIST_INIT;
    double t0 = bench_now();
    if (!harness_build(&spec, &prog, &diags)) {
        printf("  harness: not built (%s)\n", diags.len ? diags.items[0].message : "?");
        diag_list_free(&diags);
        rmdir(cache);
        return;
    }
    printf("  harness_list.c built (clang, -fsanitize-coverage=func): %.2f s\n", bench_now() - t0);
    /* List inputs for the list parser: the same count as the others. */
    struct sample_list inputs = SAMPLE_LIST_INIT;
    write_inputs(exprs, "list", make_list, &inputs);
    double n = (double)inputs.len;
    double bare_t = bare_fork_time(inputs.len);
    double bare = bare_t > 0 ? n / bare_t : -1;
    if (bare > 0)
        printf("  a bare fork, setsid, exit, wait loop (the ceiling of a fork per input): %.0f "
               "runs/s (%.3f ms per run)\n", bare, bare_t * 1e3 / n);
    bench_harness_modes("harness_list.c", &prog, "", "", 0, &inputs, results, bare, loop);
    char *argv[] = {standalone, NULL};
    if (access(standalone, X_OK) == 0) {
        double cpu = 0;
        double t = campaign_time(argv, 1, GCOV_READER, build, &inputs, results, &cpu);
        if (t > 0)
            printf("  the same parser, its own program, --gcov, -j 1: %.0f runs/s (%.3f ms per "
                   "run, CPU %.3f ms)\n", n / t, t * 1e3 / n, cpu * 1e3 / n);
    } else {
        printf("  (no %s: make subjects for the --gcov comparison)\n", standalone);
    }
    remove_inputs(&inputs);
    harness_program_free(&prog);
    /* cJSON's harness: four flag bytes before the JSON, a NUL after it. */
    char cjson_dir[100];
    snprintf(cjson_dir, sizeof cjson_dir, "%s/cjson", cache);
    if (build_cjson(cjson_dir, cache, &prog)) {
        write_inputs(exprs, "json", make_json, &inputs);
        bench_harness_modes("cJSON's harness", &prog, "1111", "", 1, &inputs, results, bare, -1);
        remove_inputs(&inputs);
        harness_program_free(&prog);
    }
    char la[128] = "";
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf && fgets(la, sizeof la, lf))
        printf("  load average now (1, 5, 15 min): %.14s\n", la);
    if (lf)
        fclose(lf);
    diag_list_free(&diags);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    if (system(cmd) != 0)
        printf("  (could not remove %s)\n", cache);
}

void bench_run(const char *root)
{
    printf("\n== kpath run: the runner's own cost per run\n");
    char dir[] = "/tmp/kpath-bench-run-XXXXXX";
    if (!mkdtemp(dir))
        return;
    enum { N = 1000 };
    struct sample_list inputs = SAMPLE_LIST_INIT;
    for (int i = 0; i < N; i++) {
        char path[sizeof dir + 32];
        snprintf(path, sizeof path, "%s/%04d.txt", dir, i);
        FILE *f = fopen(path, "w");
        if (!f)
            continue;
        fprintf(f, "%d+%d*%d", i, i + 1, i % 7);
        fclose(f);
        inputs.paths = realloc(inputs.paths, (inputs.len + 1) * sizeof *inputs.paths);
        inputs.paths[inputs.len++] = strdup(path);
    }
    char results[sizeof dir + 32];
    snprintf(results, sizeof results, "%s/results.jsonl", dir);
    char *true_argv[] = {"/bin/true", NULL};
    printf("  where run directories go: %s\n", runner_dir_parent(NULL));
    /* CPU per run (kpath and its children) beside wall clock: on a loaded
     * machine the wall ratios mean little, the CPU ones still do. */
    double loop_cpu = 0;
    double loop = shell_loop_time(dir, &loop_cpu);
    /* -j 1 up to the cores (at least 2), each right after the machine's
     * ceiling for as many processes: a bare spawn loop in one process and
     * in N at once. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t max_jobs = cores < 2 ? 2 : cores > 8 ? 8 : (uint32_t)cores;
    double one = -1, limit_one = -1;
    for (uint32_t j = 1; j <= max_jobs; j++) {
        double spawn_cpu = 0;
        double limit = ceiling(inputs.len, j, &spawn_cpu);
        if (j == 1)
            limit_one = limit;
        double cpu = 0;
        double t = campaign_time(true_argv, j, GCOV_NONE, NULL, &inputs, results, &cpu);
        if (t <= 0)
            continue;
        double rate = (double)inputs.len / t, cpu_ms = cpu * 1e3 / (double)inputs.len;
        printf("  /bin/true, -j %u: %zu runs in %.2f s: %.0f runs/s (%.2f ms per run, CPU %.3f "
               "ms)", j, inputs.len, t, rate, t * 1e3 / (double)inputs.len, cpu_ms);
        if (loop > 0)
            printf("; %.0f%% of the shell loop's runs/s, %.2fx its CPU per run", 100.0 * loop / t,
                   loop_cpu > 0 ? cpu / loop_cpu : 0.0);
        if (j == 1)
            one = t;
        else if (one > 0)
            printf("; %.2fx -j 1", one / t);
        printf("\n");
        if (limit > 0)
            printf("    -j %u against the machine's ceiling (the bare spawn loop in %u process%s): "
                   "%.0f%% of its runs/s, %.2fx its CPU per run", j, j, j > 1 ? "es" : "",
                   100.0 * rate / limit, spawn_cpu > 0 ? cpu_ms / spawn_cpu : 0.0);
        if (limit > 0 && j > 1 && one > 0 && limit_one > 0)
            printf("; the loop scales %.2fx from 1 to %u processes, kpath %.2fx from -j 1 to -j "
                   "%u", limit / limit_one, j, one / t, j);
        if (limit > 0)
            printf("\n");
    }
    if (loop > 0)
        printf("  the shell loop (/bin/true per input): %.2f s: %.0f runs/s (CPU %.3f ms per "
               "run)\n", loop, (double)inputs.len / loop, loop_cpu * 1e3 / (double)inputs.len);
    char calc[4096], build[4096];
    snprintf(calc, sizeof calc, "%s/build/subjects/calc", root);
    snprintf(build, sizeof build, "%s/build/subjects", root);
    char *calc_argv[] = {calc, NULL};
    if (access(calc, X_OK) != 0) {
        printf("  (no %s: make subjects for the gcov figure)\n", calc);
    } else {
        double cpu[3] = {0, 0, 0};
        double plain = campaign_time(calc_argv, 1, GCOV_NONE, NULL, &inputs, results, &cpu[0]);
        double reader = campaign_time(calc_argv, 1, GCOV_READER, build, &inputs, results, &cpu[1]);
        double spawn = campaign_time(calc_argv, 1, GCOV_SPAWN, build, &inputs, results, &cpu[2]);
        double n = (double)inputs.len;
        const char *what[3] = {"no features", "--gcov, counters read directly",
                               "--gcov, a gcov process per run"};
        double wall[3] = {plain, reader, spawn};
        for (int w = 0; w < 3; w++) {
            if (wall[w] <= 0)
                continue;
            printf("  calc, -j 1, %s: %.0f runs/s, %.3f ms per run (CPU %.3f ms per run)", what[w],
                   n / wall[w], wall[w] * 1e3 / n, cpu[w] * 1e3 / n);
            if (w && plain > 0)
                printf("; +%.3f ms per run (CPU +%.3f ms)", (wall[w] - plain) * 1e3 / n,
                       (cpu[w] - cpu[0]) * 1e3 / n);
            printf("\n");
        }
        bench_reader_alone(build);
    }
    bench_harness(root, &inputs, results, loop);
    for (size_t i = 0; i < inputs.len; i++)
        unlink(inputs.paths[i]);
    sample_list_free(&inputs);
    rmdir(dir);
}
