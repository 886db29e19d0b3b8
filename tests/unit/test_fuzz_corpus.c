/* Replays every input the fuzzers ever found: tests/fuzz/crashes/ through the
 * loader, graph and k-path space (each must load or fail, never crash), and
 * tests/fuzz/crashes-parse/ through the sample parser against every bundled
 * grammar (each must parse, with a first tree spelling it, or fail with a
 * diagnostic), and tests/fuzz/crashes-gen/ through cover -k 2 under the
 * default budgets (tests/support/gen_case.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/gen_case.h"
#include "harness.h"
#include "graph/kpath.h"
#include "parse/parse.h"
#include "grammar/grammar_file.h"

static bool opendir_ok(const char *path)
{
    DIR *d = opendir(path);
    if (d)
        closedir(d);
    return d != NULL;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

TEST(fuzz_corpus_replays_without_crashing)
{
    const char *dir = harness_path("tests/fuzz/crashes");
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s", dir);
    DIR *d = opendir(dirpath);
    if (!CHECK(d != NULL))
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        size_t len = 0;
        char *text = read_all(path, &len);
        if (!CHECK(text != NULL))
            continue;
        struct diag_list diags = DIAG_LIST_INIT;
        struct grammar *g = grammar_load_string(e->d_name, text, len, NULL, &diags);
        if (g) {
            struct graph *graph = graph_build(g);
            struct kpath_space sp;
            kpath_space_init(&sp, graph, 3);
            kpath_space_free(&sp);
            graph_free(graph);
            grammar_free(g);
        } else {
            CHECK(diag_has_errors(&diags));
        }
        diag_list_free(&diags);
        free(text);
    }
    closedir(d);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of `dir` (not hidden, not README.md), sorted; NULL-terminated. */
static char **list_files(const char *dir, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
            continue;
        if (*n + 1 >= cap)
            names = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names) {
        qsort(names, *n, sizeof *names, compare_names);
        names[*n] = NULL;
    }
    return names;
}

static void free_files(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Parse text[0..len) with graph g: no crash, and either a first tree that
 * spells the text or an error diagnostic. */
static void replay_sample(const struct graph *g, const char *name, const char *text, size_t len)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, name, text, len, NULL, &diags);
    if (!f) {
        CHECK(diag_has_errors(&diags));
    } else {
        bool infinite;
        forest_count_trees(f, &infinite);
        struct derivation t;
        if (CHECK(forest_first_tree(f, &t))) {
            struct strbuf back = STRBUF_INIT;
            derivation_text(&t, &back);
            if (!CHECK(back.len == len && (len == 0 || memcmp(back.data, text, len) == 0)))
                fprintf(stderr, "  %s: the first tree does not spell the sample\n", name);
            strbuf_free(&back);
        }
        derivation_free(&t);
        struct kpath_space sp;
        kpath_space_init(&sp, g, 2);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        forest_add_kpaths(f, &set);
        kpath_set_free(&set);
        kpath_space_free(&sp);
        forest_free(f);
    }
    diag_list_free(&diags);
}

TEST(fuzz_parse_corpus_replays_against_every_bundled_grammar)
{
    char gdir[4096], cdir[4096];
    snprintf(gdir, sizeof gdir, "%s", harness_path("grammars"));
    snprintf(cdir, sizeof cdir, "%s", harness_path("tests/fuzz/crashes-parse"));
    size_t ngrammars, ninputs;
    char **gnames = list_files(gdir, &ngrammars);
    char **inputs = list_files(cdir, &ninputs);
    CHECK(ngrammars > 0);
    CHECK(opendir_ok(cdir));
    for (size_t gi = 0; gi < ngrammars; gi++) {
        size_t len = strlen(gnames[gi]);
        if (len < 5 || strcmp(gnames[gi] + len - 5, ".ebnf") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", gdir, gnames[gi]);
        struct diag_list diags = DIAG_LIST_INIT;
        struct grammar *g = grammar_load_file(path, NULL, &diags);
        diag_list_free(&diags);
        if (!CHECK(g != NULL))
            continue;
        struct graph *graph = graph_build(g);
        for (size_t i = 0; i < ninputs; i++) {
            snprintf(path, sizeof path, "%s/%s", cdir, inputs[i]);
            size_t n = 0;
            char *text = read_all(path, &n);
            if (!CHECK(text != NULL))
                continue;
            replay_sample(graph, inputs[i], text, n);
            if (n > 0)
                replay_sample(graph, inputs[i], text + 1, n - 1);
            free(text);
        }
        graph_free(graph);
        grammar_free(g);
    }
    free_files(gnames, ngrammars);
    free_files(inputs, ninputs);
}

TEST(fuzz_gen_corpus_replays_within_the_budgets)
{
    char cdir[4096];
    snprintf(cdir, sizeof cdir, "%s", harness_path("tests/fuzz/crashes-gen"));
    CHECK(opendir_ok(cdir));
    size_t ninputs;
    char **inputs = list_files(cdir, &ninputs);
    for (size_t i = 0; i < ninputs; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", cdir, inputs[i]);
        size_t n = 0;
        char *data = read_all(path, &n);
        if (!CHECK(data != NULL))
            continue;
        const char *wrong = gen_case_run((const uint8_t *)data, n);
        if (!CHECK(wrong == NULL))
            fprintf(stderr, "  %s: %s\n", inputs[i], wrong);
        free(data);
    }
    free_files(inputs, ninputs);
    /* The case itself: a random grammar of 40 rules (seed 5) runs within
     * the budgets, and a grammar whose input is too deep for them is
     * not made deeper than --max-depth. */
    static const uint8_t random40[10] = {0, 0, 0, 0, 0, 0, 0, 0, 5, 39};
    CHECK(gen_case_run(random40, sizeof random40) == NULL);
    const char *deep = "S := \"(\" S \")\" | \"x\";";
    CHECK(gen_case_run((const uint8_t *)deep, strlen(deep)) == NULL);
}
