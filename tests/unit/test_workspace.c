/* Unit tests of the workspace: coverage listing by rank (checked against a
 * plain enumeration), samples, stepping the generator, probabilities, dup,
 * pins, export, and save/open giving back the same state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "workspace/workspace.h"
#include "workspace/workspace_export.h"
#include "workspace/workspace_file.h"

static struct workspace *open_expr(void)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("grammars/expr.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    return ws;
}

/* The filter lists, position and membership agree with a brute-force pass. */
static void check_lists(struct workspace *ws)
{
    uint64_t total = ws->space.total;
    uint64_t ncov = 0, nunc = 0;
    bool ok = true;
    for (uint64_t r = 0; r < total; r++) {
        bool c = workspace_rank_covered(ws, r);
        if (c) {
            ok &= workspace_nth(ws, WS_COVERED, ncov) == r;
            ok &= workspace_position(ws, WS_COVERED, r) == ncov;
            ok &= workspace_position(ws, WS_UNCOVERED, r) == UINT64_MAX;
            ncov++;
        } else {
            ok &= workspace_nth(ws, WS_UNCOVERED, nunc) == r;
            ok &= workspace_position(ws, WS_UNCOVERED, r) == nunc;
            ok &= workspace_position(ws, WS_COVERED, r) == UINT64_MAX;
            nunc++;
        }
        ok &= workspace_nth(ws, WS_ALL, r) == r;
    }
    CHECK(ok);
    CHECK_INT(ncov, workspace_count(ws, WS_COVERED));
    CHECK_INT(nunc, workspace_count(ws, WS_UNCOVERED));
    CHECK_INT(total, workspace_count(ws, WS_ALL));
    /* Per-node counts add up to the covered total. */
    uint64_t sum = 0;
    for (uint32_t n = 0; n < ws->graph->nnodes; n++) {
        sum += workspace_node_covered(ws, n);
        CHECK(workspace_node_covered(ws, n) <= workspace_node_total(ws, n));
    }
    CHECK_INT(sum, ncov);
}

/* With pins: the lists enumerate exactly the k-paths under them. */
static void check_lists_pinned(struct workspace *ws)
{
    uint64_t total = ws->space.total, under = 0, ncov = 0, nunc = 0;
    bool ok = true;
    for (uint64_t r = 0; r < total; r++) {
        if (!workspace_rank_under_pins(ws, r)) {
            ok &= workspace_position(ws, WS_ALL, r) == UINT64_MAX;
            ok &= !workspace_rank_covered(ws, r);
            continue;
        }
        ok &= workspace_nth(ws, WS_ALL, under) == r;
        ok &= workspace_position(ws, WS_ALL, r) == under;
        under++;
        if (workspace_rank_covered(ws, r)) {
            ok &= workspace_nth(ws, WS_COVERED, ncov) == r;
            ncov++;
        } else {
            ok &= workspace_nth(ws, WS_UNCOVERED, nunc) == r;
            ok &= workspace_position(ws, WS_UNCOVERED, r) == nunc;
            nunc++;
        }
    }
    CHECK(ok);
    CHECK_INT(under, workspace_count(ws, WS_ALL));
    CHECK_INT(ncov, workspace_count(ws, WS_COVERED));
    CHECK_INT(nunc, workspace_count(ws, WS_UNCOVERED));
}

TEST(workspace_sample_coverage)
{
    struct workspace *ws = open_expr();
    if (!ws)
        return;
    CHECK_INT(ws->k, 2);
    CHECK_INT(workspace_count(ws, WS_ALL), 125);
    CHECK_INT(workspace_count(ws, WS_COVERED), 0);
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_add_sample(ws, "s1", "x+42", 4, &d));
    CHECK(!workspace_add_sample(ws, "bad", "x+", 2, &d));
    CHECK_INT(d.errors, 1);
    diag_list_free(&d);
    CHECK_INT(ws->ninputs, 1);
    CHECK_INT(workspace_count(ws, WS_COVERED), 12);
    CHECK_INT(ws->inputs[0].nnew, 12);
    CHECK(ws->dirty);
    check_lists(ws);
    /* AddExpr_0 -> "+"_10 is covered, and by input 0. */
    uint32_t path[2] = {0, 10};
    uint64_t r;
    CHECK(kpath_rank(&ws->space, path, &r));
    CHECK(workspace_rank_covered(ws, r));
    size_t by[4];
    CHECK_INT(workspace_covered_by(ws, r, by, 4), 1);
    CHECK_INT(by[0], 0);
    /* k = 1 and 3 recompute the coverage from the same input. */
    CHECK(workspace_set_k(ws, 1, NULL));
    CHECK_INT(workspace_count(ws, WS_ALL), 39);
    check_lists(ws);
    CHECK(workspace_set_k(ws, 3, NULL));
    CHECK_INT(workspace_count(ws, WS_ALL), 523);
    check_lists(ws);
    workspace_free(ws);
}

TEST(workspace_generation_steps_to_full_coverage)
{
    struct workspace *ws = open_expr();
    if (!ws)
        return;
    size_t steps = 0;
    while (workspace_gen_step(ws))
        steps++;
    CHECK(steps > 10);
    CHECK(ws->ninputs > 0);
    CHECK_INT(workspace_count(ws, WS_UNCOVERED), 0);
    CHECK(ws->inputs[0].target != NULL);
    check_lists(ws);
    /* Reset with drop_inputs removes that session's inputs only. */
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_add_sample(ws, "s", "1", 1, &d));
    diag_list_free(&d);
    size_t before = ws->ninputs;
    workspace_gen_reset(ws, true);
    CHECK(ws->gen == NULL);
    /* the generator was already over: its session's inputs go */
    CHECK_INT(ws->ninputs, 1);
    CHECK(before > 1);
    CHECK(ws->inputs[0].sample != NULL);
    workspace_free(ws);
}

TEST(workspace_generation_skips_covered)
{
    struct workspace *ws = open_expr();
    if (!ws)
        return;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_add_sample(ws, "s", "x+42", 4, &d));
    diag_list_free(&d);
    while (workspace_gen_step(ws))
        ;
    CHECK_INT(workspace_count(ws, WS_UNCOVERED), 0);
    /* No generated input re-covers only what the sample had. */
    for (size_t i = 1; i < ws->ninputs; i++)
        CHECK(ws->inputs[i].nnew > 0);
    workspace_free(ws);
}

TEST(workspace_probabilities)
{
    struct workspace *ws = open_expr();
    if (!ws)
        return;
    /* AddExpr's alternation: node 1, two alternatives, uniform. */
    CHECK_INT(ws->graph->nodes[1].kind, NODE_ALT);
    CHECK_INT(workspace_rule_alt_node(ws, grammar_find_rule(ws->grammar, "AddExpr"), 1), 1);
    double *p = ws->probs + ws->graph->nodes[1].first_child;
    CHECK(p[0] == 0.5 && p[1] == 0.5);
    CHECK_INT(ws->prob_source[1], WS_PROB_UNIFORM);
    CHECK(workspace_probs_set(ws, 1, 0, 0.8));
    CHECK(p[0] == 0.8 && p[1] > 0.1999 && p[1] < 0.2001);
    CHECK_INT(ws->prob_source[1], WS_PROB_EDITED);
    CHECK(!workspace_probs_set(ws, 1, 2, 0.5));
    CHECK(!workspace_probs_set(ws, 1, 0, 1.5));
    CHECK(!workspace_probs_learn(ws)); /* no samples */
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_add_sample(ws, "s", "1*(2+3)", 7, &d));
    diag_list_free(&d);
    CHECK(workspace_probs_learn(ws));
    CHECK_INT(ws->prob_source[1], WS_PROB_LEARNED);
    workspace_probs_invert(ws);
    CHECK_INT(ws->prob_source[1], WS_PROB_INVERTED);
    workspace_probs_reset(ws);
    CHECK(p != NULL);
    p = ws->probs + ws->graph->nodes[1].first_child;
    CHECK(p[0] == 0.5);
    workspace_free(ws);
}

TEST(workspace_paths_and_pins)
{
    struct workspace *ws = open_expr();
    if (!ws)
        return;
    uint32_t *path, len;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_parse_path(ws, "AddExpr_0 -> \"+\"_10", &path, &len, &d));
    CHECK_INT(len, 2);
    CHECK_INT(path[0], 0);
    CHECK_INT(path[1], 10);
    free(path);
    CHECK(!workspace_parse_path(ws, "AddExpr_0 Nope_3", &path, &len, &d));
    CHECK_INT(d.errors, 1);
    uint64_t all = workspace_count(ws, WS_ALL);
    CHECK(workspace_add_sample(ws, "s", "x*(1+2)", 7, &d));
    uint64_t covered = workspace_count(ws, WS_COVERED);
    CHECK(workspace_pin(ws, "UnaryExpr_15 AddExpr_36", &d));
    CHECK(!workspace_pin(ws, "AddExpr_0 DecDigit_42", &d));
    CHECK_INT(ws->pins.len, 1);
    /* the lists are the k-paths under the pin, coverage is in context */
    CHECK(workspace_count(ws, WS_ALL) < all);
    CHECK(workspace_count(ws, WS_COVERED) < covered);
    CHECK(workspace_count(ws, WS_COVERED) > 0);
    check_lists_pinned(ws);
    diag_list_free(&d);
    workspace_unpin(ws);
    CHECK_INT(ws->pins.len, 0);
    CHECK_INT(workspace_count(ws, WS_ALL), all);
    CHECK_INT(workspace_count(ws, WS_COVERED), covered);
    workspace_free(ws);
}

static char *temp_dir(void)
{
    char tmpl[] = "/tmp/kpath-ws-XXXXXX";
    char *dir = mkdtemp(tmpl);
    return dir ? strdup(dir) : NULL;
}

TEST(workspace_save_open_round_trip)
{
    struct workspace *ws = open_expr();
    char *dir = temp_dir();
    if (!ws || !CHECK(dir != NULL))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_set_k(ws, 3, &d));
    ws->gen_opts.seed = 7;
    ws->gen_opts.closeoff = GEN_CLOSE_SHORTEST; /* inputs within 40 steps */
    for (int i = 0; i < 40 && workspace_gen_step(ws); i++)
        ;
    CHECK(workspace_add_sample(ws, "sample \"one\"", "(x)\t+1", 6, &d) == false);
    CHECK(workspace_add_sample(ws, "sample \"one\"", "(x)+1", 5, &d));
    CHECK(workspace_pin(ws, "UnaryExpr_15 AddExpr_36", &d));
    CHECK(workspace_probs_set(ws, 1, 1, 0.25));
    ws->inputs[0].marked = true;
    ws->results_path = strdup("runs/kpath \"run\".jsonl"); /* :run's results file */
    char path[512];
    snprintf(path, sizeof path, "%s/w.kpw", dir);
    CHECK(workspace_save(ws, path, &d));
    CHECK(!ws->dirty);
    struct workspace *back = workspace_open(path, &d);
    CHECK_INT(d.len, 1); /* only the bad sample's parse error */
    diag_list_free(&d);
    if (CHECK(back != NULL)) {
        struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
        workspace_serialize(ws, &a);
        workspace_serialize(back, &b);
        CHECK_STR(strbuf_str(&b), strbuf_str(&a));
        CHECK_INT(back->k, 3);
        CHECK(strstr(strbuf_str(&a), "\nresults \"runs/kpath \\\"run\\\".jsonl\"\n") != NULL);
        if (CHECK(back->results_path != NULL))
            CHECK_STR(back->results_path, "runs/kpath \"run\".jsonl");
        CHECK_INT(back->ninputs, ws->ninputs);
        /* Generated inputs keep the k-path they were made for. */
        if (CHECK(back->inputs[0].target != NULL && ws->inputs[0].target != NULL)) {
            CHECK_INT(back->inputs[0].target_k, 3);
            CHECK(memcmp(back->inputs[0].target, ws->inputs[0].target, 3 * sizeof(uint32_t)) == 0);
            CHECK_INT(back->inputs[0].target_covered, ws->inputs[0].target_covered);
        }
        CHECK_INT(workspace_count(back, WS_COVERED), workspace_count(ws, WS_COVERED));
        CHECK(!back->dirty);
        strbuf_free(&a);
        strbuf_free(&b);
        workspace_free(back);
    }
    /* Not a workspace. */
    char bad[512];
    snprintf(bad, sizeof bad, "%s/bad.kpw", dir);
    FILE *f = fopen(bad, "w");
    fputs("hello\n", f);
    fclose(f);
    CHECK(workspace_open(bad, &d) == NULL);
    CHECK_INT(d.errors, 1);
    diag_list_free(&d);
    unlink(bad);
    unlink(path);
    rmdir(dir);
    free(dir);
    workspace_free(ws);
}

/* Issue 10.4: one default close-off, greedy, for the explorer as for kpath
 * cover; a saved workspace keeps what it says, and one without a close-off
 * line keeps the meaning it had when shortest was the default. */
TEST(workspace_closeoff_default_and_saved_files)
{
    struct workspace *ws = open_expr();
    char *dir = temp_dir();
    if (!ws || !CHECK(dir != NULL))
        return;
    CHECK_STR(gen_closeoff_name(ws->gen_opts.closeoff), "greedy");
    struct gen_options o;
    gen_options_default(&o);
    CHECK_STR(gen_closeoff_name(o.closeoff), "greedy");
    workspace_free(ws);
    const char *lines[] = {"close-off shortest\n", "close-off greedy\n", "close-off random\n", ""};
    const char *want[] = {"shortest", "greedy", "random", "shortest"};
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/c%d.kpw", dir, i);
        FILE *f = fopen(path, "w");
        if (!CHECK(f != NULL))
            break;
        fprintf(f, "kpath-workspace 1\ngrammar \"%s\"\nk 2\nstrategy kpath\n%sseed 3\nend\n",
                harness_path("grammars/expr.ebnf"), lines[i]);
        fclose(f);
        struct diag_list d = DIAG_LIST_INIT;
        struct workspace *back = workspace_open(path, &d);
        CHECK_INT(d.len, 0);
        diag_list_free(&d);
        if (CHECK(back != NULL)) {
            CHECK_STR(gen_closeoff_name(back->gen_opts.closeoff), want[i]);
            CHECK_INT(back->gen_opts.seed, 3);
            /* and saving it again writes the close-off out */
            struct strbuf b = STRBUF_INIT;
            workspace_serialize(back, &b);
            char expect[64];
            snprintf(expect, sizeof expect, "\nclose-off %s\n", want[i]);
            CHECK(strstr(strbuf_str(&b), expect) != NULL);
            strbuf_free(&b);
            workspace_free(back);
        }
        unlink(path);
    }
    rmdir(dir);
    free(dir);
}

static bool put_bytes(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* A workspace loaded in slices (one line per step, as the TUI's restore job
 * may) is the one workspace_open gives, with the same diagnostics; an
 * aborted load leaves nothing behind (ASan checks the frees). */
TEST(workspace_sliced_load_is_workspace_open)
{
    struct workspace *ws = open_expr();
    char *dir = temp_dir();
    if (!ws || !CHECK(dir != NULL))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_set_k(ws, 3, &d));
    ws->gen_opts.closeoff = GEN_CLOSE_SHORTEST; /* many small inputs within 300 steps */
    for (int i = 0; i < 300 && workspace_gen_step(ws); i++)
        ;
    if (!CHECK(ws->ninputs >= 2)) /* input 1 is marked below */
        return;
    CHECK(workspace_add_sample(ws, "sample \"one\"", "(x)+1", 5, &d));
    CHECK(workspace_probs_set(ws, 1, 1, 0.25));
    ws->inputs[1].marked = true;
    char path[512];
    snprintf(path, sizeof path, "%s/w.kpw", dir);
    CHECK(workspace_save(ws, path, &d));
    /* An input line that no longer parses: a warning, from either load. */
    FILE *f = fopen(path, "r+");
    if (CHECK(f != NULL)) {
        struct strbuf text = STRBUF_INIT;
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            strbuf_add(&text, buf, n);
        fclose(f);
        char *end = strstr(text.data, "\nend\n");
        if (CHECK(end != NULL)) {
            struct strbuf edited = STRBUF_INIT;
            strbuf_add(&edited, text.data, (size_t)(end - text.data) + 1);
            strbuf_addstr(&edited, "input \"((\"\nend\n");
            CHECK(put_bytes(path, edited.data, edited.len));
            strbuf_free(&edited);
        }
        strbuf_free(&text);
    }
    diag_list_free(&d);
    struct diag_list whole = DIAG_LIST_INIT, sliced = DIAG_LIST_INIT;
    struct workspace *a = workspace_open(path, &whole);
    /* The damaged file is kept as w.kpw.damaged: again for the sliced load. */
    char kept[600];
    snprintf(kept, sizeof kept, "%s.damaged", path);
    CHECK(unlink(kept) == 0);
    struct workspace_loader *ld = workspace_load_begin(path, &sliced);
    size_t steps = 0, done = 0, total = ld ? workspace_load_lines(ld, &done) : 0;
    CHECK(total > 20);
    CHECK_INT(done, 2); /* the header */
    while (ld && workspace_load_step(ld, 1, &sliced))
        steps++;
    if (ld) {
        workspace_load_lines(ld, &done);
        CHECK_INT(done, total);
    }
    CHECK_INT(steps + 3, total); /* one line per step, the last one returns false */
    struct workspace *b = ld ? workspace_load_finish(ld, &sliced) : NULL;
    if (CHECK(a != NULL) && CHECK(b != NULL)) {
        struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
        workspace_serialize(a, &sa);
        workspace_serialize(b, &sb);
        CHECK_STR(strbuf_str(&sb), strbuf_str(&sa));
        CHECK_INT(b->ninputs, ws->ninputs);
        CHECK(b->inputs[1].marked);
        CHECK(!b->dirty);
        strbuf_free(&sa);
        strbuf_free(&sb);
    }
    CHECK_INT(sliced.len, whole.len);
    /* The parse error, "input no longer derives", the kept copy. */
    CHECK_INT(whole.len, 3);
    for (size_t i = 0; i < whole.len && i < sliced.len; i++) {
        CHECK_INT(sliced.items[i].line, whole.items[i].line);
        CHECK_STR(sliced.items[i].message, whole.items[i].message);
    }
    diag_list_free(&whole);
    diag_list_free(&sliced);
    workspace_free(a);
    workspace_free(b);
    /* Aborted half-way. */
    ld = workspace_load_begin(path, &d);
    if (CHECK(ld != NULL)) {
        CHECK(workspace_load_step(ld, 5, &d));
        workspace_load_abort(ld);
    }
    diag_list_free(&d);
    unlink(kept);
    unlink(path);
    rmdir(dir);
    free(dir);
    workspace_free(ws);
}

TEST(workspace_dup_rebuilds)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws =
        workspace_new(harness_path("tests/grammars/contexts/numbers.ebnf"), NULL, &d);
    if (!CHECK(ws != NULL))
        return;
    CHECK(workspace_set_k(ws, 1, &d));
    CHECK_INT(workspace_count(ws, WS_ALL), 39);
    CHECK(workspace_add_sample(ws, "s", "1.5", 3, &d));
    uint64_t before = workspace_count(ws, WS_COVERED);
    CHECK(workspace_dup(ws, "<factor>", 4, 0, &d));
    CHECK_INT(workspace_count(ws, WS_ALL), 85);
    CHECK_INT(ws->ninputs, 1);
    CHECK(workspace_count(ws, WS_COVERED) >= before);
    CHECK(!workspace_dup(ws, "<nope>", 0, 0, &d));
    CHECK_INT(ws->ndups, 1);
    diag_list_free(&d);
    workspace_free(ws);
}

TEST(workspace_export_suite)
{
    struct workspace *ws = open_expr();
    char *dir = temp_dir();
    if (!ws || !CHECK(dir != NULL))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(workspace_add_sample(ws, "s", "x+42", 4, &d));
    ws->gen_opts.closeoff = GEN_CLOSE_SHORTEST; /* a second input within 200 steps */
    for (int i = 0; i < 200 && workspace_gen_step(ws); i++)
        ;
    size_t which[2] = {0, 1};
    struct strbuf report = STRBUF_INIT;
    char out[512];
    snprintf(out, sizeof out, "%s/suite", dir);
    CHECK(workspace_export(ws, out, which, 2, false, &report, &d));
    CHECK_STR(strbuf_str(&report), strstr(strbuf_str(&report), "wrote 2 input files"));
    char file[600];
    struct stat st;
    snprintf(file, sizeof file, "%s/0001.txt", out);
    CHECK(stat(file, &st) == 0 && st.st_size == 4);
    snprintf(file, sizeof file, "%s/manifest.json", out);
    CHECK(stat(file, &st) == 0);
    /* A second export into the same, now non-empty, directory is refused. */
    strbuf_reset(&report);
    CHECK(!workspace_export(ws, out, which, 1, false, &report, &d));
    CHECK(d.errors >= 1);
    diag_list_free(&d);
    strbuf_free(&report);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    free(dir);
    workspace_free(ws);
}

/* ---- damaged workspace files ---------------------------------------------- */


static size_t file_bytes(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, size, f);
    fclose(f);
    return n;
}

/* The warning at `line` (NULL when there is none). */
static const struct diag *warning_at(const struct diag_list *d, uint32_t line)
{
    for (size_t i = 0; i < d->len; i++)
        if (d->items[i].severity == DIAG_WARNING && d->items[i].line == line)
            return &d->items[i];
    return NULL;
}

TEST(workspace_damaged_files_say_what_was_dropped_and_are_kept)
{
    char *dir = temp_dir();
    if (!CHECK(dir != NULL))
        return;
    char path[512], kept[600], kept2[600];
    snprintf(path, sizeof path, "%s/w.kpw", dir);
    snprintf(kept, sizeof kept, "%s.damaged", path);
    snprintf(kept2, sizeof kept2, "%s.damaged.2", path);
    /* Written by hand, so the line numbers are known: inputs on lines 4-7,
     * the first and the fourth marked. */
    struct strbuf good = STRBUF_INIT;
    strbuf_addf(&good, "kpath-workspace 1\ngrammar \"%s\"\nk 2\n", harness_path("grammars/expr.ebnf"));
    strbuf_addstr(&good, "input \"x\"\ninput \"1\"\ninput \"(x)+1\"\ninput \"x+x\"\nmarked 0 3\nend\n");
    struct diag_list d = DIAG_LIST_INIT;

    /* Intact: four inputs, no warning, nothing kept. */
    CHECK(put_bytes(path, good.data, good.len));
    struct workspace *ws = workspace_open(path, &d);
    if (CHECK(ws != NULL)) {
        CHECK_INT(ws->ninputs, 4);
        CHECK(ws->inputs[0].marked && ws->inputs[3].marked && !ws->inputs[1].marked);
        workspace_free(ws);
    }
    CHECK_INT(d.len, 0);
    CHECK(access(kept, F_OK) != 0);
    diag_list_free(&d);

    /* A NUL byte in line 5 ("input \"1\0\""): that line is dropped, with
     * its line and column; the lines after it are all read, and 'marked'
     * still means the file's first and fourth inputs. */
    struct strbuf nul = STRBUF_INIT;
    strbuf_add(&nul, good.data, good.len);
    char *five = strstr(nul.data, "input \"1\"");
    five[8] = '\0';
    CHECK(put_bytes(path, nul.data, nul.len));
    ws = workspace_open(path, &d);
    if (CHECK(ws != NULL)) {
        CHECK_INT(ws->ninputs, 3);
        if (CHECK_INT(ws->ninputs, 3)) {
            CHECK_STR(ws->inputs[1].text, "(x)+1");
            CHECK(ws->inputs[0].marked && !ws->inputs[1].marked && ws->inputs[2].marked);
        }
        const struct diag *w = warning_at(&d, 5);
        if (CHECK(w != NULL)) {
            CHECK_INT(w->col, 9);
            CHECK(strstr(w->message, "NUL byte") != NULL);
            CHECK(strstr(w->message, "dropped") != NULL);
        }
        /* The damaged file is kept before anything can save over it. */
        char buf[1024];
        CHECK_INT(file_bytes(kept, buf, sizeof buf), nul.len);
        CHECK(memcmp(buf, nul.data, nul.len) == 0);
        bool said = false;
        for (size_t i = 0; i < d.len; i++)
            said |= strstr(d.items[i].message, kept) != NULL;
        CHECK(said);
        diag_list_free(&d);
        /* Saving over it leaves the kept copy as it was. */
        CHECK(workspace_save(ws, path, &d));
        CHECK_INT(file_bytes(kept, buf, sizeof buf), nul.len);
        CHECK(memcmp(buf, nul.data, nul.len) == 0);
        workspace_free(ws);
    }
    diag_list_free(&d);
    /* What was saved is whole: it opens without a warning. */
    ws = workspace_open(path, &d);
    CHECK(ws != NULL && ws->ninputs == 3);
    CHECK_INT(d.len, 0);
    workspace_free(ws);
    diag_list_free(&d);

    /* Cut short after line 6: no 'end' line, said with the line number; a
     * second copy is kept beside the first, and opening the same damaged
     * file again keeps no third. */
    size_t cut = (size_t)(strstr(good.data, "input \"x+x\"") - good.data);
    CHECK(put_bytes(path, good.data, cut));
    for (int round = 0; round < 2; round++) {
        ws = workspace_open(path, &d);
        if (CHECK(ws != NULL))
            CHECK_INT(ws->ninputs, 3);
        const struct diag *w = warning_at(&d, 6);
        if (CHECK(w != NULL))
            CHECK(strstr(w->message, "no 'end' line: the file is cut short after line 6") != NULL);
        workspace_free(ws);
        diag_list_free(&d);
    }
    char buf[1024];
    CHECK_INT(file_bytes(kept2, buf, sizeof buf), cut);
    snprintf(buf, sizeof buf, "%s.damaged.3", path);
    CHECK(access(buf, F_OK) != 0);

    /* Text after 'end', and a bad escape in an input: each line reported. */
    struct strbuf after = STRBUF_INIT;
    strbuf_add(&after, good.data, good.len);
    char *bad = strstr(after.data, "input \"(x)+1\"");
    memcpy(bad, "input \"\\q\"   ", 13);
    strbuf_addstr(&after, "input \"y\"\n");
    CHECK(put_bytes(path, after.data, after.len));
    ws = workspace_open(path, &d);
    if (CHECK(ws != NULL))
        CHECK_INT(ws->ninputs, 3);
    CHECK(warning_at(&d, 6) != NULL && strstr(warning_at(&d, 6)->message, "bad escape"));
    CHECK(warning_at(&d, 10) != NULL && strstr(warning_at(&d, 10)->message, "after the 'end' line"));
    workspace_free(ws);
    diag_list_free(&d);

    snprintf(buf, sizeof buf, "%s.damaged.3", path);
    unlink(buf);
    unlink(kept2);
    unlink(kept);
    unlink(path);
    rmdir(dir);
    free(dir);
    strbuf_free(&after);
    strbuf_free(&nul);
    strbuf_free(&good);
}
