/* libFuzzer target for the grammar loader: any bytes must load or fail with
 * diagnostics, never crash; a grammar that loads must build a graph whose
 * k-path counts agree between dynamic programming and enumeration. */
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "graph/kpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_string("fuzz.ebnf", (const char *)data, size, NULL, &diags);
    diag_list_free(&diags);
    if (!g)
        return 0;
    struct graph *graph = graph_build(g);
    struct kpath_space sp;
    kpath_space_init(&sp, graph, 3);
    if (!sp.saturated && sp.total < 100000) {
        uint64_t n = 0;
        struct kpath_iter it;
        kpath_iter_init(&it, &sp);
        while (kpath_iter_next(&it)) {
            uint64_t r;
            if (!kpath_rank(&sp, it.path, &r) || r != n)
                __builtin_trap();
            n++;
        }
        kpath_iter_free(&it);
        if (n != sp.total)
            __builtin_trap();
    }
    kpath_space_free(&sp);
    graph_free(graph);
    grammar_free(g);
    return 0;
}
