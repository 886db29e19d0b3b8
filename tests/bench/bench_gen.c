/* Generation benchmarks: for expr, json, url and csv and k = 1, 2, 3, 5, the
 * number of inputs and their total size for full k-path coverage with each
 * close-off (redundant inputs dropped, as `kpath cover` does), next to the
 * published k-path tool's inputs, and the time to make them; inputs per
 * second for `random`.  bench_big_grammars: `kpath cover` as a whole program
 * on big grammars (random ones of 1,000, 10,000 and 100,000 rules, a deep
 * nested alternation, a very wide rule): wall clock and peak memory, each
 * run a child under a time limit. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/random_grammar.h"
#include "bench.h"
#include "gen/gen.h"
#include "base/strbuf.h"
#include "suite/suite_min.h"

/* The published k-path tool's inputs for full coverage, k = 1, 2, 3, 5, on
 * its own JSON, CSV and URL grammars (issue 10.4 quotes them); 0: none. */
static uint32_t published(const char *name, int j)
{
    static const uint32_t json[] = {40, 35, 58, 201}, csv[] = {42, 38, 51, 221},
                          url[] = {43, 45, 72, 552};
    return strcmp(name, "json") == 0 ? json[j] : strcmp(name, "csv") == 0 ? csv[j]
         : strcmp(name, "url") == 0  ? url[j] : 0;
}

static void table_row(const struct graph *g, const char *name, uint32_t k, int j)
{
    printf("  %-6s %2u", name, k);
    if (published(name, j))
        printf(" %9u", published(name, j));
    else
        printf(" %9s", "-");
    /* c = 3: greedy and the final pass, as `kpath cover` runs by default */
    for (int c = GEN_CLOSE_SHORTEST; c <= GEN_CLOSE_GREEDY + 1; c++) {
        struct gen_options o;
        gen_options_default(&o);
        o.k = k;
        o.closeoff = c > GEN_CLOSE_GREEDY ? GEN_CLOSE_GREEDY : (enum gen_closeoff)c;
        o.drop_redundant = true;
        char *error;
        double t0 = bench_now();
        struct generator *gen = gen_new(g, &o, &error);
        if (!gen) {
            printf(" | %s", error);
            free(error);
            continue;
        }
        gen_run(gen);
        struct suite_min_report rep;
        if (c > GEN_CLOSE_GREEDY)
            suite_min_run(gen, &rep);
        double took = bench_now() - t0;
        size_t bytes = 0;
        for (size_t i = 0; i < gen->ninputs; i++)
            bytes += gen->inputs[i].len;
        printf(" | %5zu %7zu %8.1f%s", gen->ninputs, bytes, took * 1e3,
               gen->covered.size == gen->space.total ? "" : "*");
        gen_free(gen);
    }
    printf("\n");
}

static void random_rate(const struct graph *g, const char *name)
{
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_RANDOM;
    o.count = 2000;
    char *error;
    double t0 = bench_now();
    struct generator *gen = gen_new(g, &o, &error);
    gen_run(gen);
    double took = bench_now() - t0;
    size_t bytes = 0;
    for (size_t i = 0; i < gen->ninputs; i++)
        bytes += gen->inputs[i].len;
    printf("  %-6s %8.0f inputs/s (mean %.1f bytes)\n", name, (double)gen->ninputs / took,
           (double)bytes / (double)gen->ninputs);
    gen_free(gen);
}

/* The last line of a child's output that starts with `prefix`, trimmed. */
static void line_starting(const char *path, const char *prefix, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *at = line + strspn(line, " ");
        if (strncmp(at, prefix, strlen(prefix)) == 0)
            snprintf(buf, size, "%.*s", (int)(size - 1), at);
    }
    fclose(f);
}

/* One `kpath cover` run on a grammar text under a CPU-time limit (and ten
 * times that in wall clock); prints its row. */
static void cover_row(const char *dir, const char *kpath, const char *name, const char *text,
                      char *const options[], double cpu_seconds)
{
    char gpath[4096], out[4096], err[4096];
    snprintf(gpath, sizeof gpath, "%s/grammar.ebnf", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    FILE *f = fopen(gpath, "wb");
    bool written = f && fputs(text, f) != EOF;
    if (f && fclose(f) != 0)
        written = false;
    if (!written) {
        printf("  %-40s not measured: cannot write the grammar\n", name);
        return;
    }
    char *argv[16] = {(char *)kpath, "cover"};
    int argc = 2;
    for (int i = 0; options[i] && argc < 14; i++)
        argv[argc++] = options[i];
    argv[argc++] = gpath;
    argv[argc] = NULL;
    struct bench_run r;
    bench_run_child_cpu(argv, dir, out, err, cpu_seconds, 10 * cpu_seconds, &r);
    if (!r.finished) {
        printf("  %-40s not finished: stopped by %s (%.0f CPU s, or %.0f s of wall clock) "
               "after %.1f CPU s and %.0f s of wall clock, signal %d, load average %.1f\n",
               name, r.stopped, cpu_seconds, 10 * cpu_seconds, r.cpu, r.seconds, r.signal,
               r.load);
    } else if (r.status != 0) {
        char line[300];
        line_starting(err, "kpath", line, sizeof line);
        printf("  %-40s failed (exit %d) after %.2f s: %s\n", name, r.status, r.seconds, line);
    } else {
        /* "inputs: N, ..." and the last "k=K: covered/total (...)" row */
        char inputs[300], covered[300];
        line_starting(err, "inputs:", inputs, sizeof inputs);
        line_starting(err, "k=", covered, sizeof covered);
        unsigned long long n = 0, kpaths = 0;
        const char *slash = strchr(covered, '/');
        if (sscanf(inputs, "inputs: %llu", &n) != 1 || !slash ||
            sscanf(slash + 1, "%llu", &kpaths) != 1 || kpaths == 0)
            printf("  %-40s %7.2f %7.2f %8.1f  no summary: '%s' '%s'\n", name, r.cpu,
                   r.seconds, r.peak / (1024.0 * 1024.0), inputs, covered);
        else
            printf("  %-40s %7.2f %7.2f %8.1f %8llu %7.4f %6.1f  %s\n", name, r.cpu, r.seconds,
                   r.peak / (1024.0 * 1024.0), n, (double)n / (double)kpaths,
                   r.cpu * 1e6 / (double)kpaths, covered);
    }
    remove(gpath);
    remove(out);
    remove(err);
}

/* The 1,000-rule random grammar `copies` times over (rules renamed C<i>_R<n>)
 * under one start rule S := C0_R0 | C1_R0 | ...: a grammar that grows
 * without changing its shape (the random grammars get deeper as they grow,
 * see below). */
static char *copies_of_random(uint32_t copies)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "S :=");
    for (uint32_t i = 0; i < copies; i++)
        strbuf_addf(&sb, "%s C%u_R0", i ? " |" : "", i);
    strbuf_addstr(&sb, ";\n");
    char *one = random_grammar(42, 1000);
    for (uint32_t i = 0; i < copies; i++)
        for (const char *p = one; *p; p++) {
            if (*p == 'R') /* only rule names have capitals */
                strbuf_addf(&sb, "C%u_", i);
            strbuf_addch(&sb, *p);
        }
    free(one);
    return strbuf_detach(&sb, NULL);
}

/* `kpath cover` on big grammars, as issue 17.3 measured it.  Each run is
 * limited by its CPU time (ten minutes; five for 100,000 rules), not by the
 * wall clock: on a machine shared with other builds the wall clock of the
 * 100,000-rule run (under a minute of CPU) passed the old five-minute
 * wall-clock limit and the row was skipped.  A run stopped anyway says by
 * what, after how much CPU and wall-clock time, and at what load.
 *
 * Three families of 1,000 to 100,000 rules tell the size of the grammar from
 * its shape: the random grammars as cover runs by default; the same with the
 * depth limit out of the way (--max-depth 40; --keep-redundant, so no row
 * has the last pass, which runs below 100,000 k-paths only); and copies of
 * the 1,000-rule one, which grow without getting deeper. */
void bench_big_grammars(const char *root)
{
    char dir[] = "/tmp/kpath-bench-XXXXXX", kpath[4096];
    if (!mkdtemp(dir)) {
        printf("  not measured: cannot make a temporary directory\n");
        return;
    }
    snprintf(kpath, sizeof kpath, "%s/build/kpath", root);
    printf("\n== generation: kpath cover on big grammars, one process each (CPU and wall "
           "clock, peak RSS, defaults otherwise)\n");
    printf("  %-40s %7s %7s %8s %8s %7s %6s  %s\n", "grammar, options", "CPU s", "wall s",
           "peak MiB", "inputs", "in/kp", "us/kp", "coverage of the k-paths (kp)");
    static char *k2[] = {"-k", "2", NULL};
    static char *deep[] = {"-k", "2", "--max-depth", "40", "--keep-redundant", NULL};
    static char *kept[] = {"-k", "2", "--keep-redundant", NULL};
    static char **const options[] = {k2, deep, kept};
    static const uint32_t sizes[] = {1000, 10000, 100000};
    for (int family = 0; family < 3; family++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            char *text, name[64];
            if (family < 2) {
                text = random_grammar(42, sizes[i]);
                snprintf(name, sizeof name, "random, %u rules%s", sizes[i],
                         family ? ", deep, kept" : "");
            } else {
                text = copies_of_random(sizes[i] / 1000);
                snprintf(name, sizeof name, "%u x 1,000 rules, kept", sizes[i] / 1000);
            }
            cover_row(dir, kpath, name, text, options[family], sizes[i] >= 100000 ? 300.0 : 600.0);
            free(text);
        }
    printf("  (-k 2; deep: --max-depth 40; kept: --keep-redundant; in/kp: inputs per k-path of "
           "the grammar; us/kp: CPU microseconds per k-path; * below: --max-size 100000)\n");
    /* S := (((("a" | "b") | "b") ...) | "b"), n deep: under the default
     * size budget, and with a budget that lets every k-path in: then its
     * suite has n + 1 inputs of up to n + 1 tree nodes, about n^2 / 2 tree
     * nodes in all, so twice as deep is four times the work by definition. */
    static const int depths[] = {5000, 10000};
    static char *k1[] = {"-k", "1", NULL};
    static char *k1big[] = {"-k", "1", "--max-size", "100000", NULL};
    for (int j = 0; j < 3; j++) {
        int n = depths[j == 0 ? 1 : j - 1];
        struct strbuf sb = STRBUF_INIT;
        strbuf_addstr(&sb, "S := ");
        for (int i = 0; i < n; i++)
            strbuf_addch(&sb, '(');
        strbuf_addstr(&sb, "\"a\"");
        for (int i = 0; i < n; i++)
            strbuf_addstr(&sb, " | \"b\")");
        strbuf_addstr(&sb, ";\n");
        char name[64];
        snprintf(name, sizeof name, "nested alternation, %d deep, -k 1%s", n,
                 j ? " *" : "");
        cover_row(dir, kpath, name, strbuf_str(&sb), j ? k1big : k1, 600.0);
        strbuf_free(&sb);
    }
    /* S := R0 ... R<n-1>; Ri := "x" | "y"; its smallest input has 3n + 1
     * tree nodes, so the size budget is raised to let it generate. */
    static const int widths[] = {100000, 200000};
    static char *wide[] = {"-k", "2", "--max-size", "10000000", NULL};
    for (int j = 0; j < 2; j++) {
        struct strbuf sb = STRBUF_INIT;
        strbuf_addstr(&sb, "S :=");
        for (int i = 0; i < widths[j]; i++)
            strbuf_addf(&sb, " R%d", i);
        strbuf_addstr(&sb, ";\n");
        for (int i = 0; i < widths[j]; i++)
            strbuf_addf(&sb, "R%d := \"x\" | \"y\";\n", i);
        char name[64];
        snprintf(name, sizeof name, "S := R0 ... R%d, -k 2", widths[j] - 1);
        cover_row(dir, kpath, name, strbuf_str(&sb), wide, 600.0);
        strbuf_free(&sb);
    }
    rmdir(dir);
}

void bench_generation(const char *root)
{
    static const char *const names[] = {"expr", "json", "url", "csv"};
    struct graph *graphs[4] = {0};
    struct grammar *grammars[4] = {0};
    for (int i = 0; i < 4; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "grammars/%s.ebnf", names[i]);
        size_t len;
        char *text = bench_read(root, rel, &len);
        struct diag_list d = DIAG_LIST_INIT;
        grammars[i] = text ? grammar_load_string(rel, text, len, NULL, &d) : NULL;
        diag_list_free(&d);
        free(text);
        graphs[i] = grammars[i] ? graph_build(grammars[i]) : NULL;
    }
    printf("\n== generation: full k-path coverage (kpath strategy, seed 1, max depth %u)\n",
           GEN_DEFAULT_MAX_DEPTH);
    printf("  inputs, total bytes and milliseconds per close-off; default: greedy and then\n"
           "  the last pass (suite_min: set covers, trees shrunk), as kpath cover runs;\n"
           "  * = not full coverage;\n"
           "  published: the published tool's inputs, own grammars\n");
    printf("  %-6s %2s %9s | %-22s | %-22s | %-22s | %-22s\n", "", "k", "published", "shortest",
           "random", "greedy", "default");
    for (int i = 0; i < 4; i++) {
        if (!graphs[i])
            continue;
        static const uint32_t ks[] = {1, 2, 3, 5};
        for (int j = 0; j < 4; j++)
            table_row(graphs[i], names[i], ks[j], j);
    }
    printf("\n== generation: random strategy throughput (2,000 inputs)\n");
    for (int i = 0; i < 4; i++)
        if (graphs[i])
            random_rate(graphs[i], names[i]);
    for (int i = 0; i < 4; i++) {
        graph_free(graphs[i]);
        grammar_free(grammars[i]);
    }
}
