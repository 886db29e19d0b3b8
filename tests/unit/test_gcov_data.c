/* Tests of gcov_data (GCC's .gcno/.gcda read directly) and of --gcov's two
 * ways: on every test subject (subjects/, tests/subjects/) and on programs
 * written here for what the subjects lack (static functions of one name,
 * two functions on one line, loops on one line, a header's code, exit from
 * deep inside, inlining at -O2, file names with "." and ".."), built with
 * --coverage and run on inputs, the features of the reader equal gcov
 * --json-format's, list for list, in the same order.  Corrupt and
 * truncated counters are refused with a clear message.  Skipped (saying
 * so) without gcc and gcov. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/samples.h"
#include "base/strbuf.h"
#include "harness.h"
#include "run/campaign.h"
#include "run/collect.h"
#include "run/gcov_data.h"
#include "run/results.h"
#include "run/runner.h"

static bool have_tools(void)
{
    struct diag_list d = DIAG_LIST_INIT;
    bool ok = runner_check_command("gcc", &d) && runner_check_command("gcov", &d);
    diag_list_free(&d);
    if (!ok)
        printf("  skip: gcov_data tests need gcc and gcov\n");
    return ok;
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

static bool sh(const char *fmt, const char *a, const char *b)
{
    struct strbuf cmd = STRBUF_INIT;
    strbuf_addf(&cmd, fmt, a, b);
    bool ok = system(cmd.data) == 0;
    if (!ok)
        printf("  failed: %s\n", cmd.data);
    strbuf_free(&cmd);
    return ok;
}

/* The features of each record of a campaign of `argv` on `inputs` with the
 * gcov collector made by `make` (with lines), one string per record:
 * "outcome|feature|feature...". */
static bool campaign_features(bool (*make)(struct collector *, const char *, bool,
                                           struct diag_list *),
                              const char *build, char *const *argv,
                              const struct sample_list *inputs, const char *results,
                              struct strbuf *out)
{
    struct collector cols[2];
    struct diag_list diags = DIAG_LIST_INIT;
    collector_outcome(&cols[0]);
    if (!make(&cols[1], build, true, &diags)) {
        printf("  %s\n", diags.len ? diags.items[0].message : "no collector");
        collector_free(&cols[0]);
        diag_list_free(&diags);
        return false;
    }
    char *names[2] = {cols[0].name, cols[1].name};
    struct results_header h = {.kpath_version = "test", .grammar = "g",
                               .command = (char **)argv, .ncommand = 1,
                               .collect = names, .ncollect = 2};
    memset(h.grammar_sha256, 'a', SHA256_HEX_SIZE - 1);
    unlink(results);
    struct campaign_options o = {.runner = {.jobs = 1, .timeout_ms = 20000},
                                 .argv = (char **)argv, .collectors = cols, .ncollectors = 2,
                                 .results_path = results, .header = &h,
                                 .max_input_size = 1 << 16, .keep_going = true};
    struct campaign *c = campaign_open(&o, inputs, &diags);
    enum campaign_state st = c ? CAMPAIGN_RUNNING : CAMPAIGN_FAILED;
    while (st == CAMPAIGN_RUNNING)
        st = campaign_step(c, 50, &diags);
    if (st == CAMPAIGN_DONE) {
        const struct results *r = campaign_results(c);
        for (size_t i = 0; i < r->nrecords; i++) {
            const struct run_record *rec = &r->records[i];
            strbuf_addf(out, "%s <- %s", rec->outcome, rec->input);
            for (uint32_t k = 0; k < rec->nfeatures; k++)
                strbuf_addf(out, "|%s", r->features[rec->features[k]]);
            strbuf_addstr(out, "\n");
        }
    } else {
        printf("  campaign failed: %s\n", diags.len ? diags.items[0].message : "?");
    }
    campaign_free(c);
    collector_free(&cols[0]);
    collector_free(&cols[1]);
    diag_list_free(&diags);
    unlink(results);
    return st == CAMPAIGN_DONE;
}

struct subject {
    const char *name;
    const char *build;  /* shell command in DIR (%s) building DIR/prog, %s: the root */
    const char *arg;    /* an argument to the program, or NULL */
    const char *inputs[8];
};

/* A program of several files for what the bundled subjects lack. */
static const char *const extra_files[][2] = {
    {"src/util.h", "static inline int clamp(int v)\n{\n    return v > 9 ? 9 : v < 0 ? 0 : v;\n}\n"},
    {"src/a.c",
     "#include \"util.h\"\n"
     "static int helper(int x) { return clamp(x + 1); }\n"
     "int only_a(int x) { return helper(x); }\n"
     "int sum_to(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }\n"
     "int twin1(int x) { return x + 1; } int twin2(int x) { return x + 2; }\n"
     "int never(int x)\n{\n    return x * 3;\n}\n"},
    {"src/b.c",
     "#include <stdio.h>\n#include <stdlib.h>\n#include \"util.h\"\n"
     "int only_a(int x); int sum_to(int n); int twin1(int x); int twin2(int x);\n"
     "static int helper(int x) { return clamp(x * 2); }\n"
     "static void deep(int d) { if (d == 0) exit(4); deep(d - 1); }\n"
     "int main(void)\n{\n    int c = getchar(), n = 0;\n"
     "    while (c != EOF && c != '\\n') {\n"
     "        switch (c) {\n"
     "        case 'a': n += only_a(n); break;\n"
     "        case 'b': n += helper(n); break;\n"
     "        case 's': n += sum_to(5); break;\n"
     "        case 't': n += twin1(n); break;\n"
     "        case 'u': n += twin2(n); break;\n"
     "        case 'x': deep(3); break;\n"
     "        default: n++;\n"
     "        }\n"
     "        c = getchar();\n"
     "    }\n"
     "    printf(\"%d\\n\", n);\n    return n > 100;\n}\n"},
};

TEST(gcov_reader_equals_gcov_on_every_subject)
{
    if (!have_tools())
        return;
    char dir[] = "/tmp/kpath-gcov-test-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    struct strbuf path = STRBUF_INIT;
    const char *root = harness_path(".");
    char *abs_root = realpath(root, NULL);
    if (!CHECK(abs_root != NULL))
        return;
    const struct subject subjects[] = {
        {"calc", "gcc -std=c11 -O0 --coverage -o %s/prog %s/subjects/calc.c", NULL,
         {"1+2", "2*3", "1+2*3", "-4", "(5)", "1/0", "1+", "-(1)"}},
        {"url", "gcc -std=c11 -O0 --coverage -o %s/prog %s/subjects/url.c", NULL,
         {"http://a.b/c?d#e", "ftp://u:p@[::1]:21/x", "bad", "h://%41/", "", "a+b://x:/"}},
        {"url-O2", "gcc -std=c11 -O2 --coverage -o %s/prog %s/subjects/url.c", NULL,
         {"http://a.b/c?d#e", "ftp://u:p@[::1]:21/x", "bad", "h://%41/"}},
        {"lang", "gcc -std=c11 -O0 --coverage -o %s/prog %s/tests/subjects/lang.c", "ident",
         {"a=1,2;", "_x9=0", "9=1", "a=", "a=1,", ""}},
        {"hostile", "gcc -std=c11 -O0 --coverage -o %s/prog %s/tests/subjects/hostile.c", NULL,
         {"exit 0", "exit 3", "segv", "echo", "flood 1", "alloc 1", "tty", "nonsense"}},
        {"harness_list",
         "gcc -std=c11 -O0 --coverage -DKPATH_STANDALONE -o %s/prog "
         "%s/tests/subjects/harness_list.c",
         NULL, {"[1,ab,[2]]", "[]", "x", "[1,", "%[1]", "$[a]", "~", ""}},
        {"extra", "cd %s/src/sub && gcc -O0 --coverage -o ../../prog ./../a.c ../sub/../b.c%.0s",
         NULL, {"a", "b", "s", "t", "u", "tuab", "x", "zz"}},
        {"extra-O2", "cd %s/src/sub && gcc -O2 --coverage -o ../../prog ../a.c ../b.c%.0s",
         NULL, {"a", "b", "s", "tu", "x"}},
    };
    size_t compared = 0, lines = 0, fns = 0;
    for (size_t s = 0; s < sizeof subjects / sizeof *subjects; s++) {
        const struct subject *sub = &subjects[s];
        struct strbuf sdir = STRBUF_INIT;
        strbuf_addf(&sdir, "%s/%s", dir, sub->name);
        mkdir(sdir.data, 0700);
        if (strncmp(sub->name, "extra", 5) == 0) {
            strbuf_reset(&path);
            strbuf_addf(&path, "%s/src", sdir.data);
            mkdir(path.data, 0700);
            strbuf_addstr(&path, "/sub");
            mkdir(path.data, 0700);
            for (size_t f = 0; f < sizeof extra_files / sizeof *extra_files; f++) {
                strbuf_reset(&path);
                strbuf_addf(&path, "%s/%s", sdir.data, extra_files[f][0]);
                CHECK(write_text(path.data, extra_files[f][1]));
            }
        }
        if (!CHECK(sh(sub->build, sdir.data, abs_root))) {
            strbuf_free(&sdir);
            continue;
        }
        struct sample_list inputs = SAMPLE_LIST_INIT;
        for (size_t i = 0; i < 8 && sub->inputs[i]; i++) {
            strbuf_reset(&path);
            strbuf_addf(&path, "%s/in%zu", sdir.data, i);
            CHECK(write_text(path.data, sub->inputs[i]));
            inputs.paths = realloc(inputs.paths, (inputs.len + 1) * sizeof *inputs.paths);
            inputs.paths[inputs.len++] = strbuf_detach(&path, NULL);
        }
        struct strbuf prog = STRBUF_INIT, results = STRBUF_INIT;
        strbuf_addf(&prog, "%s/prog", sdir.data);
        strbuf_addf(&results, "%s/r.jsonl", sdir.data);
        char *argv[] = {prog.data, (char *)sub->arg, NULL};
        struct strbuf reader = STRBUF_INIT, gcov = STRBUF_INIT;
        bool ok1 = campaign_features(collector_gcov, sdir.data, argv, &inputs, results.data,
                                     &reader);
        bool ok2 = campaign_features(collector_gcov_spawn, sdir.data, argv, &inputs,
                                     results.data, &gcov);
        if (CHECK(ok1) && CHECK(ok2)) {
            if (!CHECK_STR(reader.data, gcov.data))
                printf("  subject %s differs\n", sub->name);
            compared += inputs.len;
            for (const char *p = reader.data; (p = strstr(p, "|line:")) != NULL; p++)
                lines++;
            for (const char *p = reader.data; (p = strstr(p, "|fn:")) != NULL; p++)
                fns++;
        }
        strbuf_free(&reader);
        strbuf_free(&gcov);
        strbuf_free(&prog);
        strbuf_free(&results);
        sample_list_free(&inputs);
        strbuf_free(&sdir);
    }
    /* Not vacuous: every input compared, with functions and lines. */
    CHECK_INT(compared, 8 + 6 + 4 + 6 + 8 + 8 + 8 + 5);
    CHECK(fns > 100);
    CHECK(lines > 500);
    printf("  %zu inputs compared: %zu functions and %zu lines that ran, alike\n", compared, fns,
           lines);
    CHECK(sh("rm -rf %s%s", dir, ""));
    free(abs_root);
    strbuf_free(&path);
}

static bool copy_cut(const char *from, const char *to, long cut, long patch_at, uint32_t patch)
{
    FILE *f = fopen(from, "rb");
    if (!f)
        return false;
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (cut >= 0 && (size_t)cut < n)
        n = (size_t)cut;
    if (patch_at >= 0 && (size_t)patch_at + 4 <= n)
        memcpy(buf + patch_at, &patch, 4);
    f = fopen(to, "wb");
    if (!f)
        return false;
    fwrite(buf, 1, n, f);
    return fclose(f) == 0;
}

/* The first diagnostic's message after reading counters from `gcda`. */
static void read_expect(struct gcov_notes *notes, const char *gcda, const char *expect)
{
    struct diag_list d = DIAG_LIST_INIT;
    bool ok = gcov_notes_read_counts(notes, gcda, "x.gcda", &d);
    if (!expect) {
        CHECK(ok);
        CHECK_INT(d.len, 0);
    } else if (CHECK(!ok) && CHECK_INT(d.errors, 1)) {
        if (!CHECK(strstr(d.items[0].message, expect) != NULL))
            printf("  message: %s (expected: %s)\n", d.items[0].message, expect);
        CHECK_STR(d.items[0].file, "x.gcda");
    }
    diag_list_free(&d);
}

static void count_fn(void *ctx, const char *name, const char *file, uint32_t line, bool ran)
{
    (void)file, (void)line;
    if (ran && strcmp(name, "add") == 0)
        ++*(int *)ctx;
}

TEST(gcov_reader_refuses_corrupt_counters)
{
    if (!have_tools())
        return;
    char dir[] = "/tmp/kpath-gcov-bad-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    char *abs_root = realpath(harness_path("."), NULL);
    struct strbuf gcno = STRBUF_INIT, gcda = STRBUF_INIT, bad = STRBUF_INIT;
    strbuf_addf(&gcno, "%s/prog-calc.gcno", dir);
    strbuf_addf(&gcda, "%s/prog-calc.gcda", dir);
    strbuf_addf(&bad, "%s/bad.gcda", dir);
    if (abs_root && CHECK(sh("gcc -std=c11 -O0 --coverage -o %s/prog %s/subjects/calc.c", dir,
                             abs_root)) &&
        CHECK(sh("printf 1+2 | %s/prog >/dev/null%s", dir, ""))) {
        struct gcov_notes *notes = NULL;
        struct diag_list d = DIAG_LIST_INIT;
        char version[5];
        if (CHECK_INT(gcov_notes_read(gcno.data, &notes, version, &d), GCOV_READ_OK)) {
            int ran = 0;
            read_expect(notes, gcda.data, NULL);
            gcov_notes_functions(notes, count_fn, &ran);
            CHECK_INT(ran, 1);
            struct stat sb;
            CHECK(stat(gcda.data, &sb) == 0 && sb.st_size > 64);
            long size = (long)sb.st_size;
            /* Cut inside the last record, inside a header, at nothing. */
            CHECK(copy_cut(gcda.data, bad.data, size - 5, -1, 0));
            read_expect(notes, bad.data, "corrupt gcov counters at byte");
            CHECK(copy_cut(gcda.data, bad.data, 10, -1, 0));
            read_expect(notes, bad.data, "the header is cut short");
            CHECK(copy_cut(gcda.data, bad.data, 0, -1, 0));
            read_expect(notes, bad.data, "not a gcov data file");
            CHECK(copy_cut(gcda.data, bad.data, -1, 0, 0x12345678));
            read_expect(notes, bad.data, "not a gcov data file");
            CHECK(copy_cut(gcda.data, bad.data, -1, 8, 0x12345678)); /* the stamp */
            read_expect(notes, bad.data, "not of the build whose notes are");
            /* The first function's counters claim one counter too many. */
            uint32_t tag = 0, len = 0;
            FILE *f = fopen(gcda.data, "rb");
            long at = 16, arcs = -1;
            while (f && fseek(f, at, SEEK_SET) == 0 && fread(&tag, 4, 1, f) == 1 &&
                   fread(&len, 4, 1, f) == 1) {
                if (tag == 0x01a10000u) {
                    arcs = at;
                    break;
                }
                at += 8 + (long)len;
            }
            if (f)
                fclose(f);
            if (CHECK(arcs > 0)) {
                CHECK(copy_cut(gcda.data, bad.data, -1, arcs + 4, len + 8));
                read_expect(notes, bad.data, "bytes of counters for '");
            }
            /* A good file reads again after bad ones, with the same counts. */
            read_expect(notes, gcda.data, NULL);
            ran = 0;
            gcov_notes_functions(notes, count_fn, &ran);
            CHECK_INT(ran, 1);
        }
        CHECK_INT(d.errors, 0);
        diag_list_free(&d);
        gcov_notes_free(notes);
        /* A cut notes file is an error, not an unknown version. */
        CHECK(copy_cut(gcno.data, bad.data, 6, -1, 0));
        CHECK_INT(gcov_notes_read(bad.data, &notes, version, &d), GCOV_READ_ERROR);
        CHECK(d.errors == 1 && strstr(d.items[0].message, "cut short") != NULL);
        diag_list_free(&d);
        /* Another GCC's notes: told apart, with the version. */
        CHECK(copy_cut(gcno.data, bad.data, -1, 4, 0x4233302a)); /* "B30*" */
        CHECK_INT(gcov_notes_read(bad.data, &notes, version, &d), GCOV_READ_OTHER_VERSION);
        CHECK_STR(version, "B30*");
        CHECK_INT(d.len, 0);
        diag_list_free(&d);
    }
    CHECK(sh("rm -rf %s%s", dir, ""));
    free(abs_root);
    strbuf_free(&gcno);
    strbuf_free(&gcda);
    strbuf_free(&bad);
}

/* Read `len` bytes of `data` with one byte changed (at `at`, by `flip`)
 * as notes or as counters: a result or exactly one error, never a crash
 * or a read past the bytes (the sanitized build checks that). */
static bool mangled_ok(const unsigned char *data, size_t len, size_t at, unsigned char flip,
                       const char *path, struct gcov_notes *notes)
{
    static unsigned char buf[1 << 16];
    memcpy(buf, data, len);
    if (at < len)
        buf[at] ^= flip;
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fwrite(buf, 1, len, f);
    fclose(f);
    struct diag_list d = DIAG_LIST_INIT;
    bool ok;
    if (notes) {
        ok = gcov_notes_read_counts(notes, path, "x", &d);
        if (ok) {
            int ran = 0;
            gcov_notes_functions(notes, count_fn, &ran);
        }
    } else {
        struct gcov_notes *n = NULL;
        char version[5];
        enum gcov_read_status st = gcov_notes_read(path, &n, version, &d);
        ok = st != GCOV_READ_ERROR;
        gcov_notes_free(n);
    }
    bool good = ok ? d.errors == 0 : d.errors == 1;
    diag_list_free(&d);
    return good;
}

static size_t slurp_test(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

TEST(gcov_reader_survives_every_cut_and_changed_byte)
{
    if (!have_tools())
        return;
    char dir[] = "/tmp/kpath-gcov-fuzz-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    char *abs_root = realpath(harness_path("."), NULL);
    struct strbuf gcno = STRBUF_INIT, gcda = STRBUF_INIT, bad = STRBUF_INIT;
    strbuf_addf(&gcno, "%s/prog-calc.gcno", dir);
    strbuf_addf(&gcda, "%s/prog-calc.gcda", dir);
    /* The mangled copies, thousands of them, on a memory file system if any. */
    char shm[] = "/dev/shm/kpath-gcov-fuzz-XXXXXX";
    bool in_shm = mkdtemp(shm) != NULL;
    strbuf_addf(&bad, "%s/bad", in_shm ? shm : dir);
    static unsigned char notes_bytes[1 << 16], data_bytes[1 << 16];
    struct gcov_notes *notes = NULL;
    struct diag_list d = DIAG_LIST_INIT;
    char version[5];
    if (abs_root && CHECK(sh("gcc -std=c11 -O0 --coverage -o %s/prog %s/subjects/calc.c", dir,
                             abs_root)) &&
        CHECK(sh("printf '(1+2)*3/4' | %s/prog >/dev/null%s", dir, "")) &&
        CHECK_INT(gcov_notes_read(gcno.data, &notes, version, &d), GCOV_READ_OK)) {
        size_t nlen = slurp_test(gcno.data, notes_bytes, sizeof notes_bytes);
        size_t dlen = slurp_test(gcda.data, data_bytes, sizeof data_bytes);
        CHECK(nlen > 1000 && nlen < sizeof notes_bytes);
        CHECK(dlen > 100 && dlen < sizeof data_bytes);
        size_t bad_runs = 0, tries = 0;
        for (size_t at = 0; at <= dlen; at++) {
            bad_runs += !mangled_ok(data_bytes, at, dlen, 0, bad.data, notes); /* cut */
            bad_runs += !mangled_ok(data_bytes, dlen, at, 0xff, bad.data, notes);
            bad_runs += !mangled_ok(data_bytes, dlen, at, 0x01, bad.data, notes);
            tries += 3;
        }
        for (size_t at = 0; at <= nlen; at += 5) {
            bad_runs += !mangled_ok(notes_bytes, at, nlen, 0, bad.data, NULL);
            bad_runs += !mangled_ok(notes_bytes, nlen, at, 0xff, bad.data, NULL);
            bad_runs += !mangled_ok(notes_bytes, nlen, at, 0x01, bad.data, NULL);
            tries += 3;
        }
        CHECK_INT(bad_runs, 0);
        CHECK(tries > 7000);
        /* The good counters still read to the same functions. */
        int ran = 0;
        read_expect(notes, gcda.data, NULL);
        gcov_notes_functions(notes, count_fn, &ran);
        CHECK_INT(ran, 1);
    }
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    gcov_notes_free(notes);
    CHECK(sh("rm -rf %s%s", dir, ""));
    if (in_shm)
        CHECK(sh("rm -rf %s%s", shm, ""));
    free(abs_root);
    strbuf_free(&gcno);
    strbuf_free(&gcda);
    strbuf_free(&bad);
}
