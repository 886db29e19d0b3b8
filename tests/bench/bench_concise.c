/* Concise suites: on json and expr, full k-path coverage by `cover`, by
 * `bonsai` (with seeds, the default, and without: --mutations 0), and by
 * "generate randomly, then reduce", each also followed by
 * reduce: inputs, total and mean bytes, coverage reached and time.  Inputs
 * are measured as kpath coverage and kpath reduce measure them: by parsing
 * (every derivation tree of an ambiguous input counts), not by the tree the
 * generator built. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "suite/bonsai.h"
#include "gen/gen.h"
#include "grammar/grammar.h"
#include "parse/input_kpaths.h"
#include "suite/reduce.h"

#define DEPTH 10u
#define REPS 3u
#define RANDOM_INPUTS 1000u

static void row(const char *what, size_t n, unsigned long long bytes, unsigned long long cov,
                unsigned long long total, double ms)
{
    printf("  %-22s %6zu %8llu %8.1f %5llu/%-5llu %9.1f\n", what, n, bytes,
           n ? (double)bytes / (double)n : 0.0, cov, total, ms);
}

/* Parse every input, print the corpus's row (unless what is NULL), then
 * reduce it and print that row. */
static void measure_rows(const char *what, const struct graph *g, uint32_t k,
                         const char *const *texts, const size_t *lens, size_t n, double ms_before)
{
    double t0 = bench_now();
    struct kpath_space *sp = calloc(k, sizeof *sp);
    struct kpath_set *sets = calloc(k, sizeof *sets);
    struct kpath_set **ptrs = calloc(k, sizeof *ptrs);
    for (uint32_t j = 0; j < k; j++)
        kpath_space_init(&sp[j], g, j + 1);
    struct reduce r;
    reduce_init(&r, k);
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    unsigned long long bytes = 0;
    for (size_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < k; j++) {
            kpath_set_init(&sets[j], &sp[j]);
            ptrs[j] = &sets[j];
        }
        struct diag_list d = DIAG_LIST_INIT;
        if (!input_kpaths_text(g, "input", texts[i], lens[i], &po, ptrs, k, NULL, NULL, &d))
            printf("  (an input does not parse)\n");
        diag_list_free(&d);
        reduce_add_input(&r, "", lens[i], (const struct kpath_set *const *)ptrs, NULL, 0);
        bytes += lens[i];
        for (uint32_t j = 0; j < k; j++)
            kpath_set_free(&sets[j]);
    }
    uint64_t *per = calloc(k + 1, sizeof *per);
    reduce_coverage(&r, NULL, 0, per);
    row(what, n, bytes, (unsigned long long)per[k], (unsigned long long)sp[k - 1].total,
        ms_before);
    struct setcover_options o;
    setcover_options_default(&o);
    struct setcover_result res;
    reduce_solve(&r, &o, &res);
    double ms = ms_before + (bench_now() - t0) * 1e3;
    reduce_coverage(&r, res.chosen, res.nchosen, per);
    char label[64];
    snprintf(label, sizeof label, "%s + reduce", what);
    row(label, res.nchosen, (unsigned long long)res.cost, (unsigned long long)per[k],
        (unsigned long long)sp[k - 1].total, ms);
    printf("  %-22s   (greedy %u, lower bound %u%s)\n", "", res.greedy_count, res.lower_bound,
           res.optimal ? ", optimal" : "");
    free(per);
    setcover_result_free(&res);
    reduce_free(&r);
    for (uint32_t j = 0; j < k; j++)
        kpath_space_free(&sp[j]);
    free(sp);
    free(sets);
    free(ptrs);
}

static void from_generator(const char *what, const struct graph *g, uint32_t k,
                           enum gen_strategy s, uint32_t count)
{
    struct gen_options o;
    gen_options_default(&o);
    /* shortest, as bonsai's points close off: the rows compare like with like */
    o.closeoff = GEN_CLOSE_SHORTEST;
    o.strategy = s;
    o.k = k;
    o.max_depth = DEPTH;
    o.max_repetitions = REPS;
    o.count = count;
    char *error = NULL;
    double t0 = bench_now();
    struct generator *gen = gen_new(g, &o, &error);
    if (!gen) {
        printf("  %s: %s\n", what, error);
        free(error);
        return;
    }
    gen_run(gen);
    double ms = (bench_now() - t0) * 1e3;
    const char **texts = calloc(gen->ninputs + 1, sizeof *texts);
    size_t *lens = calloc(gen->ninputs + 1, sizeof *lens);
    for (size_t i = 0; i < gen->ninputs; i++) {
        texts[i] = gen->inputs[i].text;
        lens[i] = gen->inputs[i].len;
    }
    measure_rows(what, g, k, texts, lens, gen->ninputs, ms);
    free(texts);
    free(lens);
    gen_free(gen);
}

static void from_bonsai(const struct graph *g, uint32_t k, uint32_t mutations)
{
    struct bonsai_options o;
    bonsai_options_default(&o);
    o.k = k;
    o.mutations = mutations;
    o.max_depth = DEPTH;
    o.max_repetitions = REPS;
    char *error = NULL;
    double t0 = bench_now();
    struct bonsai *b = bonsai_new(g, &o, &error);
    if (!b) {
        printf("  bonsai: %s\n", error);
        free(error);
        return;
    }
    while (bonsai_step(b))
        ;
    double ms = (bench_now() - t0) * 1e3;
    const char **texts = calloc(b->ninputs + 1, sizeof *texts);
    size_t *lens = calloc(b->ninputs + 1, sizeof *lens);
    for (size_t i = 0; i < b->ninputs; i++) {
        texts[i] = b->inputs[i].text;
        lens[i] = b->inputs[i].len;
    }
    measure_rows(mutations ? "bonsai" : "bonsai, no seeds", g, k, texts, lens, b->ninputs, ms);
    free(texts);
    free(lens);
    bonsai_free(b);
}

void bench_concise(const char *root)
{
    static const char *const names[] = {"json", "expr"};
    printf("\n== concise suites: full k-path coverage, max depth %u, max repetitions %u\n",
           DEPTH, REPS);
    printf("  inputs, total bytes, mean bytes, K-paths covered (parsed), milliseconds (reduce: "
           "including the generation)\n");
    for (int i = 0; i < 2; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "grammars/%s.ebnf", names[i]);
        size_t len;
        char *text = bench_read(root, rel, &len);
        struct diag_list d = DIAG_LIST_INIT;
        struct grammar *gr = text ? grammar_load_string(rel, text, len, NULL, &d) : NULL;
        diag_list_free(&d);
        free(text);
        struct graph *g = gr ? graph_build(gr) : NULL;
        for (uint32_t k = 2; g && k <= 3; k++) {
            printf("  -- %s, k=%u\n", names[i], k);
            from_generator("cover (shortest)", g, k, GEN_KPATH, 0);
            from_bonsai(g, k, BONSAI_DEFAULT_MUTATIONS);
            from_bonsai(g, k, 0);
            char label[64];
            snprintf(label, sizeof label, "random %u", RANDOM_INPUTS);
            from_generator(label, g, k, GEN_RANDOM, RANDOM_INPUTS);
        }
        graph_free(g);
        grammar_free(gr);
    }
}
