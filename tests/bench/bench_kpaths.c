/* Benchmarks for the core: loading, graph building, counting k-paths for
 * k = 1..10 and enumerating all 5-paths, on expr.ebnf, json.ebnf and a
 * generated grammar of 2,000 rules.  Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/random_grammar.h"
#include "bench.h"
#include "graph/kpath.h"

#define now bench_now

/* Upper bound on paths enumerated per grammar, so a run stays short. */
#define ENUMERATE_AT_MOST UINT64_C(200000000)

static void bench(const char *name, const char *text, size_t len)
{
    struct diag_list diags = DIAG_LIST_INIT;
    double t0 = now();
    struct grammar *g = grammar_load_string(name, text, len, NULL, &diags);
    double t1 = now();
    diag_list_free(&diags);
    if (!g) {
        printf("%s: does not load\n", name);
        return;
    }
    struct graph *graph = graph_build(g);
    double t2 = now();
    printf("\n%s: %u rules, %u nodes (%u symbolic); load %.2f ms, graph %.2f ms\n", name,
           g->nrules, graph->nnodes, graph->nsymbolic, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    printf("  %-3s %22s %12s\n", "k", "k-paths", "count (ms)");
    for (uint32_t k = 1; k <= 10; k++) {
        enum { REPEAT = 20 };
        struct kpath_space sp;
        double start = now();
        for (int r = 0; r < REPEAT; r++) {
            kpath_space_init(&sp, graph, k);
            if (r + 1 < REPEAT)
                kpath_space_free(&sp);
        }
        double per = (now() - start) / REPEAT;
        if (sp.saturated)
            printf("  %-3u %22s %12.3f\n", k, "saturated", per * 1e3);
        else
            printf("  %-3u %22llu %12.3f\n", k, (unsigned long long)sp.total, per * 1e3);
        kpath_space_free(&sp);
    }
    struct kpath_space sp;
    kpath_space_init(&sp, graph, 5);
    struct kpath_iter it;
    kpath_iter_init(&it, &sp);
    uint64_t n = 0, checksum = 0;
    double start = now();
    while (n < ENUMERATE_AT_MOST && kpath_iter_next(&it)) {
        checksum += it.path[4];
        n++;
    }
    double took = now() - start;
    kpath_iter_free(&it);
    printf("  enumerate 5-paths: %llu%s in %.1f ms, %.1f million/s (checksum %llu)\n",
           (unsigned long long)n, n < sp.total ? " (stopped early)" : "", took * 1e3,
           took > 0 ? (double)n / took / 1e6 : 0.0, (unsigned long long)checksum);
    kpath_space_free(&sp);
    graph_free(graph);
    grammar_free(g);
}

void bench_core(const char *root)
{
    printf("\n== core: loading, graph, counting and enumerating k-paths\n");
    static const char *const bundled[] = {"grammars/expr.ebnf", "grammars/json.ebnf"};
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        size_t len;
        char *text = bench_read(root, bundled[i], &len);
        if (!text) {
            printf("%s: cannot read\n", bundled[i]);
            continue;
        }
        bench(bundled[i], text, len);
        free(text);
    }
    char *generated = random_grammar(42, 2000);
    bench("generated (2,000 rules, seed 42)", generated, strlen(generated));
    free(generated);
}
