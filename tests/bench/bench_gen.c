/* Generation benchmarks: for expr, json, url and csv and k = 1, 2, 3, 5, the
 * number of inputs and their mean size for full k-path coverage with each
 * close-off, and the time to make them; inputs per second for `random`. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "gen.h"

static void table_row(const struct graph *g, const char *name, uint32_t k)
{
    printf("  %-6s %2u", name, k);
    for (int c = GEN_CLOSE_SHORTEST; c <= GEN_CLOSE_GREEDY; c++) {
        struct gen_options o;
        gen_options_default(&o);
        o.k = k;
        o.closeoff = (enum gen_closeoff)c;
        char *error;
        double t0 = bench_now();
        struct generator *gen = gen_new(g, &o, &error);
        if (!gen) {
            printf(" | %s", error);
            free(error);
            continue;
        }
        gen_run(gen);
        double took = bench_now() - t0;
        size_t bytes = 0;
        for (size_t i = 0; i < gen->ninputs; i++)
            bytes += gen->inputs[i].len;
        double mean = gen->ninputs ? (double)bytes / (double)gen->ninputs : 0;
        printf(" | %5zu %7.1f %8.1f%s", gen->ninputs, mean, took * 1e3,
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
    printf("  inputs, mean bytes and milliseconds per close-off; * = not full coverage\n");
    printf("  %-6s %2s | %-22s | %-22s | %-22s\n", "", "k", "shortest", "random", "greedy");
    for (int i = 0; i < 4; i++) {
        if (!graphs[i])
            continue;
        static const uint32_t ks[] = {1, 2, 3, 5};
        for (int j = 0; j < 4; j++)
            table_row(graphs[i], names[i], ks[j]);
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
