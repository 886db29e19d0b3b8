#include "gen_case.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "graph/graph.h"
#include "random_grammar.h"

const char *gen_case_run(const uint8_t *data, size_t size)
{
    char *random_text = NULL;
    bool is_random = size >= 1 && data[0] == 0;
    const char *text = (const char *)data;
    size_t len = size;
    if (is_random) {
        uint64_t seed = 0;
        for (size_t i = 1; i < 9 && i < size; i++)
            seed = seed << 8 | data[i];
        uint32_t rules = 1 + (size > 9 ? data[9] : 0);
        random_text = random_grammar(seed, rules);
        text = random_text;
        len = strlen(random_text);
    }
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_string("fuzz.ebnf", text, len, NULL, &diags);
    diag_list_free(&diags);
    free(random_text);
    if (!g)
        return is_random ? "a random grammar did not load" : NULL;
    struct graph *graph = graph_build(g);
    struct gen_options opts;
    gen_options_default(&opts);
    opts.strategy = GEN_KPATH;
    opts.k = 2;
    const char *wrong = NULL;
    char *error = NULL;
    struct generator *gen = gen_new(graph, &opts, &error);
    if (gen) {
        gen_run(gen);
        for (size_t i = 0; i < gen->ninputs && !wrong; i++)
            if (gen->inputs[i].depth > opts.max_depth)
                wrong = "an input deeper than --max-depth";
        gen_free(gen);
    }
    free(error);
    graph_free(graph);
    grammar_free(g);
    return wrong;
}
