/* Replays every input the fuzzers ever found (tests/fuzz/crashes/) through the
 * loader, graph and k-path space: each must load or fail, never crash. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kpath.h"

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
