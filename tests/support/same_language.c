#include "same_language.h"

#include <stdio.h>
#include <string.h>

#include "graph/graph.h"
#include "parse/parse.h"

bool same_language(const struct grammar *g, language_fn lang, const char *alphabet,
                   size_t max_len)
{
    struct graph *graph = graph_build(g);
    struct parse_options po = {.max_input_size = 1024, .max_memory = (size_t)64 << 20};
    size_t k = strlen(alphabet);
    bool same = true;
    char s[16];
    if (max_len >= sizeof s)
        max_len = sizeof s - 1;
    for (size_t len = 0; len <= max_len && same; len++) {
        size_t total = 1;
        for (size_t i = 0; i < len; i++)
            total *= k;
        for (size_t code = 0; code < total && same; code++) {
            size_t c = code;
            for (size_t i = 0; i < len; i++, c /= k)
                s[i] = alphabet[c % k];
            struct diag_list d = DIAG_LIST_INIT;
            struct forest *f = parse_text(graph, "s", s, len, &po, &d);
            bool parses = f != NULL;
            forest_free(f);
            diag_list_free(&d);
            if (parses != lang(s, len)) {
                same = false;
                fprintf(stderr, "same_language: '%.*s' is accepted by the %s only\n", (int)len, s,
                        parses ? "grammar" : "language");
            }
        }
    }
    graph_free(graph);
    return same;
}
