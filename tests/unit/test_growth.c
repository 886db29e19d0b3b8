/* Unit tests of the coverage growth curve: values worked out by hand on
 * tests/grammars/ok/growth.ebnf, and the last point of the curve agreeing
 * with the workspace's own coverage after generating. */
#include <stdlib.h>

#include "workspace/growth.h"
#include "harness.h"
#include "workspace/workspace.h"

TEST(growth_by_hand)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("tests/grammars/ok/growth.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    if (!ws)
        return;
    const char *samples[] = {"bc", "a", "bd", "bc"};
    for (size_t i = 0; i < 4; i++)
        CHECK(workspace_add_sample(ws, "s", samples[i], 2 - (i == 1), &d));
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    struct coverage_growth g;
    growth_compute(ws, 3, &g);
    CHECK_INT(g.kmax, 3);
    CHECK_INT(g.ninputs, 4);
    /* 1-paths "a" "b" B "c" "d"; 2-paths B->"c" B->"d"; no 3-paths */
    CHECK_INT(g.total[0], 5);
    CHECK_INT(g.total[1], 2);
    CHECK_INT(g.total[2], 0);
    /* "bc": b B c; "a": + a; "bd": + d; "bc" again: nothing new */
    const uint64_t k1[] = {0, 3, 4, 5, 5}, k2[] = {0, 1, 1, 2, 2};
    for (size_t i = 0; i <= 4; i++) {
        CHECK_INT(growth_covered(&g, 1, i), k1[i]);
        CHECK_INT(growth_covered(&g, 2, i), k2[i]);
        CHECK_INT(growth_covered(&g, 3, i), 0);
        /* nothing to cover at k = 3: full */
        CHECK(growth_fraction(&g, 3, i) == 1.0);
    }
    CHECK(growth_fraction(&g, 1, 0) == 0.0);
    CHECK(growth_fraction(&g, 1, 1) == 0.6);
    CHECK(growth_fraction(&g, 2, 2) == 0.5);
    CHECK(growth_fraction(&g, 1, 3) == 1.0);
    /* expansions: S's two alternatives, B's two; "bc" uses S -> "b" B and
     * B -> "c", "a" adds S -> "a", "bd" adds B -> "d" */
    CHECK_INT(g.expansions_total, 4);
    const uint64_t exp[] = {0, 2, 3, 4, 4};
    for (size_t i = 0; i <= 4; i++)
        CHECK_INT(g.expansions[i], exp[i]);
    growth_free(&g);
    CHECK_INT(workspace_expansions_used(ws), 4);
    CHECK_INT(workspace_expansions_total(ws), 4);
    /* no inputs: one point, at zero */
    bool keep[4] = {false, false, false, false};
    workspace_remove_inputs(ws, keep);
    CHECK_INT(workspace_expansions_used(ws), 0);
    growth_compute(ws, 2, &g);
    CHECK_INT(g.ninputs, 0);
    CHECK_INT(growth_covered(&g, 1, 0), 0);
    CHECK_INT(growth_covered(&g, 2, 0), 0);
    growth_free(&g);
    workspace_free(ws);
}

/* Generated inputs (trees, not forests): the curve ends at the workspace's
 * coverage, and never goes down. */
TEST(growth_generated_ends_at_coverage)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("grammars/expr.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    if (!ws)
        return;
    CHECK(workspace_gen_start(ws, 5, &d));
    while (workspace_gen_step(ws))
        ;
    CHECK(ws->ninputs > 0);
    CHECK(workspace_add_sample(ws, "s1", "x+42", 4, &d));
    diag_list_free(&d);
    struct coverage_growth g;
    growth_compute(ws, ws->k, &g);
    CHECK_INT(g.total[1], 125);
    CHECK_INT(growth_covered(&g, ws->k, ws->ninputs), workspace_count(ws, WS_COVERED));
    CHECK_INT(g.expansions[ws->ninputs], workspace_expansions_used(ws));
    CHECK_INT(g.expansions_total, 31);
    for (uint32_t k = 1; k <= ws->k; k++)
        for (size_t i = 0; i < ws->ninputs; i++)
            CHECK(growth_covered(&g, k, i) <= growth_covered(&g, k, i + 1));
    growth_free(&g);
    workspace_free(ws);
}
