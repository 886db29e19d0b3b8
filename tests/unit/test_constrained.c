/* target: inputs generated under required and prohibited k-paths, each
 * checked by parsing its text again and computing its k-paths; and
 * constraints no input can satisfy, reported with the k-paths in conflict. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parse/input_kpaths.h"
#include "../support/load.h"
#include "base/strbuf.h"
#include "gen/constrained.h"
#include "base/xalloc.h"

/* Paths as `kpath paths` prints them, for grammars/expr.ebnf. */
static struct constrained_path path_of(const struct graph *g, const char *text)
{
    struct diag_list diags = DIAG_LIST_INIT;
    uint32_t n = 0;
    uint32_t *ids = graph_parse_path(g, text, &n, &diags);
    CHECK(ids != NULL);
    diag_list_free(&diags);
    return (struct constrained_path){n, ids};
}

static void free_paths(struct constrained_path *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((uint32_t *)p[i].ids);
}

/* Does the parse of text contain path?  (Parsed afresh, so the check does not
 * trust the generator's own tree.) */
static bool text_has(const struct graph *g, const char *text, const struct constrained_path *p)
{
    struct kpath_space sp;
    kpath_space_init(&sp, g, p->len);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    struct kpath_set *sets[1] = {&set};
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct diag_list diags = DIAG_LIST_INIT;
    bool parsed = input_kpaths_text(g, "generated", text, strlen(text), &po, sets, 1, NULL, NULL,
                                    &diags);
    CHECK(parsed);
    bool has = parsed && kpath_set_contains(&set, p->ids);
    diag_list_free(&diags);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    return has;
}

TEST(target_inputs_contain_every_required_and_no_prohibited_kpath)
{
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    const struct graph *g = l.graph;
    struct constrained_path req[3] = {path_of(g, "\"+\"_10"), path_of(g, "\"*\"_23"),
                                 path_of(g, "UnaryExpr_8 -> Identifier_16")};
    struct constrained_path pro[3] = {path_of(g, "\"-\"_11"), path_of(g, "UnaryExpr_15 -> DecDigits_22"),
                                 path_of(g, "\"x\"_39")};
    struct constraints c = {req, 3, pro, 3};
    struct constrained_options o;
    constrained_options_default(&o);
    o.max_depth = 10;
    struct diag_list diags = DIAG_LIST_INIT;
    struct constrained_gen *t = constrained_new(g, &c, &o, &diags);
    CHECK(t != NULL);
    CHECK_INT(diags.len, 0);
    struct strbuf text = STRBUF_INIT;
    char *seen[20] = {0};
    int made = 0;
    for (int i = 0; t && i < 20; i++) {
        struct derivation tree;
        if (!constrained_next(t, &tree))
            break;
        made++;
        CHECK(derivation_complete(&tree));
        CHECK(derivation_depth(&tree) <= 10);
        CHECK(constrained_satisfied(g, &c, &tree));
        strbuf_reset(&text);
        derivation_text(&tree, &text);
        for (int r = 0; r < 3; r++)
            CHECK(text_has(g, strbuf_str(&text), &req[r]));
        for (int p = 0; p < 3; p++)
            CHECK(!text_has(g, strbuf_str(&text), &pro[p]));
        for (int j = 0; j < i; j++)
            CHECK(strcmp(seen[j], strbuf_str(&text)) != 0); /* never the same input twice */
        seen[i] = xstrdup(strbuf_str(&text));
        derivation_free(&tree);
    }
    CHECK_INT(made, 20);
    for (int i = 0; i < 20; i++)
        free(seen[i]);
    strbuf_free(&text);
    constrained_free(t);
    diag_list_free(&diags);
    free_paths(req, 3);
    free_paths(pro, 3);
    test_unload(&l);
}

static void expect_unsatisfiable(const struct graph *g, const char *const *required, size_t nreq,
                                 const char *const *prohibited, size_t npro, const char *message)
{
    struct constrained_path req[4], pro[4];
    for (size_t i = 0; i < nreq; i++)
        req[i] = path_of(g, required[i]);
    for (size_t i = 0; i < npro; i++)
        pro[i] = path_of(g, prohibited[i]);
    struct constraints c = {req, nreq, pro, npro};
    struct constrained_options o;
    constrained_options_default(&o);
    struct diag_list diags = DIAG_LIST_INIT;
    struct constrained_gen *t = constrained_new(g, &c, &o, &diags);
    CHECK(t == NULL);
    CHECK_INT(diags.len, 1);
    if (diags.len)
        CHECK_STR(diags.items[0].message, message);
    constrained_free(t);
    diag_list_free(&diags);
    free_paths(req, nreq);
    free_paths(pro, npro);
}

TEST(target_reports_unsatisfiable_constraints_with_the_conflicting_kpaths)
{
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    /* A prohibited 2-path inside a required 3-path. */
    const char *r1[] = {"AddExpr_0 AddExpr_5 MultExpr_2"};
    const char *p1[] = {"\"/\"_24", "AddExpr_5 MultExpr_2"};
    expect_unsatisfiable(l.graph, r1, 1, p1, 2,
                         "unsatisfiable: required AddExpr_0 -> AddExpr_5 -> MultExpr_2 contains "
                         "prohibited AddExpr_5 -> MultExpr_2");
    /* A "*" needs a left operand MultExpr_13, and that operand's own
     * recursion must end in MultExpr's first alternative, UnaryExpr_8: with
     * MultExpr_13 -> UnaryExpr_8 prohibited no tree holds a "*".  Of the two
     * prohibited paths only that one is to blame. */
    const char *r2[] = {"\"*\"_23"};
    const char *p2[] = {"\"/\"_24", "MultExpr_13 UnaryExpr_8"};
    expect_unsatisfiable(l.graph, r2, 1, p2, 2,
                         "unsatisfiable: no input contains required \"*\"_23 without prohibited "
                         "MultExpr_13 -> UnaryExpr_8");
    /* The root's 1-path is in every input. */
    const char *p3[] = {"AddExpr_0"};
    expect_unsatisfiable(l.graph, NULL, 0, p3, 1,
                         "unsatisfiable: every input contains one of the prohibited AddExpr_0");
    test_unload(&l);
}

TEST(target_checks_a_prohibited_path_at_its_last_element)
{
    /* Prohibiting "+"_10 after AddExpr_0 still allows AddExpr_0 and "+"
     * elsewhere (unary plus is "+"_27); each input contains "+"_27. */
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    const struct graph *g = l.graph;
    struct constrained_path req[1] = {path_of(g, "\"+\"_27")};
    struct constrained_path pro[1] = {path_of(g, "AddExpr_0 \"+\"_10")};
    struct constraints c = {req, 1, pro, 1};
    struct constrained_options o;
    constrained_options_default(&o);
    struct diag_list diags = DIAG_LIST_INIT;
    struct constrained_gen *t = constrained_new(g, &c, &o, &diags);
    CHECK(t != NULL);
    struct strbuf text = STRBUF_INIT;
    for (int i = 0; t && i < 10; i++) {
        struct derivation tree;
        CHECK(constrained_next(t, &tree));
        strbuf_reset(&text);
        derivation_text(&tree, &text);
        CHECK(text_has(g, strbuf_str(&text), &req[0]));
        CHECK(!text_has(g, strbuf_str(&text), &pro[0]));
        derivation_free(&tree);
    }
    strbuf_free(&text);
    constrained_free(t);
    diag_list_free(&diags);
    free_paths(req, 1);
    free_paths(pro, 1);
    test_unload(&l);
}

TEST(target_knows_what_no_tree_can_contain)
{
    /* T_7 sits under a {0} quantifier: no input has it, prohibited or not. */
    struct loaded l;
    if (!test_load_string("S := \"a\" (\"b\" T){0} T;\nT := \"c\" | \"d\";\n", &l))
        return;
    const char *r[] = {"T_7 \"d\"_9"};
    expect_unsatisfiable(l.graph, r, 1, NULL, 0,
                         "unsatisfiable: no input contains required T_7 -> \"d\"_9");
    /* T_3 -> "d"_9 is fine: every input is "ad". */
    struct constrained_path req[1] = {path_of(l.graph, "T_3 \"d\"_9")};
    struct constraints c = {req, 1, NULL, 0};
    struct constrained_options o;
    constrained_options_default(&o);
    struct diag_list diags = DIAG_LIST_INIT;
    struct constrained_gen *t = constrained_new(l.graph, &c, &o, &diags);
    CHECK(t != NULL);
    struct derivation tree;
    CHECK(t && constrained_next(t, &tree));
    if (t) {
        struct strbuf text = STRBUF_INIT;
        derivation_text(&tree, &text);
        CHECK_STR(strbuf_str(&text), "ad");
        strbuf_free(&text);
        derivation_free(&tree);
        /* There is no second input. */
        CHECK(!constrained_next(t, &tree));
    }
    constrained_free(t);
    diag_list_free(&diags);
    free_paths(req, 1);
    test_unload(&l);
}
