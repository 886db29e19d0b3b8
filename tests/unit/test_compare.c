/* Unit tests of gen/compare: by hand on growth.ebnf (five 1-paths: "a",
 * "b", B, "c", "d"), and the same options giving the same curves. */
#include <stdlib.h>

#include "gen/compare.h"
#include "harness.h"
#include "workspace/workspace.h"

TEST(compare_by_hand)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("tests/grammars/ok/growth.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    if (!ws)
        return;
    struct gen_options o;
    gen_options_default(&o);
    o.k = 1;
    struct gen_compare c, again;
    char *error = NULL;
    CHECK(gen_compare_run(ws->graph, &o, 6, &c, &error));
    CHECK(gen_compare_run(ws->graph, &o, 6, &again, &error));
    CHECK_INT(c.total, 5);
    CHECK_INT(c.n, 6);
    /* the k-path strategy covers the five 1-paths in at most three inputs
     * ("a", "bc", "bd": no input holds more than three), then stops */
    CHECK(c.made[COMPARE_KPATH] <= 3);
    CHECK_INT(c.covered[COMPARE_KPATH][6], 5);
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        CHECK_INT(c.covered[s][0], 0);
        for (size_t i = 1; i <= 6; i++) {
            /* an input of growth.ebnf holds "a" (one 1-path) or "b" B and
             * "c" or "d" (three): each adds at most three */
            CHECK(c.covered[s][i] >= c.covered[s][i - 1]);
            CHECK(c.covered[s][i] <= c.covered[s][i - 1] + 3);
            CHECK(c.covered[s][i] <= 5);
            CHECK_INT(c.covered[s][i], again.covered[s][i]);
        }
        CHECK_INT(c.made[s], again.made[s]);
    }
    CHECK_INT(c.made[COMPARE_RANDOM], 6);
    gen_compare_free(&c);
    gen_compare_free(&again);
    workspace_free(ws);
}
