/* Parsing benchmarks: throughput of the Earley parser on generated JSON
 * documents (1, 2 and 10 MB, pretty-printed) with grammars/json.ebnf and on
 * long arithmetic expressions (1 and 2 MB) with grammars/arith.ebnf, so that
 * the time per MB of n and 2n bytes shows whether parsing is linear; and the
 * k-path coverage (k = 3) of 10,000 generated JSON inputs, parsed back.
 *
 * Every measurement runs in a child process, which builds its own input, so
 * that its peak RSS is its own and an allocation failure cannot take the
 * whole benchmark down: the child's address space is limited to
 * BENCH_MEMORY_LIMIT, and a child that dies is reported as such. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gen.h"
#include "parse.h"
#include "rng.h"
#include "strbuf.h"

#define BENCH_MEMORY_LIMIT ((uint64_t)8 << 30) /* bytes of address space per child */
#define MB (1024.0 * 1024.0)

/* ---- inputs, generated deterministically ------------------------------------ */

static void indent(struct strbuf *out, unsigned depth)
{
    strbuf_addch(out, '\n');
    for (unsigned i = 0; i < depth; i++)
        strbuf_addstr(out, "  ");
}

static void json_string(struct strbuf *out, struct rng *r)
{
    static const char *const words[] = {"alpha", "beta", "gamma", "delta", "kpath", "grammar",
                                        "coverage", "earley", "forest", "node", "id", "value"};
    strbuf_addch(out, '"');
    unsigned n = 1 + (unsigned)rng_below(r, 4);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            strbuf_addch(out, rng_below(r, 8) ? ' ' : '-');
        strbuf_addstr(out, words[rng_below(r, sizeof words / sizeof words[0])]);
    }
    switch (rng_below(r, 16)) {
    case 0: strbuf_addstr(out, "\\n"); break;
    case 1: strbuf_addstr(out, "\\\"quoted\\\""); break;
    case 2: strbuf_addstr(out, "\\u00e9"); break;
    case 3: strbuf_addstr(out, " caf\xc3\xa9"); break; /* é, UTF-8 */
    default: break;
    }
    strbuf_addch(out, '"');
}

static void json_number(struct strbuf *out, struct rng *r)
{
    if (rng_below(r, 4) == 0)
        strbuf_addch(out, '-');
    strbuf_addf(out, "%" PRIu64, rng_below(r, 100000));
    if (rng_below(r, 3) == 0)
        strbuf_addf(out, ".%02" PRIu64, rng_below(r, 100));
    if (rng_below(r, 10) == 0)
        strbuf_addf(out, "e%s%" PRIu64, rng_below(r, 2) ? "-" : "+", rng_below(r, 30));
}

/* A pretty-printed JSON document of about `target` bytes: a top-level array of
 * records, each nested objects and arrays (depth at most 6) of strings,
 * numbers and literals.  Built with an explicit stack of open containers. */
static void make_json(struct strbuf *out, size_t target, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    enum { MAX_DEPTH = 7 };
    char open[MAX_DEPTH + 1];   /* '[' or '{' per open container */
    unsigned items[MAX_DEPTH + 1];
    unsigned depth = 1;
    open[0] = '[';
    items[0] = 0;
    strbuf_addch(out, '[');
    while (depth) {
        unsigned d = depth - 1;
        bool top = d == 0;
        bool close = top ? out->len >= target
                         : out->len >= target || items[d] >= 8 ||
                               (items[d] > 0 && rng_below(&r, 6) == 0);
        if (close) {
            if (items[d])
                indent(out, d);
            strbuf_addch(out, open[d] == '[' ? ']' : '}');
            depth--;
            continue;
        }
        strbuf_addstr(out, items[d]++ ? "," : "");
        indent(out, depth);
        if (open[d] == '{') {
            json_string(out, &r);
            strbuf_addstr(out, ": ");
        }
        unsigned pick = (unsigned)rng_below(&r, top ? 1 : 10);
        if (pick == 0 && depth < MAX_DEPTH) {
            char c = top || rng_below(&r, 3) ? '{' : '[';
            strbuf_addch(out, c);
            open[depth] = c;
            items[depth] = 0;
            depth++;
        } else if (pick <= 3) {
            json_string(out, &r);
        } else if (pick <= 7) {
            json_number(out, &r);
        } else {
            static const char *const literals[] = {"true", "false", "null"};
            strbuf_addstr(out, literals[rng_below(&r, 3)]);
        }
    }
    strbuf_addch(out, '\n');
}

/* An arithmetic expression of about `target` bytes for arith.ebnf: sums and
 * products of short numbers, unary minus, parentheses nested up to 5 deep. */
static void make_arith(struct strbuf *out, size_t target, uint64_t seed)
{
    static const char ops[] = "+-*/";
    struct rng r;
    rng_seed(&r, seed);
    unsigned depth = 0;
    for (;;) {
        /* An operand. */
        while (depth < 5 && rng_below(&r, 8) == 0) {
            strbuf_addch(out, '(');
            depth++;
        }
        if (rng_below(&r, 16) == 0)
            strbuf_addch(out, '-');
        strbuf_addf(out, "%" PRIu64, 1 + rng_below(&r, 999));
        while (depth && rng_below(&r, 4) == 0) {
            strbuf_addch(out, ')');
            depth--;
        }
        if (out->len >= target)
            break;
        strbuf_addch(out, ops[rng_below(&r, 4)]);
    }
    while (depth--)
        strbuf_addch(out, ')');
}

/* ---- measuring in a child process -------------------------------------------- */

struct result {
    int ok;                  /* 1: measured; 0: the child said why in `note` */
    double bytes, make_seconds, parse_seconds, kpath_seconds;
    double items, trees;
    double inputs, covered, total;
    double peak_rss;         /* bytes */
    char note[160];
};

static double peak_rss_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss * 1024.0;
}

enum job_kind { JOB_JSON, JOB_ARITH, JOB_COVERAGE };

struct job {
    enum job_kind kind;
    const struct graph *graph;
    size_t size;   /* bytes of the document, or inputs for JOB_COVERAGE */
};

static void run_document(const struct job *job, struct result *res)
{
    struct strbuf doc = STRBUF_INIT;
    double t0 = bench_now();
    if (job->kind == JOB_JSON)
        make_json(&doc, job->size, 42);
    else
        make_arith(&doc, job->size, 42);
    res->make_seconds = bench_now() - t0;
    res->bytes = (double)doc.len;
    struct parse_options po = {.max_input_size = doc.len + 1};
    struct diag_list diags = DIAG_LIST_INIT;
    t0 = bench_now();
    struct forest *f = parse_text(job->graph, "bench", doc.data, doc.len, &po, &diags);
    res->parse_seconds = bench_now() - t0;
    if (!f) {
        snprintf(res->note, sizeof res->note, "does not parse: %s",
                 diags.len ? diags.items[0].message : "?");
        diag_list_free(&diags);
        strbuf_free(&doc);
        return;
    }
    res->items = (double)forest_item_count(f);
    bool infinite;
    res->trees = (double)forest_count_trees(f, &infinite);
    struct kpath_space sp;
    kpath_space_init(&sp, job->graph, 3);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    t0 = bench_now();
    forest_add_kpaths(f, &set);
    res->kpath_seconds = bench_now() - t0;
    res->covered = (double)set.size;
    res->total = (double)sp.total;
    kpath_set_free(&set);
    kpath_space_free(&sp);
    forest_free(f);
    strbuf_free(&doc);
    res->ok = 1;
}

static void run_coverage(const struct job *job, struct result *res)
{
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_RANDOM;
    o.count = (uint32_t)job->size;
    o.k = 3;
    char *error = NULL;
    double t0 = bench_now();
    struct generator *gen = gen_new(job->graph, &o, &error);
    if (!gen) {
        snprintf(res->note, sizeof res->note, "cannot generate: %s", error ? error : "?");
        free(error);
        return;
    }
    gen_run(gen);
    res->make_seconds = bench_now() - t0;
    struct kpath_space sp;
    kpath_space_init(&sp, job->graph, 3);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    size_t failed = 0;
    double bytes = 0, parse = 0, kpaths = 0;
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct diag_list diags = DIAG_LIST_INIT;
        double t1 = bench_now();
        struct forest *f = parse_text(job->graph, "generated", gen->inputs[i].text,
                                      gen->inputs[i].len, NULL, &diags);
        double t2 = bench_now();
        parse += t2 - t1;
        bytes += (double)gen->inputs[i].len;
        diag_list_free(&diags);
        if (!f) {
            failed++;
            continue;
        }
        forest_add_kpaths(f, &set);
        kpaths += bench_now() - t2;
        forest_free(f);
    }
    res->inputs = (double)gen->ninputs;
    res->bytes = bytes;
    res->parse_seconds = parse;
    res->kpath_seconds = kpaths;
    res->covered = (double)set.size;
    res->total = (double)sp.total;
    if (failed)
        snprintf(res->note, sizeof res->note, "%zu generated inputs did not parse", failed);
    else
        res->ok = 1;
    kpath_set_free(&set);
    kpath_space_free(&sp);
    gen_free(gen);
}

/* Run the job in a child; false when the child died (out of memory, say). */
static bool measure(const struct job *job, struct result *res)
{
    memset(res, 0, sizeof *res);
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(res->note, sizeof res->note, "fork failed");
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        struct rlimit rl = {BENCH_MEMORY_LIMIT, BENCH_MEMORY_LIMIT};
        setrlimit(RLIMIT_AS, &rl);
        struct result r = {0};
        if (job->kind == JOB_COVERAGE)
            run_coverage(job, &r);
        else
            run_document(job, &r);
        r.peak_rss = peak_rss_bytes();
        ssize_t w = write(fds[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], res, sizeof *res);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof *res) {
        memset(res, 0, sizeof *res);
        if (WIFSIGNALED(status))
            snprintf(res->note, sizeof res->note, "the measuring process died (signal %d%s)",
                     WTERMSIG(status),
                     WTERMSIG(status) == SIGABRT ? ": out of memory within the limit" : "");
        else
            snprintf(res->note, sizeof res->note, "the measuring process failed (status %d)",
                     WEXITSTATUS(status));
        return false;
    }
    return true;
}

/* ---- the report ---------------------------------------------------------------- */

static struct graph *load(const char *root, const char *relative, struct grammar **grammar)
{
    size_t len;
    char *text = bench_read(root, relative, &len);
    struct diag_list d = DIAG_LIST_INIT;
    *grammar = text ? grammar_load_string(relative, text, len, NULL, &d) : NULL;
    diag_list_free(&d);
    free(text);
    return *grammar ? graph_build(*grammar) : NULL;
}

/* One document: prints a line, returns seconds per MB (0 when it failed). */
static double document_row(const char *name, enum job_kind kind, const struct graph *g,
                           double megabytes)
{
    struct job job = {kind, g, (size_t)(megabytes * MB)};
    struct result r;
    printf("  %-5s %5.1f MB: ", name, megabytes);
    fflush(stdout);
    if (!measure(&job, &r) || !r.ok) {
        printf("not measured: %s\n", r.note);
        return 0;
    }
    double mb = r.bytes / MB;
    printf("parse %6.2f s, %5.2f MB/s, %5.2f s/MB, %5.1f items/byte, k=3 paths %5.2f s, "
           "peak RSS %6.0f MiB (%.0f MiB/MB)\n",
           r.parse_seconds, mb / r.parse_seconds, r.parse_seconds / mb, r.items / r.bytes,
           r.kpath_seconds, r.peak_rss / MB, r.peak_rss / MB / mb);
    return r.parse_seconds / mb;
}

static void doubling(const char *name, double per_mb_n, double per_mb_2n)
{
    if (per_mb_n > 0 && per_mb_2n > 0)
        printf("  %-5s doubling the input multiplies the time by %.2f (2.00 = linear)\n", name,
               2.0 * per_mb_2n / per_mb_n);
}

/* Right recursion: arith's Int := Digit Int | Digit on one long number. */
static void right_recursion(const struct graph *arith)
{
    printf("\n== parsing: right recursion (arith.ebnf, one number of N digits)\n");
    for (size_t n = 8000; n <= 64000; n *= 2) {
        char *digits = malloc(n + 1);
        memset(digits, '7', n);
        digits[n] = '\0';
        struct diag_list d = DIAG_LIST_INIT;
        double t0 = bench_now();
        struct forest *f = parse_text(arith, "digits", digits, n, NULL, &d);
        double took = bench_now() - t0;
        printf("  %6zu digits: %8.3f s, %zu items%s\n", n, took, f ? forest_item_count(f) : 0,
               f ? "" : " (did not parse)");
        forest_free(f);
        diag_list_free(&d);
        free(digits);
    }
}

void bench_parsing(const char *root)
{
    struct grammar *json_grammar, *arith_grammar;
    struct graph *json = load(root, "grammars/json.ebnf", &json_grammar);
    struct graph *arith = load(root, "grammars/arith.ebnf", &arith_grammar);
    if (arith)
        right_recursion(arith);
    printf("\n== parsing: throughput (generated inputs, seed 42; each in its own process, "
           "at most %" PRIu64 " GiB)\n", BENCH_MEMORY_LIMIT >> 30);
    if (json) {
        double one = document_row("json", JOB_JSON, json, 1);
        double two = document_row("json", JOB_JSON, json, 2);
        double ten = document_row("json", JOB_JSON, json, 10);
        doubling("json", one, two);
        if (one > 0 && ten > 0)
            printf("  json  ten times the input multiplies the time by %.2f (10.00 = linear)\n",
                   10.0 * ten / one);
    }
    if (arith) {
        double one = document_row("arith", JOB_ARITH, arith, 1);
        double two = document_row("arith", JOB_ARITH, arith, 2);
        doubling("arith", one, two);
    }
    if (json) {
        printf("\n== parsing: k-path coverage (k = 3) of 10,000 random JSON inputs, parsed back\n");
        struct job job = {JOB_COVERAGE, json, 10000};
        struct result r;
        fflush(stdout);
        if (!measure(&job, &r) || !r.ok) {
            printf("  not measured: %s\n", r.note);
        } else {
            printf("  %.0f inputs, %.1f MB (mean %.0f bytes): generated in %.2f s; parsed in "
                   "%.2f s (%.0f inputs/s, %.2f MB/s); k-paths from the forests %.2f s\n",
                   r.inputs, r.bytes / MB, r.bytes / r.inputs, r.make_seconds, r.parse_seconds,
                   r.inputs / r.parse_seconds, r.bytes / MB / r.parse_seconds, r.kpath_seconds);
            printf("  covered %.0f of %.0f 3-paths (%.1f%%); peak RSS %.0f MiB\n", r.covered,
                   r.total, 100.0 * r.covered / r.total, r.peak_rss / MB);
        }
    }
    graph_free(json);
    grammar_free(json_grammar);
    graph_free(arith);
    grammar_free(arith_grammar);
}
