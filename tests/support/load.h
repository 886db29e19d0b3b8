/* load: loading grammars in tests.  test_load_* print the diagnostics of a
 * grammar that fails to load (so a failing test says why) and return NULL. */
#ifndef KPATH_TEST_LOAD_H
#define KPATH_TEST_LOAD_H

#include "graph/graph.h"

struct loaded {
    struct grammar *grammar;
    struct graph *graph;
};

bool test_load_string(const char *text, struct loaded *out);
bool test_load_file(const char *relative_path, struct loaded *out);
bool test_load_file_absolute(const char *path, struct loaded *out);
void test_unload(struct loaded *l);

#endif
