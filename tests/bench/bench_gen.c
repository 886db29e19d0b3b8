/* Generation benchmarks: for expr, json, url and csv and k = 1, 2, 3, 5, the
 * number of inputs and their total size for full k-path coverage with each
 * close-off (redundant inputs dropped, as `kpath cover` does), next to the
 * published k-path tool's inputs, and the time to make them; inputs per
 * second for `random`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gen.h"

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
    for (int c = GEN_CLOSE_SHORTEST; c <= GEN_CLOSE_GREEDY; c++) {
        struct gen_options o;
        gen_options_default(&o);
        o.k = k;
        o.closeoff = (enum gen_closeoff)c;
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
    printf("  inputs, total bytes and milliseconds per close-off (greedy is the default);\n"
           "  * = not full coverage; published: the published tool's inputs, own grammars\n");
    printf("  %-6s %2s %9s | %-22s | %-22s | %-22s\n", "", "k", "published", "shortest", "random",
           "greedy");
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
