/* Benchmark of `kpath run`'s own cost: runs per second of a trivial command
 * (/bin/true) on 1,000 inputs with 1 and 2 workers, through the campaign's
 * step API as the CLI drives it (run directory emptied, input copy,
 * fork/exec, pipes, kill, record appended), against a plain shell loop
 * (`for f in DIR/NAME...; do /bin/true <"$f"; done`) timed in the same run, as
 * ratios (the goal: >= 90% of the loop at -j 1, about 2x at -j 2 on 2
 * cores); then the extra time per run of gcov collection on the bundled
 * subject (build/subjects/calc).  Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "run/campaign.h"
#include "run/collect.h"
#include "run/runner.h"
#include "base/samples.h"

/* Seconds for running every input of `inputs` through argv, or -1. */
static double campaign_time(char *const *argv, uint32_t jobs, const char *gcov_dir,
                            const struct sample_list *inputs, const char *results)
{
    struct collector cols[2];
    size_t ncols = 0;
    struct diag_list diags = DIAG_LIST_INIT;
    collector_outcome(&cols[ncols++]);
    if (gcov_dir && !collector_gcov(&cols[ncols++], gcov_dir, false, &diags)) {
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
                                            .max_memory = (uint64_t)1 << 32},
                                 .argv = argv, .collectors = cols, .ncollectors = ncols,
                                 .results_path = results, .header = &h,
                                 .max_input_size = 1 << 20, .keep_going = true};
    double start = bench_now();
    struct campaign *c = campaign_open(&o, inputs, &diags);
    enum campaign_state st = c ? CAMPAIGN_RUNNING : CAMPAIGN_FAILED;
    while (st == CAMPAIGN_RUNNING)
        st = campaign_step(c, 100, &diags);
    double took = bench_now() - start;
    campaign_free(c);
    for (size_t i = 0; i < ncols; i++)
        collector_free(&cols[i]);
    if (diags.errors)
        fprintf(stderr, "bench run: %s\n", diags.items[0].message);
    diag_list_free(&diags);
    unlink(results);
    return st == CAMPAIGN_DONE ? took : -1;
}

/* Seconds for a shell loop that runs /bin/true once per input, or -1. */
static double shell_loop_time(const char *dir)
{
    char script[512];
    snprintf(script, sizeof script, "for f in %s/*.txt; do /bin/true <\"$f\"; done", dir);
    double start = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    return bench_now() - start;
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
    double loop = shell_loop_time(dir);
    double one = -1;
    for (uint32_t j = 1; j <= 2; j++) {
        double t = campaign_time(true_argv, j, NULL, &inputs, results);
        if (t <= 0)
            continue;
        printf("  /bin/true, -j %u: %zu runs in %.2f s: %.0f runs/s (%.2f ms per run)", j,
               inputs.len, t, (double)inputs.len / t, t * 1e3 / (double)inputs.len);
        if (loop > 0)
            printf("; %.0f%% of the shell loop's runs/s", 100.0 * loop / t);
        if (j == 1)
            one = t;
        else if (one > 0)
            printf("; %.2fx -j 1", one / t);
        printf("\n");
    }
    if (loop > 0)
        printf("  the shell loop (/bin/true per input): %.2f s: %.0f runs/s\n", loop,
               (double)inputs.len / loop);
    char calc[4096], build[4096];
    snprintf(calc, sizeof calc, "%s/build/subjects/calc", root);
    snprintf(build, sizeof build, "%s/build/subjects", root);
    char *calc_argv[] = {calc, NULL};
    if (access(calc, X_OK) != 0) {
        printf("  (no %s: make subjects for the gcov figure)\n", calc);
    } else {
        double plain = campaign_time(calc_argv, 1, NULL, &inputs, results);
        double gcov = campaign_time(calc_argv, 1, build, &inputs, results);
        if (plain > 0 && gcov > 0)
            printf("  calc, -j 1: %.2f ms per run without features, %.2f ms with --gcov: "
                   "gcov collection costs %.2f ms per run\n",
                   plain * 1e3 / (double)inputs.len, gcov * 1e3 / (double)inputs.len,
                   (gcov - plain) * 1e3 / (double)inputs.len);
    }
    for (size_t i = 0; i < inputs.len; i++)
        unlink(inputs.paths[i]);
    sample_list_free(&inputs);
    rmdir(dir);
}
