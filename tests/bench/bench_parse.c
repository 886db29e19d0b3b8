/* Parsing benchmarks.
 *
 * Throughput against a reference: `kpath coverage -k 2` on generated JSON of
 * three shapes (pretty-printed, minified, string-heavy) at 1, 4 and 16 MB,
 * and, in the same run on the same files, python3's json.load (skipped with a
 * message when python3 is missing): MB/s, peak bytes of memory per input
 * byte, and the ratios.  The same (kpath only) for arith.ebnf, csv.ebnf and
 * url.ebnf documents, and for the ambiguous S := S S | "a" on 200 and 2,000
 * characters with its number of trees.  Each of these runs as a child process
 * (own process group and directory, a time limit, killed with its group), so
 * its peak RSS is its own.
 *
 * In-process: right recursion on one long number (items counted), and the
 * k-path coverage (k = 3) of 10,000 generated JSON inputs, parsed back; those
 * children are forked with their address space limited to BENCH_MEMORY_LIMIT. */
/* wait4: the peak RSS of one particular child. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "gen/gen.h"
#include "parse/parse.h"
#include "base/rng.h"
#include "base/strbuf.h"

#define BENCH_MEMORY_LIMIT ((uint64_t)8 << 30) /* bytes of address space per child */
#define MB (1024.0 * 1024.0)

/* ---- inputs, generated deterministically ------------------------------------ */

static void indent(struct strbuf *out, unsigned depth, bool pretty)
{
    if (!pretty)
        return;
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

/* A JSON document of about `target` bytes: a top-level array of records,
 * each nested objects and arrays (depth at most 6) of strings, numbers and
 * literals, pretty-printed (two spaces per level) or minified.  Built with an
 * explicit stack of open containers. */
static void make_json_shape(struct strbuf *out, size_t target, uint64_t seed, bool pretty)
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
                indent(out, d, pretty);
            strbuf_addch(out, open[d] == '[' ? ']' : '}');
            depth--;
            continue;
        }
        strbuf_addstr(out, items[d]++ ? "," : "");
        indent(out, depth, pretty);
        if (open[d] == '{') {
            json_string(out, &r);
            strbuf_addstr(out, pretty ? ": " : ":");
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
    if (pretty)
        strbuf_addch(out, '\n');
}

static void make_json(struct strbuf *out, size_t target, uint64_t seed)
{
    make_json_shape(out, target, seed, true);
}

static void make_json_minified(struct strbuf *out, size_t target, uint64_t seed)
{
    make_json_shape(out, target, seed, false);
}

/* String-heavy JSON: an array of long strings (20 to 400 characters of words,
 * escapes and non-ASCII text). */
static void make_json_strings(struct strbuf *out, size_t target, uint64_t seed)
{
    static const char *const pieces[] = {"lorem", "ipsum", "dolor", " ", " ", "-", "\\n",
                                         "\\\"", "\\u00e9", "caf\xc3\xa9", "\\/", "42"};
    struct rng r;
    rng_seed(&r, seed);
    strbuf_addch(out, '[');
    while (out->len < target) {
        if (out->len > 1)
            strbuf_addch(out, ',');
        strbuf_addch(out, '"');
        size_t len = 20 + rng_below(&r, 380), begin = out->len;
        while (out->len - begin < len)
            strbuf_addstr(out, pieces[rng_below(&r, sizeof pieces / sizeof pieces[0])]);
        strbuf_addch(out, '"');
    }
    strbuf_addch(out, ']');
}

/* CSV for csv.ebnf: records of 4 to 10 fields, plain or quoted (with commas,
 * line breaks and doubled quotes inside), CRLF between records. */
static void make_csv(struct strbuf *out, size_t target, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    while (out->len < target) {
        if (out->len)
            strbuf_addstr(out, "\r\n");
        unsigned fields = 4 + (unsigned)rng_below(&r, 7);
        for (unsigned i = 0; i < fields; i++) {
            if (i)
                strbuf_addch(out, ',');
            switch (rng_below(&r, 4)) {
            case 0: strbuf_addf(out, "%" PRIu64, rng_below(&r, 1000000)); break;
            case 1: strbuf_addstr(out, "\"quoted, with \"\"quotes\"\"\r\nand a line\""); break;
            case 2: break; /* empty */
            default: strbuf_addstr(out, "plain text field"); break;
            }
        }
    }
}

/* One long URL for url.ebnf: many path segments, percent escapes, a long
 * query and a fragment. */
static void make_url(struct strbuf *out, size_t target, uint64_t seed)
{
    static const char *const segments[] = {"/api", "/v2", "/items", "/caf%C3%A9", "/a-b_c.d~e",
                                           "/x:y@z", "/%20", "/42"};
    struct rng r;
    rng_seed(&r, seed);
    strbuf_addstr(out, "https://user:secret@www.example.com:8080");
    size_t half = target / 2;
    while (out->len < half)
        strbuf_addstr(out, segments[rng_below(&r, sizeof segments / sizeof segments[0])]);
    strbuf_addch(out, '?');
    while (out->len < target)
        strbuf_addf(out, "k%" PRIu64 "=v%%2F%" PRIu64 "&", rng_below(&r, 100), rng_below(&r, 1000));
    strbuf_addstr(out, "#top");
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

struct job {
    const struct graph *graph;
    size_t size;   /* inputs */
};

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
        run_coverage(job, &r);
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

/* ---- whole programs, timed side by side ------------------------------------------ */

#define CHILD_SECONDS 600.0 /* per run; then killed with its group */

static bool write_whole(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* The first or the last line of a file (a child's result or its message),
 * without its newline. */
static void one_line(const char *path, bool last, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(buf, size, "%.*s", (int)(size - 1), line);
        if (!last)
            break;
    }
    fclose(f);
}

struct side_by_side {
    const char *root, *dir, *kpath;
    bool python;         /* python3 runs */
    char python_exe[4096]; /* the interpreter itself (sys.executable) */
    char out[4096], err[4096];
};

/* Each JSON file is timed this many times, kpath and python3 by turns: on a
 * shared machine one run may be slowed by others, and the best of a few is
 * the nearest to what each program needs. */
#define JSON_ROUNDS 3

/* Keeps in *best the fewest wall-clock seconds, and apart from them the
 * fewest CPU seconds and the smallest peak, of the runs seen so far. */
static void keep_best(struct bench_run *best, const struct bench_run *r, bool first)
{
    if (first) {
        *best = *r;
        return;
    }
    if (r->seconds < best->seconds)
        best->seconds = r->seconds;
    if (r->cpu < best->cpu)
        best->cpu = r->cpu;
    if (r->peak < best->peak)
        best->peak = r->peak;
}

/* kpath coverage -k 2 GRAMMAR FILE, once; false (having printed why) if it
 * failed. */
static bool run_kpath_once(struct side_by_side *sb, const char *grammar, const char *file,
                           double bytes, struct bench_run *r)
{
    char gpath[4096];
    snprintf(gpath, sizeof gpath, "%s/%s", sb->root, grammar);
    /* Generated documents end a little past their size; the budget is wide
     * enough to measure what a parse takes (B/B says whether the defaults do). */
    char *argv[] = {(char *)sb->kpath, "coverage", "-k", "2", "--max-input-size", "64M",
                    "--max-memory", "10G", gpath, (char *)file, NULL};
    bench_run_child(argv, sb->dir, sb->out, sb->err, CHILD_SECONDS, r);
    if (!r->finished || r->status != 0) {
        char line[300];
        one_line(sb->err, true, line, sizeof line);
        printf("kpath failed after %.1f s, peak %.0f B/B (%s)", r->seconds, r->peak / bytes,
               r->finished ? line : "killed: time limit or signal");
        return false;
    }
    return true;
}

static void print_run(const char *who, const struct bench_run *r, double bytes)
{
    printf("%s %6.2f MB/s %6.1f B/B, %.2f s CPU", who, bytes / MB / r->seconds, r->peak / bytes,
           r->cpu);
}

static void json_row(struct side_by_side *sb, const char *shape, double megabytes,
                     void (*make)(struct strbuf *, size_t, uint64_t))
{
    struct strbuf doc = STRBUF_INIT;
    make(&doc, (size_t)(megabytes * MB), 42);
    char file[4096];
    snprintf(file, sizeof file, "%s/%s-%g.json", sb->dir, shape, megabytes);
    double bytes = (double)doc.len;
    bool written = write_whole(file, doc.data, doc.len);
    strbuf_free(&doc);
    printf("  %-8s %4.0f MB: ", shape, megabytes);
    if (!written) {
        printf("cannot write %s\n", file);
        return;
    }
    struct bench_run k = {0}, py = {0}, r;
    bool kok = true, pyok = sb->python;
    for (int round = 0; round < JSON_ROUNDS && (kok || pyok); round++) {
        if (kok && (kok = run_kpath_once(sb, "grammars/json.ebnf", file, bytes, &r)))
            keep_best(&k, &r, round == 0);
        if (pyok) {
            char *argv[] = {sb->python_exe, "-c",
                            "import json,sys; json.load(open(sys.argv[1]))", file, NULL};
            bench_run_child(argv, sb->dir, "/dev/null", sb->err, CHILD_SECONDS, &r);
            if ((pyok = r.finished && r.status == 0))
                keep_best(&py, &r, round == 0);
        }
    }
    if (kok)
        print_run("kpath", &k, bytes);
    if (sb->python) {
        if (pyok) {
            print_run(" | python3", &py, bytes);
            if (kok)
                printf(" | kpath takes %4.1fx the time, %4.1fx the CPU time, %4.1fx the memory",
                       k.seconds / py.seconds, k.cpu / py.cpu, k.peak / py.peak);
        } else {
            printf(" | python3 failed");
        }
    }
    printf("\n");
    remove(file);
}

static void other_row(struct side_by_side *sb, const char *name, const char *grammar,
                      double megabytes, void (*make)(struct strbuf *, size_t, uint64_t))
{
    struct strbuf doc = STRBUF_INIT;
    make(&doc, (size_t)(megabytes * MB), 42);
    char file[4096];
    snprintf(file, sizeof file, "%s/%s-%g.txt", sb->dir, name, megabytes);
    double bytes = (double)doc.len;
    bool written = write_whole(file, doc.data, doc.len);
    strbuf_free(&doc);
    printf("  %-8s %4.0f MB: ", name, megabytes);
    struct bench_run k;
    if (written) {
        if (run_kpath_once(sb, grammar, file, bytes, &k))
            print_run("kpath", &k, bytes);
    } else
        printf("cannot write %s", file);
    printf("\n");
    remove(file);
}

/* S := S S | "a" on n characters: every binary bracketing is a tree (the
 * Catalan number C(n-1) of them), so the forest has about n^3/6 packed nodes. */
static void ambiguous_row(struct side_by_side *sb, size_t n)
{
    char grammar[4096], file[4096];
    snprintf(grammar, sizeof grammar, "%s/ambiguous.ebnf", sb->dir);
    snprintf(file, sizeof file, "%s/a-%zu.txt", sb->dir, n);
    static const char text[] = "S := S S | \"a\";\n";
    char *as = malloc(n);
    memset(as, 'a', n);
    bool written = write_whole(grammar, text, sizeof text - 1) && write_whole(file, as, n);
    free(as);
    printf("  S := S S | \"a\", %5zu characters: ", n);
    if (!written) {
        printf("cannot write %s\n", file);
        return;
    }
    char *argv[] = {(char *)sb->kpath, "coverage", "-k", "2", grammar, file, NULL};
    struct bench_run r;
    bench_run_child(argv, sb->dir, sb->out, sb->err, CHILD_SECONDS, &r);
    char line[300];
    if (r.finished && r.status == 0) {
        one_line(sb->out, false, line, sizeof line);
        const char *trees = strstr(line, "; ");
        printf("%.2f s, peak %.0f MiB%s\n", r.seconds, r.peak / MB, trees ? trees : "");
    } else {
        one_line(sb->err, true, line, sizeof line);
        printf("failed after %.1f s, peak %.0f MiB: %s\n", r.seconds, r.peak / MB,
               r.finished ? line : "killed: time limit or signal");
    }
    remove(file);
    remove(grammar);
}

/* -j 1, 2 and 4 on the same corpus: wall clock (the point of -j) and peak. */
static void jobs_rows(struct side_by_side *sb)
{
    char corpus[4096], file[4200], gpath[4096];
    snprintf(corpus, sizeof corpus, "%s/corpus", sb->dir);
    snprintf(gpath, sizeof gpath, "%s/grammars/json.ebnf", sb->root);
    if (mkdir(corpus, 0700) != 0) {
        printf("  cannot make %s\n", corpus);
        return;
    }
    double bytes = 0;
    bool written = true;
    for (int i = 0; i < 8 && written; i++) {
        struct strbuf doc = STRBUF_INIT;
        make_json(&doc, (size_t)MB, 100 + (uint64_t)i);
        snprintf(file, sizeof file, "%s/%d.json", corpus, i);
        written = write_whole(file, doc.data, doc.len);
        bytes += (double)doc.len;
        strbuf_free(&doc);
    }
    for (int jobs = 1; written && jobs <= 4; jobs *= 2) {
        char j[16];
        snprintf(j, sizeof j, "%d", jobs);
        char *argv[] = {(char *)sb->kpath, "coverage", "-k", "2", "-j", j, gpath, corpus, NULL};
        struct bench_run r;
        bench_run_child(argv, sb->dir, sb->out, sb->err, CHILD_SECONDS, &r);
        printf("  -j %d: ", jobs);
        if (r.finished && r.status == 0)
            printf("%.2f s, %6.2f MB/s, peak %.0f MiB\n", r.seconds, bytes / MB / r.seconds,
                   r.peak / MB);
        else
            printf("failed after %.1f s\n", r.seconds);
    }
    for (int i = 0; i < 8; i++) {
        snprintf(file, sizeof file, "%s/%d.json", corpus, i);
        remove(file);
    }
    rmdir(corpus);
}

/* What the forest holds per character, for 1 MB of each JSON shape (the
 * forest in docs/design/parser.md): parsed in a forked child, like run_coverage. */
static void forest_shapes(const struct graph *json)
{
    static const struct {
        const char *name;
        void (*make)(struct strbuf *, size_t, uint64_t);
    } shapes[] = {{"pretty", make_json}, {"minified", make_json_minified},
                  {"strings", make_json_strings}};
    printf("\n== parsing: the forest per character of 1 MB of JSON (json.ebnf)\n");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return;
        if (pid == 0) {
            struct rlimit rl = {BENCH_MEMORY_LIMIT, BENCH_MEMORY_LIMIT};
            setrlimit(RLIMIT_AS, &rl);
            struct strbuf doc = STRBUF_INIT;
            shapes[i].make(&doc, (size_t)MB, 42);
            struct parse_options po = {.max_input_size = doc.len + 1};
            struct diag_list d = DIAG_LIST_INIT;
            struct forest *f = parse_text(json, "bench", doc.data, doc.len, &po, &d);
            if (f) {
                struct forest_stats st;
                forest_stats(f, &st);
                double c = (double)st.chars;
                printf("  %-8s items %.2f, symbols %.2f, links %.2f, packed %.2f per character, "
                       "%.0f pending at most; forest %.0f bytes per character\n",
                       shapes[i].name, st.items / c, st.symbols / c, st.links / c,
                       st.packed / c, (double)st.pending, st.bytes / c);
                forest_free(f);
                /* The same parse without a forest: items made and the most
                 * held at once (finished ones are collected). */
                struct parse_stats ps;
                po.stats = &ps;
                uint64_t trees;
                bool infinite;
                if (parse_kpaths(json, "bench", doc.data, doc.len, &po, NULL, 0, NULL, &trees,
                                 &infinite, &d))
                    printf("  %-8s without a forest: %.2f items made per character (%.2f "
                           "built, the deterministic fast path stood for %.0f%% of the sets, "
                           "%.0f%% replayed from %zu transitions), "
                           "at most %zu held, %zu and %zu collections of items and of chain "
                           "sets\n",
                           shapes[i].name, (double)ps.items_made / c,
                           (double)(ps.items_made - ps.items_skipped) / c,
                           100.0 * (double)ps.sets_skipped / c,
                           100.0 * (double)ps.sets_replayed / c, ps.transitions, ps.items_peak,
                           ps.item_collections, ps.set_collections);
            } else {
                printf("  %-8s does not parse\n", shapes[i].name);
            }
            diag_list_free(&d);
            strbuf_free(&doc);
            fflush(stdout);
            _exit(0);
        }
        waitpid(pid, NULL, 0);
    }
}

static void side_by_side(const char *root)
{
    struct side_by_side sb = {.root = root};
    char dir[] = "/tmp/kpath-bench-XXXXXX";
    char kpath[4096];
    if (!mkdtemp(dir)) {
        printf("  not measured: cannot make a temporary directory\n");
        return;
    }
    sb.dir = dir;
    snprintf(kpath, sizeof kpath, "%s/build/kpath", root);
    sb.kpath = kpath;
    snprintf(sb.out, sizeof sb.out, "%s/out", dir);
    snprintf(sb.err, sizeof sb.err, "%s/err", dir);
    /* Timed is the interpreter that `python3` names, not `python3` itself:
     * that may be a launcher (pyenv's shim, a shell script, adds about 0.2 s
     * of its own per run), which would make python look slower than it is. */
    char *probe[] = {"python3", "-c", "import json,sys; print(sys.executable)", NULL};
    struct bench_run r;
    bench_run_child(probe, dir, sb.out, sb.err, CHILD_SECONDS, &r);
    sb.python_exe[0] = '\0';
    if (r.finished && r.status == 0)
        one_line(sb.out, false, sb.python_exe, sizeof sb.python_exe);
    sb.python = sb.python_exe[0] == '/';

    printf("\n== parsing: kpath coverage -k 2 and python3's json.load on the same files, one "
           "process a run, best of %d runs by turns (MB/s: wall clock, including start-up; "
           "B/B: peak RSS per input byte; CPU: user + system seconds)\n", JSON_ROUNDS);
    if (!sb.python)
        printf("  python3 is missing (or has no json module): its columns are skipped\n");
    else
        printf("  python3 is %s (timed directly, without a launcher's start-up)\n",
               sb.python_exe);
    static const struct {
        const char *name;
        void (*make)(struct strbuf *, size_t, uint64_t);
    } shapes[] = {{"pretty", make_json}, {"minified", make_json_minified},
                  {"strings", make_json_strings}};
    static const double sizes[] = {1, 4, 16};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            json_row(&sb, shapes[s].name, sizes[i], shapes[s].make);

    printf("\n== parsing: kpath coverage -k 2 on the other bundled formats\n");
    for (double mb = 1; mb <= 4; mb *= 4) {
        other_row(&sb, "arith", "grammars/arith.ebnf", mb, make_arith);
        other_row(&sb, "csv", "grammars/csv.ebnf", mb, make_csv);
        other_row(&sb, "url", "grammars/url.ebnf", mb, make_url);
    }

    printf("\n== parsing: an ambiguous grammar (kpath coverage -k 2, default --max-memory)\n");
    ambiguous_row(&sb, 200);
    ambiguous_row(&sb, 1000);
    ambiguous_row(&sb, 2000);

    printf("\n== parsing: a corpus of 8 pretty JSON files of 1 MB, kpath coverage -k 2 -j N\n");
    jobs_rows(&sb);
    remove(sb.out);
    remove(sb.err);
    rmdir(dir);
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

/* ---- invalid samples beside the same made valid ------------------------------ */

/* One kpath run as a child on `text`: "  LABEL: s, CPU s, peak MiB". */
static void error_run(const char *dir, const char *kpath, const char *command,
                      const char *grammar, const char *label, const char *text, size_t len)
{
    char file[4096], out[4096], err[4096];
    snprintf(file, sizeof file, "%s/sample.txt", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    printf("    %-9s %-8s: ", command, label);
    if (!write_whole(file, text, len)) {
        printf("cannot write %s\n", file);
        return;
    }
    char *argv[] = {(char *)kpath, (char *)command, "--max-memory", "10G", (char *)grammar, file,
                    NULL};
    struct bench_run r;
    bench_run_child(argv, dir, "/dev/null", err, CHILD_SECONDS, &r);
    char line[300];
    one_line(err, true, line, sizeof line);
    if (!r.finished)
        snprintf(line, sizeof line, "killed: %s", r.stopped ? r.stopped : "a limit");
    printf("%7.2f s, %6.2f s CPU, peak %7.1f MiB, exit %d%s%s\n", r.seconds, r.cpu, r.peak / MB,
           r.finished ? r.status : -1, line[0] ? ": " : "", line);
    remove(file);
    remove(out);
}

/* Issue 38: an invalid sample must cost no more than the same sample made
 * valid.  N := "0" N | "0" on "(" and n zeros without and with the ")";
 * an arith.ebnf expression of 12 KB, half of it one long number (Int :=
 * Digit Int | Digit), ending in "+" (invalid) or "+1"; and kpath coverage
 * of 30 KB of the same.  The error pass once parsed again
 * without lookahead: quadratic on right recursion. */
void bench_parse_errors(const char *root)
{
    char dir[] = "/tmp/kpath-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        printf("  not measured: cannot make a temporary directory\n");
        return;
    }
    char kpath[4096], zeros[4096], arith[4096];
    snprintf(kpath, sizeof kpath, "%s/build/kpath", root);
    snprintf(zeros, sizeof zeros, "%s/zeros.ebnf", dir);
    snprintf(arith, sizeof arith, "%s/grammars/arith.ebnf", root);
    static const char grammar[] = "S := \"(\" N \")\";\nN := \"0\" N | \"0\";\n";
    printf("\n== parsing: invalid samples beside the same made valid (one process a run; "
           "peak RSS)\n");
    if (!write_whole(zeros, grammar, sizeof grammar - 1)) {
        printf("  not measured: cannot write %s\n", zeros);
        rmdir(dir);
        return;
    }
    for (size_t n = 1000; n <= 16000; n *= 2) {
        char *text = malloc(n + 2);
        text[0] = '(';
        memset(text + 1, '0', n);
        text[n + 1] = ')';
        printf("  N := \"0\" N | \"0\", \"(\" and %zu zeros:\n", n);
        error_run(dir, kpath, "parse", zeros, "invalid", text, n + 1);
        error_run(dir, kpath, "parse", zeros, "valid", text, n + 2);
        free(text);
    }
    /* arith.ebnf's Int := Digit Int | Digit is right-recursive too. */
    static const struct {
        const char *command;
        size_t bytes;
    } ariths[] = {{"parse", 12000}, {"coverage", 30000}};
    for (size_t i = 0; i < sizeof ariths / sizeof ariths[0]; i++) {
        struct strbuf doc = STRBUF_INIT;
        make_arith(&doc, ariths[i].bytes / 2, 42);
        strbuf_addch(&doc, '+');
        while (doc.len < ariths[i].bytes)
            strbuf_addch(&doc, (char)('0' + doc.len % 10));
        strbuf_addch(&doc, '+');
        printf("  arith.ebnf, %zu bytes: an expression, a number of %zu digits, then \"+\" "
               "(invalid) or \"+1\":\n", doc.len, ariths[i].bytes - ariths[i].bytes / 2);
        error_run(dir, kpath, ariths[i].command, arith, "invalid", doc.data, doc.len);
        strbuf_addch(&doc, '1');
        error_run(dir, kpath, ariths[i].command, arith, "valid", doc.data, doc.len);
        strbuf_free(&doc);
    }
    remove(zeros);
    rmdir(dir);
}

/* KPATH_BENCH_WRITE=DIR: only write the files the side-by-side rows parse
 * (JSON of each shape at 1, 4 and 16 MB, arith, CSV and URL at 1 MB), named
 * SHAPE-MB.json and NAME-1.txt, to time them by hand or to compare two
 * builds with coverage_compare.sh. */
static void write_files(const char *dir)
{
    static const struct {
        const char *name, *ext;
        void (*make)(struct strbuf *, size_t, uint64_t);
        double largest;
    } files[] = {{"pretty", "json", make_json, 16},     {"minified", "json", make_json_minified, 16},
                 {"strings", "json", make_json_strings, 16}, {"arith", "txt", make_arith, 1},
                 {"csv", "txt", make_csv, 1},              {"url", "txt", make_url, 1}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        for (double mb = 1; mb <= files[i].largest; mb *= 4) {
            struct strbuf doc = STRBUF_INIT;
            files[i].make(&doc, (size_t)(mb * MB), 42);
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%g.%s", dir, files[i].name, mb, files[i].ext);
            printf("  %s: %s\n", path, write_whole(path, doc.data, doc.len) ? "written" : "FAILED");
            strbuf_free(&doc);
        }
}

void bench_parsing(const char *root)
{
    if (getenv("KPATH_BENCH_WRITE")) {
        write_files(getenv("KPATH_BENCH_WRITE"));
        return;
    }
    struct grammar *json_grammar, *arith_grammar;
    struct graph *json = load(root, "grammars/json.ebnf", &json_grammar);
    struct graph *arith = load(root, "grammars/arith.ebnf", &arith_grammar);
    if (arith)
        right_recursion(arith);
    if (json)
        forest_shapes(json);
    side_by_side(root);
    if (json) {
        printf("\n== parsing: k-path coverage (k = 3) of 10,000 random JSON inputs, parsed back\n");
        struct job job = {json, 10000};
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
