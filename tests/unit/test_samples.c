/* Samples: expanding FILE|DIR arguments (order, what is skipped, errors, deep
 * nesting), reading with the size limit checked before reading, sizes as
 * users write them, and the bundled hand-written samples: every valid one
 * parses and its first tree spells it back, every invalid one fails. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/load.h"
#include "harness.h"
#include "parse/parse.h"
#include "base/samples.h"

static char *make_temp_dir(void)
{
    char tmpl[] = "/tmp/kpath-samples-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

static void make_dir(const char *dir, const char *name)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(path, 0777);
}

/* rm -rf, iteratively enough for the shallow trees made here. */
static void remove_tree(const char *path)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", path);
}

/* The expanded paths relative to `dir`, joined with spaces. */
static void relative_names(const struct sample_list *l, const char *dir, char *out, size_t cap)
{
    size_t n = strlen(dir), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < l->len; i++) {
        const char *p = l->paths[i];
        if (strncmp(p, dir, n) == 0 && p[n] == '/')
            p += n + 1;
        used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s%s", i ? " " : "", p);
    }
}

TEST(samples_expand_walks_directories_in_path_order_skipping_hidden_and_manifests)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    make_dir(d, "a");
    make_dir(d, "a/x");
    make_dir(d, "a-b");
    make_dir(d, ".git");
    write_file(d, "a/x/2", "2");
    write_file(d, "a/1", "1");
    write_file(d, "a-b/3", "3");
    write_file(d, "A", "0");
    write_file(d, "z.txt", "4");
    write_file(d, ".hidden", "h");
    write_file(d, ".git/config", "h");
    write_file(d, "manifest.json", "{}");
    write_file(d, "a/manifest.json", "{}");
    char fifo[4200];
    snprintf(fifo, sizeof fifo, "%s/fifo", d);
    CHECK(mkfifo(fifo, 0666) == 0);

    struct sample_list l = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    const char *args[] = {d};
    CHECK_INT(samples_expand(args, 1, false, &l, &diags), 0);
    char names[1024];
    relative_names(&l, d, names, sizeof names);
    /* '/' sorts first: a/... before a-b/...; bytes otherwise ('A' < 'a'). */
    CHECK_STR(names, "A a/1 a/x/2 a-b/3 z.txt");
    /* The pipe is skipped with a warning, not read (that would block). */
    if (CHECK_INT(diags.len, 1)) {
        CHECK_INT(diags.items[0].severity, DIAG_WARNING);
        CHECK_STR(diags.items[0].message, "not a regular file, skipped");
    }
    sample_list_free(&l);
    diag_list_free(&diags);
    remove_tree(d);
    free(d);
}

TEST(samples_expand_keeps_files_and_reports_missing_arguments)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    write_file(d, "one", "1");
    make_dir(d, "empty");
    char one[4200], missing[4200], empty[4200];
    snprintf(one, sizeof one, "%s/one", d);
    snprintf(missing, sizeof missing, "%s/missing", d);
    snprintf(empty, sizeof empty, "%s/empty", d);
    const char *args[] = {one, missing, "-", empty, one};
    struct sample_list l = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK_INT(samples_expand(args, 5, false, &l, &diags), 1);
    if (CHECK_INT(l.len, 3)) {
        CHECK_STR(l.paths[0], one);
        CHECK_STR(l.paths[1], "-");
        CHECK_STR(l.paths[2], one); /* given twice, listed twice */
    }
    if (CHECK_INT(diags.len, 2)) {
        struct strbuf sb = STRBUF_INIT;
        diag_format(&diags.items[0], &sb);
        char want[4400];
        snprintf(want, sizeof want, "%s: error: cannot read: No such file or directory", missing);
        CHECK_STR(strbuf_str(&sb), want);
        strbuf_reset(&sb);
        diag_format(&diags.items[1], &sb);
        snprintf(want, sizeof want, "%s: warning: no sample files in this directory", empty);
        CHECK_STR(strbuf_str(&sb), want);
        strbuf_free(&sb);
    }
    CHECK_STR(samples_display_name("-"), "<stdin>");
    CHECK_STR(samples_display_name(one), one);
    sample_list_free(&l);
    diag_list_free(&diags);
    remove_tree(d);
    free(d);
}

TEST(samples_expand_walks_deep_directories_without_recursion)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    /* 1000 levels: far more than any recursion would need to notice, within PATH_MAX. */
    char path[4096];
    size_t len = (size_t)snprintf(path, sizeof path, "%s", d);
    for (int i = 0; i < 1000 && len + 3 < sizeof path - 16; i++) {
        path[len++] = '/';
        path[len++] = 'd';
        path[len] = '\0';
        if (!CHECK(mkdir(path, 0777) == 0))
            break;
    }
    write_file(path, "leaf", "x");
    struct sample_list l = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    const char *args[] = {d};
    CHECK_INT(samples_expand(args, 1, false, &l, &diags), 0);
    if (CHECK_INT(l.len, 1))
        CHECK_INT(strlen(l.paths[0]), len + 5);
    sample_list_free(&l);
    diag_list_free(&diags);
    remove_tree(d);
    free(d);
}

/* A sample argument that is not a regular file (a device, a pipe) is read
 * only when asked for (--any-file): the error names the file, its kind and
 * the switch, and is given before the file is opened (an unconnected pipe
 * would block).  "-", directories and regular files are always taken. */
TEST(samples_expand_refuses_devices_and_pipes_unless_asked)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    write_file(d, "plain", "1");
    char fifo[4200], plain[4200];
    snprintf(fifo, sizeof fifo, "%s/fifo", d);
    snprintf(plain, sizeof plain, "%s/plain", d);
    CHECK(mkfifo(fifo, 0666) == 0);
    const char *args[] = {"/dev/zero", fifo, plain, "-", d};
    struct sample_list l = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK_INT(samples_expand(args, 5, false, &l, &diags), 2);
    if (CHECK_INT(l.len, 3)) {
        CHECK_STR(l.paths[0], plain);
        CHECK_STR(l.paths[1], "-");
        CHECK_STR(l.paths[2], plain); /* the directory's one regular file */
    }
    if (CHECK_INT(diags.len, 3)) {
        struct strbuf sb = STRBUF_INIT;
        diag_format(&diags.items[0], &sb);
        CHECK_STR(strbuf_str(&sb), "/dev/zero: error: cannot read: a character device, not a "
                                   "regular file (--any-file reads it)");
        strbuf_reset(&sb);
        diag_format(&diags.items[1], &sb);
        char want[4400];
        snprintf(want, sizeof want,
                 "%s: error: cannot read: a pipe, not a regular file (--any-file reads it)", fifo);
        CHECK_STR(strbuf_str(&sb), want);
        strbuf_free(&sb);
        /* Met while walking a directory, a pipe is skipped, not an error. */
        CHECK_INT(diags.items[2].severity, DIAG_WARNING);
        CHECK_STR(diags.items[2].message, "not a regular file, skipped");
    }
    sample_list_free(&l);
    diag_list_free(&diags);

    /* Asked for: both are listed (and then read to their size limit). */
    CHECK_INT(samples_expand(args, 2, true, &l, &diags), 0);
    if (CHECK_INT(l.len, 2)) {
        CHECK_STR(l.paths[0], "/dev/zero");
        CHECK_STR(l.paths[1], fifo);
    }
    CHECK_INT(diags.len, 0);
    struct strbuf text = STRBUF_INIT;
    CHECK(!samples_read("/dev/zero", 100, &text, &diags));
    if (CHECK_INT(diags.len, 1))
        CHECK_STR(diags.items[0].message,
                  "input is more than 100 bytes, the limit (--max-input-size)");
    strbuf_free(&text);
    CHECK(samples_kind_allowed(d, false, &diags)); /* directories: the caller's business */
    CHECK(samples_kind_allowed(plain, false, &diags));
    CHECK(!samples_kind_allowed("/dev/null", false, &diags));
    CHECK(samples_kind_allowed("/dev/null", true, &diags));
    CHECK_INT(diags.len, 2);
    sample_list_free(&l);
    diag_list_free(&diags);
    remove_tree(d);
    free(d);
}

TEST(samples_read_checks_the_size_before_reading)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/huge", d);
    /* A sparse terabyte: reading it would take ages, refusing it takes nothing. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)1 << 40) == 0);
    if (fd >= 0)
        close(fd);
    struct strbuf text = STRBUF_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(!samples_read(path, PARSE_DEFAULT_MAX_INPUT, &text, &diags));
    CHECK_INT(text.len, 0);
    if (CHECK_INT(diags.len, 1)) {
        CHECK_STR(diags.items[0].file, path);
        CHECK_INT(diags.items[0].line, 0);
        CHECK_STR(diags.items[0].message, "input is 1099511627776 bytes, more than the limit of "
                                          "16777216 (--max-input-size)");
    }
    diag_list_free(&diags);

    /* Exactly at the limit is fine; one byte more is not. */
    write_file(d, "five", "12345");
    snprintf(path, sizeof path, "%s/five", d);
    CHECK(samples_read(path, 5, &text, &diags));
    CHECK_STR(strbuf_str(&text), "12345");
    CHECK_INT(text.len, 5);
    CHECK(!samples_read(path, 4, &text, &diags));
    CHECK_INT(diags.len, 1);
    diag_list_free(&diags);

    /* Empty files read as empty; a directory and a missing file are errors. */
    write_file(d, "empty", "");
    snprintf(path, sizeof path, "%s/empty", d);
    CHECK(samples_read(path, 5, &text, &diags));
    CHECK_INT(text.len, 0);
    CHECK(!samples_read(d, 5, &text, &diags));
    snprintf(path, sizeof path, "%s/missing", d);
    CHECK(!samples_read(path, 5, &text, &diags));
    if (CHECK_INT(diags.len, 2)) {
        CHECK_STR(diags.items[0].message, "cannot read: Is a directory");
        CHECK_STR(diags.items[1].message, "cannot read: No such file or directory");
    }
    diag_list_free(&diags);
    strbuf_free(&text);
    remove_tree(d);
    free(d);
}

/* Files of a few MiB get a buffer of their own size at once (asking for
 * huge pages): every byte must still come through, NUL-terminated, also
 * into a buffer that held a larger or smaller file before. */
TEST(samples_read_reads_large_files_whole)
{
    char *d = make_temp_dir();
    if (!CHECK(d != NULL))
        return;
    size_t sizes[3] = {((size_t)3 << 20) + 5, (size_t)5 << 20, 100};
    char *expect = malloc(sizes[1]);
    struct strbuf text = STRBUF_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    for (size_t t = 0; t < 3; t++) {
        for (size_t i = 0; i < sizes[t]; i++)
            expect[i] = (char)('a' + (i * 7 + t) % 26);
        char path[4200];
        snprintf(path, sizeof path, "%s/big%zu", d, t);
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(expect, 1, sizes[t], f) == sizes[t]);
        if (f)
            fclose(f);
        CHECK(samples_read(path, (size_t)16 << 20, &text, &diags));
        CHECK_INT(text.len, sizes[t]);
        CHECK(text.len == sizes[t] && memcmp(text.data, expect, sizes[t]) == 0 &&
              text.data[sizes[t]] == '\0');
        /* One byte under its size: refused, and the buffer empty. */
        CHECK(!samples_read(path, sizes[t] - 1, &text, &diags));
        CHECK_INT(text.len, 0);
    }
    CHECK_INT(diags.len, 3);
    diag_list_free(&diags);
    strbuf_free(&text);
    free(expect);
    remove_tree(d);
    free(d);
}

/* Standard input replaced by a pipe holding `data`. */
static bool read_stdin(const char *data, size_t max, struct strbuf *text, struct diag_list *diags)
{
    int saved = dup(STDIN_FILENO), fds[2];
    if (saved < 0 || pipe(fds) != 0)
        return false;
    size_t len = strlen(data);
    bool wrote = write(fds[1], data, len) == (ssize_t)len;
    close(fds[1]);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    bool ok = wrote && samples_read("-", max, text, diags);
    dup2(saved, STDIN_FILENO);
    close(saved);
    return ok;
}

TEST(samples_read_takes_standard_input_up_to_the_limit)
{
    struct strbuf text = STRBUF_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(read_stdin("x+42", 10, &text, &diags));
    CHECK_STR(strbuf_str(&text), "x+42");
    CHECK(!read_stdin("0123456789abc", 10, &text, &diags));
    if (CHECK_INT(diags.len, 1)) {
        CHECK_STR(diags.items[0].file, "<stdin>");
        CHECK_STR(diags.items[0].message, "input is more than 10 bytes, the limit (--max-input-size)");
    }
    diag_list_free(&diags);
    strbuf_free(&text);
}

TEST(samples_parse_size_reads_bytes_and_binary_suffixes)
{
    size_t n = 0;
    CHECK(samples_parse_size("1", &n) && n == 1);
    CHECK(samples_parse_size("4096", &n) && n == 4096);
    CHECK(samples_parse_size("1K", &n) && n == 1024);
    CHECK(samples_parse_size("2k", &n) && n == 2048);
    CHECK(samples_parse_size("16M", &n) && n == PARSE_DEFAULT_MAX_INPUT);
    CHECK(samples_parse_size("1G", &n) && n == (size_t)1 << 30);
    CHECK(!samples_parse_size("0", &n));
    CHECK(!samples_parse_size("", &n));
    CHECK(!samples_parse_size("-1", &n));
    CHECK(!samples_parse_size("1.5M", &n));
    CHECK(!samples_parse_size("1MB", &n));
    CHECK(!samples_parse_size("12 ", &n));
    CHECK(!samples_parse_size("99999999999999999999999", &n));
    CHECK(!samples_parse_size("99999999999999999G", &n));
}

/* ---- the bundled samples ----------------------------------------------------- */

static const struct {
    const char *grammar, *dir;
} bundled_samples[] = {
    {"grammars/expr.ebnf", "tests/samples/expr"},
    {"grammars/arith.ebnf", "tests/samples/arith"},
    {"grammars/json.ebnf", "tests/samples/json"},
    {"grammars/csv.ebnf", "tests/samples/csv"},
    {"grammars/url.ebnf", "tests/samples/url"},
};

/* Parse every file of dir/valid (each must parse, its first tree spelling it
 * back) and dir/invalid (each must fail with one positioned diagnostic). */
static void check_samples(const struct graph *g, const char *dir, bool valid, size_t *count)
{
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", harness_path(dir), valid ? "valid" : "invalid");
    const char *args[] = {sub};
    struct sample_list l = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK_INT(samples_expand(args, 1, false, &l, &diags), 0);
    CHECK_INT(diags.len, 0);
    struct strbuf text = STRBUF_INIT, back = STRBUF_INIT;
    for (size_t i = 0; i < l.len; i++) {
        if (!CHECK(samples_read(l.paths[i], PARSE_DEFAULT_MAX_INPUT, &text, &diags)))
            continue;
        struct forest *f = parse_text(g, l.paths[i], text.data ? text.data : "", text.len, NULL,
                                      &diags);
        if (valid) {
            if (!CHECK(f != NULL)) {
                fprintf(stderr, "  %s does not parse: %s\n", l.paths[i],
                        diags.len ? diags.items[diags.len - 1].message : "");
                continue;
            }
            struct derivation t;
            CHECK(forest_first_tree(f, &t));
            strbuf_reset(&back);
            derivation_text(&t, &back);
            if (!CHECK_INT(back.len, text.len) ||
                !CHECK(memcmp(strbuf_str(&back), strbuf_str(&text), text.len) == 0))
                fprintf(stderr, "  %s: the first tree spells something else\n", l.paths[i]);
            derivation_free(&t);
        } else {
            CHECK(f == NULL);
            if (CHECK_INT(diags.len, 1))
                CHECK(diags.items[0].line >= 1 && diags.items[0].col >= 1);
        }
        (*count)++;
        forest_free(f);
        diag_list_free(&diags);
    }
    strbuf_free(&text);
    strbuf_free(&back);
    diag_list_free(&diags);
    sample_list_free(&l);
}

TEST(samples_bundled_valid_ones_parse_back_and_invalid_ones_fail)
{
    for (size_t i = 0; i < sizeof bundled_samples / sizeof bundled_samples[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(bundled_samples[i].grammar, &l)))
            continue;
        size_t valid = 0, invalid = 0;
        check_samples(l.graph, bundled_samples[i].dir, true, &valid);
        check_samples(l.graph, bundled_samples[i].dir, false, &invalid);
        CHECK(valid >= 4);
        CHECK(invalid >= 4);
        test_unload(&l);
    }
}
