#include "load.h"

#include <stdio.h>
#include <string.h>

#include "../unit/harness.h"
#include "grammar/grammar_file.h"

static bool finish(struct grammar *g, struct diag_list *diags, struct loaded *out)
{
    if (!g) {
        struct strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < diags->len; i++) {
            strbuf_reset(&sb);
            diag_format(&diags->items[i], &sb);
            fprintf(stderr, "  %s\n", strbuf_str(&sb));
        }
        strbuf_free(&sb);
    }
    diag_list_free(diags);
    out->grammar = g;
    out->graph = g ? graph_build(g) : NULL;
    return g != NULL;
}

bool test_load_string(const char *text, struct loaded *out)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_string("test.ebnf", text, strlen(text), NULL, &diags);
    return finish(g, &diags, out);
}

bool test_load_file(const char *relative_path, struct loaded *out)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_file(harness_path(relative_path), NULL, &diags);
    return finish(g, &diags, out);
}

bool test_load_file_absolute(const char *path, struct loaded *out)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_file(path, NULL, &diags);
    return finish(g, &diags, out);
}

void test_unload(struct loaded *l)
{
    graph_free(l->graph);
    grammar_free(l->grammar);
    l->graph = NULL;
    l->grammar = NULL;
}
