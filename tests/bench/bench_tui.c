/* Benchmark of the explorer's responsiveness: the time from a key to a new
 * frame (ui_key, then ui_draw of the whole 100x30 screen), in memory, no
 * terminal, on grammars with millions of k-paths.  The bar is "well
 * under 50 ms" per key.  Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../ui/app.h"
#include "../../ui/term.h"
#include "bench.h"

struct timing {
    double total, worst;
    unsigned n;
};

static void one_key(struct ui *ui, int key, struct timing *t)
{
    double start = bench_now();
    ui_key(ui, key);
    while (ui->job == JOB_SEARCH) /* a search is a job: count it in full */
        ui_job_slice(ui, 0.03);
    ui_draw(ui);
    double took = bench_now() - start;
    if (getenv("KPATH_BENCH_DEBUG") && took > 0.005)
        fprintf(stderr, "key %d: %.1f ms\n", key, took * 1e3);
    t->total += took;
    if (took > t->worst)
        t->worst = took;
    t->n++;
}

static void run(const char *title, const char *grammar, uint32_t k, char *const *samples,
                size_t nsamples)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(grammar, NULL, &d);
    if (!ws) {
        printf("  %s: does not load\n", title);
        diag_list_free(&d);
        return;
    }
    double t0 = bench_now();
    workspace_set_k(ws, k, &d);
    if (nsamples)
        workspace_add_samples(ws, samples, nsamples, &d);
    diag_list_free(&d);
    double t1 = bench_now();
    static struct ui ui;
    ui_init(&ui, ws);
    ui.script_mode = true;
    screen_resize(&ui.scr, 100, 30);
    double t2 = bench_now();
    ui_draw(&ui);
    double first = bench_now() - t2;

    /* A walk through the k-paths pane and the others: moving, paging, the
     * far end of the list, filters, patterns, the graph and detail panes. */
    static const int walk[] = {
        'j', 'j', 'j', 4 /* C-d */, 4, 'G', 'k', 'g', 6 /* C-f */, 'f', 'G', 'f', 'G', 'f',
        'p', 'j', 'G', 'p', '1', 'j', 'j', 'l', 'h', 'G', 'g', '2', 'n', 'N', '6', '3', 'j',
        '5', '4', '2', 'u', 'G', 'g',
    };
    struct timing t = {0, 0, 0};
    for (int round = 0; round < 5; round++)
        for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++)
            one_key(&ui, walk[i], &t);
    /* a search over the whole list, run as a job as the terminal does */
    struct timing s = {0, 0, 0};
    ui.focus = PANE_KPATHS;
    double ss = bench_now();
    ui_search(&ui, "\"4\"_48", false);
    while (ui.job)
        ui_job_slice(&ui, 0.03);
    ui_draw(&ui);
    s.total = bench_now() - ss;
    printf("  %-34s %10llu %9llu %8.1f %8.2f %8.2f %8.2f %9.1f\n", title,
           (unsigned long long)ws->space.total, (unsigned long long)ws->covered.size,
           (t1 - t0) * 1e3, first * 1e3, t.total / t.n * 1e3, t.worst * 1e3, s.total * 1e3);
    ui_free(&ui);
}

/* Typing a paste into the command line key by key (readline's own key
 * handling, the terminal's command line in script mode): the line holds
 * 8192 bytes, the rest is dropped; no frame drawn in between.  Before issue
 * 38 every key drew a frame and copied the line (10 KB took 6.7-19 s in
 * tmux, quadratic); in tmux now 10 KB 0.5 s, 1 MB 2-3.5 s, where the pty
 * alone takes 0.5-0.9 s (tests/tui/tmux.sh has no timing). */
static void paste(const char *grammar)
{
    printf("\nTUI: a paste into the : command line, key by key (ms)\n");
    printf("  %-12s %10s %12s\n", "bytes", "ms", "us per byte");
    static const size_t sizes[] = {1000, 10000, 100000, 1000000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        struct diag_list d = DIAG_LIST_INIT;
        struct workspace *ws = workspace_new(grammar, NULL, &d);
        diag_list_free(&d);
        if (!ws)
            return;
        static struct ui ui;
        ui_init(&ui, ws);
        ui.script_mode = true;
        screen_resize(&ui.scr, 100, 30);
        term_script_begin(&ui);
        ui.front_key(&ui, ':');
        double start = bench_now();
        for (size_t n = 0; n < sizes[i]; n++)
            ui.front_key(&ui, 'a' + (int)(n % 26));
        ui_draw(&ui);
        double took = bench_now() - start;
        printf("  %-12zu %10.1f %12.2f\n", sizes[i], took * 1e3, took * 1e6 / (double)sizes[i]);
        term_script_end(&ui);
        ui_free(&ui);
    }
}

void bench_tui(const char *root)
{
    printf("\nTUI: a key and a full 100x30 redraw, in memory (ms; the goal is well under 50)\n");
    printf("  %-34s %10s %9s %8s %8s %8s %8s %9s\n", "grammar", "k-paths", "covered", "setup",
           "1st draw", "key avg", "key max", "search");
    char path[4096];
    snprintf(path, sizeof path, "%s/grammars/expr.ebnf", root);
    char s1[4200], s2[4200];
    snprintf(s1, sizeof s1, "%s/tests/tui/samples/expr/x-plus-42.txt", root);
    snprintf(s2, sizeof s2, "%s/tests/tui/samples/expr/product.txt", root);
    char *samples[2] = {s1, s2};
    run("expr.ebnf, k=2", path, 2, samples, 2);
    run("expr.ebnf, k=8 (a million k-paths)", path, 8, samples, 2);
    run("expr.ebnf, k=9", path, 9, samples, 2);
    /* thousands of rules, all reachable: a long chain with cross references */
    struct strbuf g = STRBUF_INIT;
    enum { RULES = 3000 };
    for (unsigned i = 0; i < RULES; i++)
        strbuf_addf(&g, "R%u := R%u \"a\" | R%u \"b\" R%u | \"c\" | \"(\" R0 \")\";\n", i,
                    (i + 1) % RULES, (i * 7 + 3) % RULES, (i * 13 + 5) % RULES);
    char tmp[] = "/tmp/kpath-bench-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        bool ok = write(fd, g.data, g.len) == (ssize_t)g.len;
        close(fd);
        if (ok) {
            run("3000 rules, k=2", tmp, 2, NULL, 0);
            run("3000 rules, k=4", tmp, 4, NULL, 0);
        }
        unlink(tmp);
    }
    strbuf_free(&g);
    paste(path);
}
