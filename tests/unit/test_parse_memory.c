/* The parser's memory budget (--max-memory) bounds what a parse really takes:
 * the peak resident size of a parse, and of the passes over its forest that
 * every command runs (tree count, k-paths), grows by no more than the budget.
 * Measured in a child process, whose peak RSS is its own.  Under
 * AddressSanitizer resident sizes mean nothing (shadow memory, quarantine):
 * there only the outcome of the parses is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support/load.h"
#include "harness.h"
#include "parse/parse.h"
#include "base/strbuf.h"

#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEANINGFUL 0
#endif
#endif
#ifndef RSS_MEANINGFUL
#define RSS_MEANINGFUL 1
#endif

#define MIB (1024.0 * 1024.0)

static double peak_rss(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss * 1024.0;
}

/* About `bytes` of pretty-printed JSON: an array of small records. */
static void make_document(struct strbuf *doc, size_t bytes)
{
    strbuf_addstr(doc, "[\n");
    for (unsigned i = 0; doc->len < bytes; i++)
        strbuf_addf(doc, "  {\"id\": %u, \"name\": \"record number %u\", \"tags\": [1, 2.5, true, "
                         "null], \"ok\": false},\n", i, i);
    strbuf_addstr(doc, "  {}\n]\n");
}

struct outcome {
    int parsed;      /* 1: a forest; 0: refused */
    double growth;   /* bytes the peak RSS grew by during parse and passes */
};

/* In a child: parse `doc` under `budget`, then count trees and 2-paths. */
static bool measure(const struct graph *g, const struct strbuf *doc, size_t budget,
                    struct outcome *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        close(fds[0]);
        struct outcome o = {0, 0};
        double before = peak_rss();
        struct parse_options po = {.max_input_size = doc->len + 1, .max_memory = budget};
        struct diag_list d = DIAG_LIST_INIT;
        struct forest *f = parse_text(g, "doc", doc->data, doc->len, &po, &d);
        if (f) {
            o.parsed = 1;
            bool infinite;
            forest_count_trees(f, &infinite);
            struct kpath_space sp;
            kpath_space_init(&sp, g, 2);
            struct kpath_set set;
            kpath_set_init(&set, &sp);
            forest_add_kpaths(f, &set);
            kpath_set_free(&set);
            kpath_space_free(&sp);
            forest_free(f);
        }
        o.growth = peak_rss() - before;
        diag_list_free(&d);
        _exit(write(fds[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], out, sizeof *out);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof *out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(parse_memory_budget_covers_the_parse_and_the_passes_over_its_forest)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct strbuf doc = STRBUF_INIT;
    make_document(&doc, 256u << 10);
    /* Budgets from far too small to enough, 25% apart: each run is refused
     * or parses, and either way its peak grew by no more than its budget.
     * (From 8 MiB: what does not grow with the input, such as the grammar's
     * FIRST and FOLLOW sets and the heap's own pages, is not budgeted, and
     * weighs about 0.1 MiB.) */
    unsigned refused = 0, parsed = 0;
    for (double budget = 8 * MIB; budget <= 256 * MIB; budget *= 1.25) {
        struct outcome o;
        if (!CHECK(measure(l.graph, &doc, (size_t)budget, &o)))
            break;
        o.parsed ? parsed++ : refused++;
        if (RSS_MEANINGFUL && !CHECK(o.growth <= budget))
            fprintf(stderr, "  peak RSS grew by %.1f MiB under a %.1f MiB budget (%s)\n",
                    o.growth / MIB, budget / MIB, o.parsed ? "parsed" : "refused");
    }
    CHECK(refused > 0);
    CHECK(parsed > 0);
    strbuf_free(&doc);
    test_unload(&l);
}
