/* results: the results file of `kpath run`, written and read back, appended
 * to after a crash, merged from shards, and refused when it is not one. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "harness.h"
#include "run/results.h"
#include "base/strbuf.h"
#include "workspace/workspace_run.h"
#include "base/xalloc.h"

static char *command_argv[] = {"./calc", "{}"};
static char *collect_names[] = {"outcome", "gcov"};

static struct results_header test_header(const char *sha_digit)
{
    struct results_header h = {0};
    h.kpath_version = "0.1.0";
    h.grammar = "grammars/arith.ebnf";
    memset(h.grammar_sha256, sha_digit[0], SHA256_HEX_SIZE - 1);
    h.grammar_sha256[SHA256_HEX_SIZE - 1] = '\0';
    h.command = command_argv;
    h.ncommand = 2;
    h.collect = collect_names;
    h.ncollect = 2;
    return h;
}

/* A record for `input` with the comma-separated features. */
static void add_record(struct results *r, const char *input, const char *outcome,
                       const char *features)
{
    struct run_record rec = {0};
    rec.input = xstrdup(input);
    memset(rec.input_sha256, 'a', SHA256_HEX_SIZE - 1);
    rec.input_size = strlen(input);
    rec.outcome = xstrdup(outcome);
    rec.wall_ms = 1.5;
    rec.out.first_line = xstrdup("4");
    rec.out.size = 2;
    rec.err.first_line = xstrdup("");
    char *copy = xstrdup(features);
    rec.features = xcalloc(16, sizeof *rec.features);
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
        rec.features[rec.nfeatures++] = results_intern(r, tok);
    free(copy);
    results_add(r, &rec);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    struct strbuf sb = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_add(&sb, buf, n);
    if (f)
        fclose(f);
    return strbuf_detach(&sb, NULL);
}

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/kpath-results-XXXXXX";
    return xstrdup(mkdtemp(tmpl));
}

static char *join(const char *dir, const char *name)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s/%s", dir, name);
    return strbuf_detach(&sb, NULL);
}

TEST(results_record_line_is_the_documented_schema)
{
    struct results r;
    results_init(&r);
    /* Features given out of order and twice are written sorted, once. */
    add_record(&r, "suite/1.txt", "exit:0", "fn:parse,exit:0,fn:main,fn:parse");
    struct strbuf line = STRBUF_INIT;
    results_format_record(&r, &r.records[0], &line);
    CHECK_STR(strbuf_str(&line),
              "{\"input\":\"suite/1.txt\",\"input_sha256\":\"" 
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\","
              "\"input_size\":11,\"outcome\":\"exit:0\",\"wall_ms\":1.500,\"cpu_ms\":0.000,"
              "\"max_rss_kb\":0,\"stdout\":{\"size\":2,\"sha256\":\"\",\"first_line\":\"4\"},"
              "\"stderr\":{\"size\":0,\"sha256\":\"\",\"first_line\":\"\"},"
              "\"features\":[\"exit:0\",\"fn:main\",\"fn:parse\"]}\n");
    CHECK_INT(r.records[0].nfeatures, 3);
    CHECK_INT(r.nfeatures, 3);
    strbuf_free(&line);
    results_free(&r);
}

TEST(results_written_and_read_back)
{
    char *dir = make_tmpdir();
    char *path = join(dir, "r.jsonl");
    struct results_header h = test_header("1");
    struct diag_list diags = DIAG_LIST_INIT;
    struct results r;
    results_init(&r);
    add_record(&r, "a", "exit:0", "exit:0,fn:main");
    add_record(&r, "b", "signal:SIGSEGV", "signal:SIGSEGV,fn:main,fn:crash");
    int fd = results_append_open(path, &h, NULL, &diags);
    CHECK(fd >= 0);
    for (size_t i = 0; i < r.nrecords; i++) {
        struct strbuf line = STRBUF_INIT;
        results_format_record(&r, &r.records[i], &line);
        CHECK(results_append_line(fd, path, &line, &diags));
        strbuf_free(&line);
    }
    close(fd);

    struct results back;
    CHECK(results_load(path, &back, &diags));
    CHECK_INT(diags.len, 0);
    CHECK_INT(back.nrecords, 2);
    CHECK_STR(back.header.grammar, "grammars/arith.ebnf");
    CHECK_INT(back.header.ncommand, 2);
    CHECK_STR(back.header.command[1], "{}");
    CHECK_STR(back.header.collect[1], "gcov");
    const struct run_record *b = results_find_input(&back, "b");
    CHECK(b != NULL);
    if (b) {
        CHECK_STR(b->outcome, "signal:SIGSEGV");
        CHECK_INT(b->nfeatures, 3);
        CHECK(results_record_has(&back, b, results_find_feature(&back, "fn:crash")));
        CHECK(!results_record_has(&back, b, results_find_feature(&back, "exit:0")));
        CHECK(b->wall_ms == 1.5);
    }
    CHECK(results_find_feature(&back, "fn:nothing") == UINT32_MAX);
    results_free(&back);
    results_free(&r);
    diag_list_free(&diags);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

TEST(results_append_after_a_cut_short_line)
{
    char *dir = make_tmpdir();
    char *path = join(dir, "r.jsonl");
    struct results_header h = test_header("1");
    struct strbuf text = STRBUF_INIT;
    results_format_header(&h, &text);
    strbuf_addstr(&text, "{\"input\":\"a\",\"outcome\":\"exit:0\",\"features\":[\"exit:0\"]}\n");
    strbuf_addstr(&text, "{\"input\":\"b\",\"outc"); /* the crash came here */
    write_text(path, strbuf_str(&text));

    struct diag_list diags = DIAG_LIST_INIT;
    struct results have;
    results_init(&have);
    int fd = results_append_open(path, &h, &have, &diags);
    CHECK(fd >= 0);
    CHECK_INT(have.nrecords, 1); /* a: finished; b: cut short */
    CHECK_INT(diags.len, 1);
    if (diags.len) {
        struct strbuf msg = STRBUF_INIT;
        diag_format(&diags.items[0], &msg);
        CHECK(strstr(strbuf_str(&msg), "r.jsonl:3:1: warning: the last line is cut short") != NULL);
        strbuf_free(&msg);
    }
    struct strbuf line = STRBUF_INIT;
    strbuf_addstr(&line, "{\"input\":\"c\",\"outcome\":\"exit:1\",\"features\":[\"exit:1\"]}\n");
    CHECK(results_append_line(fd, path, &line, &diags));
    close(fd);
    diag_list_free(&diags);

    struct results back;
    CHECK(results_load(path, &back, &diags));
    CHECK_INT(diags.len, 0); /* the cut line is gone, c follows a */
    CHECK_INT(back.nrecords, 2);
    CHECK(results_find_input(&back, "c") != NULL);
    results_free(&back);
    results_free(&have);
    strbuf_free(&line);
    strbuf_free(&text);
    diag_list_free(&diags);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

TEST(results_append_refuses_another_grammar)
{
    char *dir = make_tmpdir();
    char *path = join(dir, "r.jsonl");
    struct results_header h1 = test_header("1"), h2 = test_header("2");
    struct diag_list diags = DIAG_LIST_INIT;
    int fd = results_append_open(path, &h1, NULL, &diags);
    CHECK(fd >= 0);
    close(fd);
    char *before = read_text(path);
    CHECK(results_append_open(path, &h2, NULL, &diags) < 0);
    CHECK_INT(diags.errors, 1);
    if (diags.len) {
        struct strbuf msg = STRBUF_INIT;
        diag_format(&diags.items[0], &msg);
        CHECK(strstr(strbuf_str(&msg), "another grammar") != NULL);
        strbuf_free(&msg);
    }
    char *after = read_text(path);
    CHECK_STR(after, before); /* nothing was written */
    free(before);
    free(after);
    diag_list_free(&diags);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

TEST(results_merge_of_shards_is_sorted_deduplicated_and_checked)
{
    char *dir = make_tmpdir();
    char *p1 = join(dir, "1.jsonl"), *p2 = join(dir, "2.jsonl"), *p3 = join(dir, "3.jsonl");
    char *out = join(dir, "out.jsonl"), *out2 = join(dir, "out2.jsonl");
    struct results_header h = test_header("1");
    struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT, t3 = STRBUF_INIT;
    results_format_header(&h, &t1);
    strbuf_addstr(&t1, "{\"input\":\"c\",\"outcome\":\"exit:0\",\"features\":[\"exit:0\",\"fn:x\"]}\n");
    strbuf_addstr(&t1, "{\"input\":\"a\",\"outcome\":\"exit:0\",\"features\":[\"exit:0\"]}\n");
    results_format_header(&h, &t2);
    strbuf_addstr(&t2, "{\"input\":\"b\",\"outcome\":\"timeout\",\"features\":[\"timeout\"]}\n");
    /* a again, with other features: the first file's record wins. */
    strbuf_addstr(&t2, "{\"input\":\"a\",\"outcome\":\"exit:3\",\"features\":[\"exit:3\"]}\n");
    struct results_header other = test_header("9");
    results_format_header(&other, &t3);
    write_text(p1, strbuf_str(&t1));
    write_text(p2, strbuf_str(&t2));
    write_text(p3, strbuf_str(&t3));

    struct diag_list diags = DIAG_LIST_INIT;
    const char *both[] = {p1, p2};
    CHECK(results_merge(both, 2, out, &diags));
    struct results m;
    CHECK(results_load(out, &m, &diags));
    CHECK_INT(m.nrecords, 3);
    if (m.nrecords == 3) {
        CHECK_STR(m.records[0].input, "a");
        CHECK_STR(m.records[0].outcome, "exit:0");
        CHECK_STR(m.records[1].input, "b");
        CHECK_STR(m.records[2].input, "c");
        CHECK(results_record_has(&m, &m.records[2], results_find_feature(&m, "fn:x")));
    }
    results_free(&m);

    /* Associative: (1 + 2) + 2 equals 1 + (2 + 2), byte for byte. */
    const char *again[] = {out, p2};
    CHECK(results_merge(again, 2, out2, &diags));
    const char *inner[] = {p2, p2};
    char *inner_out = join(dir, "inner.jsonl"), *outer_out = join(dir, "outer.jsonl");
    CHECK(results_merge(inner, 2, inner_out, &diags));
    const char *outer[] = {p1, inner_out};
    CHECK(results_merge(outer, 2, outer_out, &diags));
    char *x = read_text(out2), *y = read_text(outer_out);
    CHECK_STR(x, y);
    free(x);
    free(y);
    CHECK_INT(diags.len, 0);

    /* Another grammar: refused, and the output is not written. */
    const char *mixed[] = {p1, p3};
    char *refused = join(dir, "refused.jsonl");
    CHECK(!results_merge(mixed, 2, refused, &diags));
    CHECK(access(refused, F_OK) != 0);
    CHECK_INT(diags.errors, 1);

    const char *files[] = {p1, p2, p3, out, out2, inner_out, outer_out};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(files[i]);
    rmdir(dir);
    free(p1); free(p2); free(p3); free(out); free(out2); free(inner_out); free(outer_out);
    free(refused); free(dir);
    strbuf_free(&t1); strbuf_free(&t2); strbuf_free(&t3);
    diag_list_free(&diags);
}

TEST(results_load_errors_name_line_and_column)
{
    char *dir = make_tmpdir();
    char *path = join(dir, "bad.jsonl");
    struct {
        const char *text, *expect;
    } cases[] = {
        {"{\"x\":1}\n", "bad.jsonl:1:1: error: not a kpath results file (its first line has no \"kpath_results\")"},
        {"{\"kpath_results\":2}\n", "bad.jsonl:1:18: error: results schema 2 is not supported (this kpath reads 1)"},
        {"{\"kpath_results\":1}\n{\"outcome\":\"exit:0\"}\n", "bad.jsonl:2:1: error: missing \"input\""},
        {"{\"kpath_results\":1}\n{\"input\":\"a\",\"outcome\":\"exit:0\",\"features\":[1]}\n",
         "bad.jsonl:2:45: error: \"features\" must be an array of strings"},
        {"{\"kpath_results\":1}\n\n[1,\n", "bad.jsonl:3:4: error: unexpected end of text"},
        {"", "bad.jsonl: error: not a kpath results file (it is empty)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(path, cases[i].text);
        struct diag_list diags = DIAG_LIST_INIT;
        struct results r;
        CHECK(!results_load(path, &r, &diags));
        struct strbuf msg = STRBUF_INIT;
        if (diags.len)
            diag_format(&diags.items[0], &msg);
        const char *slash = strrchr(strbuf_str(&msg), '/');
        CHECK_STR(slash ? slash + 1 : strbuf_str(&msg), cases[i].expect);
        strbuf_free(&msg);
        diag_list_free(&diags);
    }
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

TEST(results_header_start_rule_round_trip_and_identity)
{
    char *dir = make_tmpdir();
    char *path = join(dir, "r.jsonl");
    struct results_header h = test_header("1"), plain = test_header("1");
    h.start = "Expr";
    struct diag_list diags = DIAG_LIST_INIT;
    int fd = results_append_open(path, &h, NULL, &diags);
    CHECK(fd >= 0);
    close(fd);
    char *text = read_text(path);
    CHECK(strstr(text, "\"grammar_sha256\":\"1111111111111111111111111111111111111111111111111111111111111111\",\"start\":\"Expr\",\"command\"") != NULL);
    free(text);
    struct results r;
    CHECK(results_load(path, &r, &diags));
    CHECK_STR(r.header.start, "Expr");
    results_free(&r);
    /* Another start rule is another grammar: never combined. */
    CHECK(!results_headers_match(&h, &plain, "x.jsonl", NULL, &diags));
    CHECK_INT(diags.errors, 1);
    if (diags.len)
        CHECK_STR(diags.items[0].message,
                  "results of another start rule: they cannot be combined");
    diag_list_free(&diags);
    /* Appending (kpath run) says what to do instead, and leaves the file. */
    CHECK_INT(results_append_open(path, &plain, NULL, &diags), -1);
    if (CHECK_INT(diags.len, 1))
        CHECK_STR(diags.items[0].message, "results of another start rule: they cannot be "
                  "combined; choose another --results, or remove this file");
    diag_list_free(&diags);
    char *after = read_text(path);
    CHECK(strstr(after, "\"start\":\"Expr\"") != NULL);
    free(after);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

/* Told by the first bytes (what :run! may replace must be a results file):
 * a header results_format_header writes is one; a workspace, a file shorter
 * than the mark, an empty one and a missing one are not (and the workspace
 * is a workspace, the others are not). */
TEST(results_file_is_told_by_its_first_bytes)
{
    char *dir = make_tmpdir();
    char *results = join(dir, "r.jsonl"), *ws = join(dir, "w.kpath");
    char *cut = join(dir, "cut.jsonl"), *empty = join(dir, "empty"), *none = join(dir, "none");
    struct results_header h = test_header("1");
    struct strbuf text = STRBUF_INIT;
    results_format_header(&h, &text);
    write_text(results, strbuf_str(&text));
    strbuf_free(&text);
    write_text(ws, "kpath-workspace 1\ngrammar g.ebnf\n");
    write_text(cut, "{\"kpath_res");
    write_text(empty, "");
    CHECK(results_file_is(results));
    CHECK(!results_file_is(ws) && !results_file_is(cut) && !results_file_is(empty) &&
          !results_file_is(none));
    CHECK(workspace_file_is(ws));
    CHECK(!workspace_file_is(results) && !workspace_file_is(empty) && !workspace_file_is(none));
    char *paths[] = {results, ws, cut, empty};
    for (size_t i = 0; i < 4; i++)
        CHECK_INT(unlink(paths[i]), 0);
    CHECK_INT(rmdir(dir), 0);
    free(results);
    free(ws);
    free(cut);
    free(empty);
    free(none);
    free(dir);
}
