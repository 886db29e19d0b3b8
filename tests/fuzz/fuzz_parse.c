/* libFuzzer target for the sample parser.  The first byte picks one of the
 * bundled grammars (byte % number of grammars, in name order), the rest is the
 * sample.  Any sample must parse or fail with an error diagnostic, never
 * crash; a sample that parses must have a first tree that spells it exactly
 * (derivation_text of forest_first_tree), and its forest must give up its tree
 * count and k-paths.
 *
 * The grammars are loaded once, from $KPATH_FUZZ_GRAMMARS if set, else from
 * the directory compiled in as KPATH_FUZZ_GRAMMAR_DIR (the Makefile passes
 * the repository's grammars/): every *.ebnf file there, sorted by name. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "grammar/grammar_file.h"

#ifndef KPATH_FUZZ_GRAMMAR_DIR
#define KPATH_FUZZ_GRAMMAR_DIR "grammars"
#endif

enum { MAX_GRAMMARS = 64 };

static struct {
    struct grammar *grammar;
    struct graph *graph;
} grammars[MAX_GRAMMARS];
static size_t ngrammars;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_grammars(void)
{
    const char *dir = getenv("KPATH_FUZZ_GRAMMARS");
    if (!dir || !*dir)
        dir = KPATH_FUZZ_GRAMMAR_DIR;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz_parse: cannot open grammar directory %s\n", dir);
        abort();
    }
    char *names[MAX_GRAMMARS] = {0};
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_GRAMMARS) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > 5 && strcmp(e->d_name + len - 5, ".ebnf") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct diag_list diags = DIAG_LIST_INIT;
        struct grammar *g = grammar_load_file(path, NULL, &diags);
        diag_list_free(&diags);
        if (!g) {
            fprintf(stderr, "fuzz_parse: %s does not load\n", path);
            abort();
        }
        grammars[ngrammars].grammar = g;
        grammars[ngrammars].graph = graph_build(g);
        ngrammars++;
        free(names[i]);
    }
    if (ngrammars == 0) {
        fprintf(stderr, "fuzz_parse: no *.ebnf grammars in %s\n", dir);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ngrammars)
        load_grammars();
    if (size == 0)
        return 0;
    const struct graph *g = grammars[data[0] % ngrammars].graph;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;

    struct diag_list diags = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, "fuzz", text, len, NULL, &diags);
    if (!f) {
        if (!diag_has_errors(&diags))
            __builtin_trap(); /* a failure must say why */
        diag_list_free(&diags);
        return 0;
    }
    diag_list_free(&diags);

    bool infinite = false;
    uint64_t trees = forest_count_trees(f, &infinite);
    if (trees == 0 && !infinite)
        __builtin_trap(); /* a forest holds at least one tree */

    struct derivation t;
    if (!forest_first_tree(f, &t))
        __builtin_trap();
    struct strbuf back = STRBUF_INIT;
    derivation_text(&t, &back);
    if (back.len != len || (len && memcmp(back.data, text, len) != 0))
        __builtin_trap(); /* the first tree must spell the sample */
    strbuf_free(&back);

    /* The forest's k-paths include the first tree's. */
    struct kpath_space sp;
    kpath_space_init(&sp, g, 2);
    struct kpath_set from_forest, from_tree;
    kpath_set_init(&from_forest, &sp);
    kpath_set_init(&from_tree, &sp);
    forest_add_kpaths(f, &from_forest);
    derivation_add_kpaths(&t, &from_tree);
    uint64_t before = from_forest.size;
    kpath_set_union(&from_forest, &from_tree);
    if (from_forest.size != before)
        __builtin_trap();

    /* Without a forest: the same 2-paths, expansions and tree count. */
    struct kpath_set while_parsing;
    kpath_set_init(&while_parsing, &sp);
    struct kpath_set *ptrs[] = {&while_parsing};
    struct expansion_set exp_forest, exp_parsing;
    expansion_set_init(&exp_forest, g);
    expansion_set_init(&exp_parsing, g);
    forest_add_expansions(f, &exp_forest);
    uint64_t trees_parsing = 0;
    bool infinite_parsing = false;
    if (!parse_kpaths(g, "fuzz", text, len, NULL, ptrs, 1, &exp_parsing, &trees_parsing,
                      &infinite_parsing, &diags))
        __builtin_trap();
    diag_list_free(&diags);
    if (trees_parsing != (infinite ? UINT64_MAX : trees) || infinite_parsing != infinite)
        __builtin_trap();
    uint64_t known = from_forest.size;
    kpath_set_union(&from_forest, &while_parsing);
    if (while_parsing.size != known || from_forest.size != known)
        __builtin_trap();
    uint64_t expansions = exp_forest.count;
    expansion_set_union(&exp_forest, &exp_parsing);
    if (exp_parsing.count != expansions || exp_forest.count != expansions)
        __builtin_trap();
    expansion_set_free(&exp_forest);
    expansion_set_free(&exp_parsing);
    kpath_set_free(&while_parsing);
    kpath_set_free(&from_forest);
    kpath_set_free(&from_tree);
    kpath_space_free(&sp);
    derivation_free(&t);
    forest_free(f);
    return 0;
}
