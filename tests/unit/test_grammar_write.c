/* Unit tests of the grammar writer: untouched grammars come out byte for
 * byte, reprinted ones load back to the same graph, k-paths and weights,
 * printing details (parentheses, quantifiers, escapes, layout), notes,
 * probabilities from a callback or a graph table, and atomic files. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "formats/grammar_write.h"
#include "harness.h"
#include "graph/kpath.h"
#include "base/strbuf.h"

/* ---- helpers ------------------------------------------------------------ */

static struct grammar *load_text(const char *text)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_string("t.ebnf", text, strlen(text), NULL, &d);
    for (size_t i = 0; i < d.len; i++) {
        struct strbuf sb = STRBUF_INIT;
        diag_format(&d.items[i], &sb);
        if (d.items[i].severity == DIAG_ERROR)
            fprintf(stderr, "  %s\n", strbuf_str(&sb));
        strbuf_free(&sb);
    }
    diag_list_free(&d);
    return g;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf sb = STRBUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        strbuf_add(&sb, chunk, n);
    fclose(f);
    return strbuf_detach(&sb, len);
}

static char *written(const struct grammar *g, const struct grammar_write_options *o)
{
    struct strbuf sb = STRBUF_INIT;
    grammar_write(g, o, &sb);
    return strbuf_detach(&sb, NULL);
}

static char *rule_text(const struct grammar *g, const char *name,
                       const struct grammar_write_options *o)
{
    struct strbuf sb = STRBUF_INIT;
    grammar_write_rule(g, grammar_find_rule(g, name), o, &sb);
    return strbuf_detach(&sb, NULL);
}

/* Same nodes (kind, label, children) and the same k-path counts for k = 1..3. */
static bool same_graph(const struct graph *a, const struct graph *b)
{
    if (!CHECK_INT(a->nnodes, b->nnodes))
        return false;
    bool ok = true;
    struct strbuf la = STRBUF_INIT, lb = STRBUF_INIT;
    for (uint32_t i = 0; i < a->nnodes && ok; i++) {
        strbuf_reset(&la);
        strbuf_reset(&lb);
        graph_node_label(a, i, &la);
        graph_node_label(b, i, &lb);
        ok = CHECK_INT(a->nodes[i].kind, b->nodes[i].kind) && CHECK_STR(la.data, lb.data) &&
             CHECK_INT(a->nodes[i].nchildren, b->nodes[i].nchildren);
        for (uint32_t c = 0; ok && c < a->nodes[i].nchildren; c++)
            ok = CHECK_INT(graph_children(a, i)[c], graph_children(b, i)[c]);
    }
    strbuf_free(&la);
    strbuf_free(&lb);
    for (uint32_t k = 1; k <= 3 && ok; k++) {
        struct kpath_space sa, sb;
        kpath_space_init(&sa, a, k);
        kpath_space_init(&sb, b, k);
        ok = CHECK_INT(sa.total, sb.total);
        kpath_space_free(&sa);
        kpath_space_free(&sb);
    }
    return ok;
}

static bool close_enough(double want, double got)
{
    return fabs(want - got) <= 0.0005 * want + 1e-9; /* within 0.05% */
}

/* Every alternation's probabilities in b are a's (same graph). */
static bool same_weights(const struct graph *a, const struct graph *b)
{
    for (uint32_t i = 0; i < a->nnodes; i++) {
        if (a->nodes[i].kind != NODE_ALT)
            continue;
        for (uint32_t c = 0; c < a->nodes[i].nchildren; c++) {
            double want = grammar_alt_probability(a->nodes[i].expr, c);
            double got = grammar_alt_probability(b->nodes[i].expr, c);
            if (!CHECK(close_enough(want, got))) {
                fprintf(stderr, "  node %u alternative %u: %.9f, read back %.9f\n", i, c, want,
                        got);
                return false;
            }
        }
    }
    return true;
}

/* Every bundled and test grammar that loads: relative paths, caller frees. */
static char **grammar_files(size_t *n)
{
    static const char *const dirs[] = {"grammars", "tests/grammars/ok", "tests/grammars/contexts"};
    char **files = NULL;
    *n = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(harness_path(dirs[d]));
        if (!dir)
            continue;
        for (struct dirent *e; (e = readdir(dir));) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 5, ".ebnf") != 0)
                continue;
            files = realloc(files, (*n + 1) * sizeof *files);
            struct strbuf sb = STRBUF_INIT;
            strbuf_addf(&sb, "%s/%s", dirs[d], e->d_name);
            files[(*n)++] = strbuf_detach(&sb, NULL);
        }
        closedir(dir);
    }
    return files;
}

/* ---- untouched grammars ------------------------------------------------- */

TEST(write_untouched_grammars_byte_for_byte)
{
    size_t n;
    char **files = grammar_files(&n);
    CHECK(n >= 15);
    for (size_t i = 0; i < n; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(files[i], &l))) {
            fprintf(stderr, "  %s\n", files[i]);
            free(files[i]);
            continue;
        }
        size_t len;
        char *want = read_all(harness_path(files[i]), &len);
        char *got = written(l.grammar, NULL);
        if (!CHECK(want && strlen(got) == len && memcmp(got, want, len) == 0))
            fprintf(stderr, "  %s differs\n", files[i]);
        free(want);
        free(got);
        test_unload(&l);
        free(files[i]);
    }
    free(files);
}

TEST(write_spans_take_the_comments_directly_above)
{
    const char *text = "# header\n"
                       "\n"
                       "# about A\n"
                       "A := B | C; # after A\n"
                       "\n"
                       "# section\n"
                       "\n"
                       "/* about\n"
                       "\n"
                       "   B */\n"
                       "  B := \"b\";\n"
                       "C := \"c\"; D := \"d\";";
    struct grammar *g = load_text(text);
    if (!CHECK(g))
        return;
    const struct rule *a = &g->rules[0], *b = &g->rules[1], *c = &g->rules[2], *d = &g->rules[3];
    CHECK_INT(g->source_head, strstr(text, "# about A") - text);
    CHECK_INT(a->src_begin, strstr(text, "# about A") - text);
    CHECK_INT(a->src_name, strstr(text, "A :=") - text);
    CHECK_INT(a->src_stop, strstr(text, " # after A") - text);
    CHECK_INT(a->src_end, strstr(text, "after A\n") - text + 8);
    CHECK_INT(b->src_gap, a->src_end);
    CHECK_INT(b->src_begin, strstr(text, "/* about") - text);
    CHECK_INT(b->src_name, strstr(text, "B :=") - text);
    CHECK_INT(c->src_begin, strstr(text, "C :=") - text);
    CHECK_INT(c->src_end, c->src_stop); /* D follows on the same line */
    CHECK_INT(d->src_begin, c->src_stop);
    CHECK_INT(d->src_end, strlen(text));
    CHECK_INT(g->source_tail, strlen(text));
    grammar_free(g);
}

/* ---- reprinting --------------------------------------------------------- */

TEST(write_reprinted_grammars_load_back_equal)
{
    size_t n;
    char **files = grammar_files(&n);
    for (size_t i = 0; i < n; i++) {
        struct loaded l, back;
        if (!test_load_file(files[i], &l)) {
            free(files[i]);
            continue;
        }
        struct grammar_write_options o = {.reprint = true};
        char *text = written(l.grammar, &o);
        if (CHECK(test_load_string(text, &back))) {
            if (!same_graph(l.graph, back.graph) || !same_weights(l.graph, back.graph))
                fprintf(stderr, "  %s\n", files[i]);
            test_unload(&back);
        } else {
            fprintf(stderr, "  %s:\n%s\n", files[i], text);
        }
        free(text);
        test_unload(&l);
        free(files[i]);
    }
    free(files);
}

static double by_position(void *ctx, const struct expr *alt, uint32_t i)
{
    (void)ctx;
    uint32_t n = alt->nchildren;
    return (i + 1.0) / (n * (n + 1) / 2.0);
}

TEST(write_random_grammars_round_trip)
{
    for (uint64_t seed = 1; seed <= 60; seed++) {
        char *text = random_grammar(seed, 3 + (uint32_t)(seed % 12));
        struct loaded l, back;
        if (!CHECK(test_load_string(text, &l))) {
            free(text);
            continue;
        }
        for (int mode = 0; mode < 2; mode++) {
            struct grammar_write_options o = {.reprint = true, .probabilities = mode == 1,
                                              .probability = by_position, .width = 40};
            char *out = written(l.grammar, &o);
            if (CHECK(test_load_string(out, &back))) {
                if (!same_graph(l.graph, back.graph))
                    fprintf(stderr, "  seed %llu:\n%s\n", (unsigned long long)seed, out);
                for (uint32_t n = 0; mode == 1 && n < back.graph->nnodes; n++)
                    for (uint32_t c = 0; back.graph->nodes[n].kind == NODE_ALT &&
                                         c < back.graph->nodes[n].nchildren; c++)
                        CHECK(close_enough(by_position(NULL, l.graph->nodes[n].expr, c),
                                           grammar_alt_probability(back.graph->nodes[n].expr, c)));
                test_unload(&back);
            }
            free(out);
        }
        test_unload(&l);
        free(text);
    }
}

TEST(write_parentheses_only_where_the_tree_needs_them)
{
    struct grammar *g = load_text(
        "A := ((\"a\" \"b\") \"c\") | ((\"d\" | \"e\")) | (\"x\"*)+ | (\"a\" | \"b\")? | (B) | ((\"m\" \"n\") | \"o\");\n"
        "B := \"p\" (\"q\" (\"r\" \"s\")) \"t\"{0,3} \"u\"{2,} \"v\"{1} \"w\"{2,5} \"y\"{0,1} \"z\"{0,};\n");
    if (!CHECK(g))
        return;
    struct grammar_write_options o = {.width = 200};
    char *a = rule_text(g, "A", &o), *b = rule_text(g, "B", &o);
    CHECK_STR(a, "A := (\"a\" \"b\") \"c\" | (\"d\" | \"e\") | (\"x\"*)+ | (\"a\" | \"b\")? | B"
                 " | (\"m\" \"n\" | \"o\");");
    CHECK_STR(b, "B := \"p\" (\"q\" (\"r\" \"s\")) \"t\"{,3} \"u\"{2,} \"v\"{1} \"w\"{2,5} \"y\"? "
                 "\"z\"*;");
    free(a);
    free(b);
    grammar_free(g);
}

TEST(write_literals_and_classes_with_the_loaders_escapes)
{
    struct grammar *g = load_text("S := 'it''s' \"\\\"q\\\\\" \"\\t\\n\\r\\x00\\x7F\" \"\\u{85}é\" \"\" "
                                  "[^\"\\\\\\]] [a-z\\-];\n");
    if (!CHECK(g))
        return;
    char *s = rule_text(g, "S", NULL);
    CHECK_STR(s, "S := \"it\" \"s\" \"\\\"q\\\\\" \"\\t\\n\\r\\x00\\x7F\" \"\\u{85}é\" \"\" "
                 "[^\"\\\\\\]] [a-z\\-];");
    struct loaded back;
    struct strbuf text = STRBUF_INIT;
    strbuf_addstr(&text, s);
    if (CHECK(test_load_string(text.data, &back))) {
        struct graph *orig = graph_build(g);
        same_graph(orig, back.graph);
        graph_free(orig);
        const struct expr *lit = back.grammar->rules[0].rhs->children[3];
        CHECK_INT(lit->u.lit.len, 5);
        CHECK(memcmp(lit->u.lit.text, "\t\n\r\0\x7F", 5) == 0);
        test_unload(&back);
    }
    strbuf_free(&text);
    free(s);
    grammar_free(g);
}

TEST(write_long_rules_put_alternatives_on_lines)
{
    struct grammar *g = load_text(
        "<factor> ::= \"+\" <factor> | \"-\" <factor> | \"(\" <int> \")\" | <int> \".\" <int> | <int>;\n"
        "<int> ::= \"0\" | \"1\";\n");
    if (!CHECK(g))
        return;
    char *f = rule_text(g, "<factor>", NULL), *i = rule_text(g, "<int>", NULL);
    CHECK_STR(f, "<factor> ::= \"+\" <factor>\n"
                 "           | \"-\" <factor>\n"
                 "           | \"(\" <int> \")\"\n"
                 "           | <int> \".\" <int>\n"
                 "           | <int>;");
    CHECK_STR(i, "<int> ::= \"0\" | \"1\";");
    free(f);
    free(i);
    grammar_free(g);
}

/* ---- weights ------------------------------------------------------------ */

TEST(write_weights_as_prefix_percentages)
{
    struct grammar *g = load_text("S := 12.5% \"a\" | \"b\" | \"c\" @@ 0.3 | 0% \"d\";\n"
                                  "T := \"x\" (33.3333% \"y\" | \"z\");\n");
    if (!CHECK(g))
        return;
    char *s = rule_text(g, "S", NULL), *t = rule_text(g, "T", NULL);
    CHECK_STR(s, "S := 12.5% \"a\" | \"b\" | 30% \"c\" | 0% \"d\";");
    CHECK_STR(t, "T := \"x\" (33.333% \"y\" | \"z\");");
    free(s);
    free(t);
    grammar_free(g);
}

static double third(void *ctx, const struct expr *alt, uint32_t i)
{
    (void)ctx;
    return i == 0 && alt->nchildren == 2 ? 2.0 / 3 : 1.0 / (i == 0 ? 3 : alt->nchildren + 1);
}

static double near_half(void *ctx, const struct expr *alt, uint32_t i)
{
    (void)ctx, (void)alt;
    return i == 0 ? 0.500005 : 0.499995;
}

static double skip_second(void *ctx, const struct expr *alt, uint32_t i)
{
    (void)ctx, (void)alt;
    return i == 1 ? -1 : 0.25;
}

TEST(write_probabilities_from_a_callback)
{
    struct grammar *g = load_text("# S\nS := \"a\" | \"b\" | \"c\";\nT := \"x\" (\"y\" | \"z\");\n"
                                  "U := \"u\";\n");
    if (!CHECK(g))
        return;
    struct grammar_write_options o = {.probabilities = true, .probability = third};
    char *text = written(g, &o);
    CHECK_STR(text, "# S\nS := 33.333% \"a\" | 25% \"b\" | 25% \"c\";\n"
                    "T := \"x\" (66.667% \"y\" | 33.333% \"z\");\nU := \"u\";\n");
    free(text);
    o.probability = near_half; /* 50.001% + 50% is too much: one step off */
    char *s = rule_text(g, "T", &o);
    CHECK_STR(s, "T := \"x\" (50% \"y\" | 50% \"z\");");
    free(s);
    o.probability = skip_second;
    s = rule_text(g, "S", &o);
    CHECK_STR(s, "S := 25% \"a\" | \"b\" | 25% \"c\";");
    free(s);
    grammar_free(g);
}

TEST(write_probabilities_from_a_graph_table_round_trip)
{
    struct loaded l, back;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    /* A made-up distribution per alternation: alternative c gets weight c+1. */
    const struct graph *gr = l.graph;
    double *table = calloc(gr->nnodes * 2 + 64, sizeof *table);
    size_t edges = 0;
    for (uint32_t n = 0; n < gr->nnodes; n++)
        if (gr->nodes[n].first_child + gr->nodes[n].nchildren > edges)
            edges = gr->nodes[n].first_child + gr->nodes[n].nchildren;
    table = realloc(table, (edges + 1) * sizeof *table);
    for (uint32_t n = 0; n < gr->nnodes; n++) {
        uint32_t k = gr->nodes[n].nchildren;
        for (uint32_t c = 0; c < k; c++)
            table[gr->nodes[n].first_child + c] = (c + 1.0) / (k * (k + 1) / 2.0);
    }
    struct grammar_write_options o = {.probabilities = true, .graph = gr, .edge_probability = table};
    char *text = written(l.grammar, &o);
    CHECK(strstr(text, "Expr := AddExpr;\n"));
    CHECK(strstr(text, "Identifier := 16.667% \"x\" | 33.333% \"y\" | 50% \"z\";\n"));
    if (CHECK(test_load_string(text, &back))) {
        same_graph(gr, back.graph);
        for (uint32_t n = 0; n < gr->nnodes; n++) {
            if (gr->nodes[n].kind != NODE_ALT)
                continue;
            for (uint32_t c = 0; c < gr->nodes[n].nchildren; c++)
                CHECK(close_enough(table[gr->nodes[n].first_child + c],
                                   grammar_alt_probability(back.graph->nodes[n].expr, c)));
        }
        test_unload(&back);
    }
    free(text);
    free(table);
    test_unload(&l);
}

/* ---- edits, new rules and notes ----------------------------------------- */

static void count_note(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out)
{
    (void)ctx;
    if (g->rules[rule].rhs->kind == EXPR_ALT)
        strbuf_addf(out, "counts for %s:\n%u alternatives", g->rules[rule].name,
                    g->rules[rule].rhs->nchildren);
}

TEST(write_edited_and_new_rules_keep_the_comments)
{
    struct grammar *g = load_text("# top\n\n# about A\nA := B \"x\"; # trailing\n"
                                  "\n// about B\nB := \"b\" | \"c\";\n# end\n");
    if (!CHECK(g))
        return;
    /* Edit A: its reference now names a new rule C := "c" | "d". */
    uint32_t c_idx = g->nrules;
    struct expr *alt = grammar_new_expr(g, EXPR_ALT, c_idx);
    alt->nchildren = 2;
    alt->children = arena_alloc(&g->arena, 2 * sizeof *alt->children);
    for (int i = 0; i < 2; i++) {
        struct expr *lit = grammar_new_expr(g, EXPR_LIT, c_idx);
        lit->u.lit.text = arena_strndup(&g->arena, i ? "d" : "c", 1);
        lit->u.lit.len = 1;
        lit->parent = alt;
        alt->children[i] = lit;
    }
    CHECK_INT(grammar_add_rule(g, "C", alt), c_idx);
    CHECK_INT(grammar_add_rule(g, "B", alt), RULE_NONE);
    struct expr *ref = g->rules[0].rhs->children[0];
    ref->u.ref.target = c_idx;
    ref->u.ref.name = "C";
    g->rules[0].edited = true;
    /* Keep A, C, B in this order: C is placed after A; B is no longer
     * reachable but stays. */
    uint32_t order[] = {0, 2, 1};
    grammar_keep_rules(g, order, 3);
    CHECK_INT(grammar_find_rule(g, "C"), 1);
    CHECK_INT(grammar_find_rule(g, "B"), 2);
    CHECK_INT(g->rules[0].rhs->children[0]->u.ref.target, 1);
    CHECK(g->rules[1].reachable && !g->rules[2].reachable);
    char *text = written(g, NULL);
    CHECK_STR(text, "# top\n\n# about A\nA := C \"x\"; # trailing\nC := \"c\" | \"d\";\n"
                    "\n// about B\nB := \"b\" | \"c\";\n# end\n");
    free(text);

    struct grammar_write_options o = {.note = count_note};
    text = written(g, &o);
    const char *want = "# top\n\n# about A\nA := C \"x\"; # trailing\n"
                       "#: counts for C:\n#: 2 alternatives\nC := \"c\" | \"d\";\n"
                       "\n// about B\n#: counts for B:\n#: 2 alternatives\nB := \"b\" | \"c\";\n"
                       "# end\n";
    CHECK_STR(text, want);
    /* Writing again replaces the notes instead of adding more. */
    struct grammar *again = load_text(text);
    if (CHECK(again)) {
        char *text2 = written(again, &o);
        CHECK_STR(text2, want);
        free(text2);
        grammar_free(again);
    }
    free(text);
    grammar_free(g);
}

/* ---- files -------------------------------------------------------------- */

TEST(write_files_atomically)
{
    char dir[] = "/tmp/kpath-write-XXXXXX";
    if (!CHECK(mkdtemp(dir)))
        return;
    struct strbuf path = STRBUF_INIT;
    strbuf_addf(&path, "%s/out.ebnf", dir);
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(write_file_atomic(path.data, "old\n", 4, &d));
    chmod(path.data, 0640);
    struct grammar *g = load_text("S := \"s\";\n");
    CHECK(g && grammar_write_file(g, NULL, path.data, &d));
    CHECK_INT(d.len, 0);
    size_t len;
    char *got = read_all(path.data, &len);
    CHECK_STR(got, "S := \"s\";\n");
    free(got);
    struct stat st;
    CHECK(stat(path.data, &st) == 0 && (st.st_mode & 0777) == 0640);
    /* Only out.ebnf is there: no temporary file was left. */
    DIR *dh = opendir(dir);
    int entries = 0;
    for (struct dirent *e; dh && (e = readdir(dh));)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (dh)
        closedir(dh);
    CHECK_INT(entries, 1);
    /* A directory that does not exist: an error naming the file. */
    struct strbuf bad = STRBUF_INIT;
    strbuf_addf(&bad, "%s/missing/out.ebnf", dir);
    CHECK(!grammar_write_file(g, NULL, bad.data, &d));
    if (CHECK_INT(d.len, 1)) {
        struct strbuf msg = STRBUF_INIT;
        diag_format(&d.items[0], &msg);
        CHECK(strstr(msg.data, "missing/out.ebnf: error: cannot write: No such file") != NULL);
        strbuf_free(&msg);
    }
    unlink(path.data);
    rmdir(dir);
    strbuf_free(&bad);
    strbuf_free(&path);
    diag_list_free(&d);
    grammar_free(g);
}
