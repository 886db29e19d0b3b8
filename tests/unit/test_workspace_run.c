/* workspace_run: the inputs of a workspace as a suite a campaign runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "workspace/workspace_run.h"
#include "workspace/workspace_file.h"

TEST(workspace_run_inputs_dir_is_beside_the_results)
{
    char *d = workspace_run_inputs_dir("kpath-run.jsonl");
    CHECK_STR(d, "kpath-run.inputs");
    free(d);
    d = workspace_run_inputs_dir("out/r");
    CHECK_STR(d, "out/r.inputs");
    free(d);
    d = workspace_run_inputs_dir(".jsonl"); /* nothing before the suffix: kept */
    CHECK_STR(d, ".jsonl.inputs");
    free(d);
}

TEST(workspace_run_inputs_written_in_workspace_order)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("grammars/expr.ebnf"), NULL, &d);
    if (!CHECK(ws != NULL))
        return;
    char tmpl[] = "/tmp/kpath-wsrun-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!CHECK(dir != NULL))
        return;
    char suite[600];
    snprintf(suite, sizeof suite, "%s/r.inputs", dir);
    struct sample_list in = SAMPLE_LIST_INIT;
    /* no inputs: an error, nothing written */
    CHECK(!workspace_run_inputs(ws, suite, &in, &d));
    CHECK_INT(d.errors, 1);
    CHECK(d.len && strstr(d.items[0].message, "no inputs to run") != NULL);
    CHECK(access(suite, F_OK) != 0);
    diag_list_free(&d);
    CHECK(workspace_add_sample(ws, "a", "x+1", 3, &d));
    CHECK(workspace_add_sample(ws, "b", "(x)", 3, &d));
    CHECK(workspace_run_inputs(ws, suite, &in, &d));
    CHECK_INT(d.len, 0);
    if (CHECK_INT(in.len, 2)) {
        char want[700];
        snprintf(want, sizeof want, "%s/0002.txt", suite);
        CHECK_STR(in.paths[1], want);
        FILE *f = fopen(in.paths[1], "rb");
        char buf[8] = "";
        if (CHECK(f != NULL)) {
            CHECK_INT(fread(buf, 1, sizeof buf - 1, f), 3);
            fclose(f);
        }
        CHECK_STR(buf, "(x)");
    }
    /* each record finds its input again by the SHA-256 of the text */
    char hex[SHA256_HEX_SIZE];
    sha256_hex("(x)", 3, hex);
    CHECK_INT(workspace_input_by_sha256(ws, hex), 1);
    sha256_hex("y", 1, hex);
    CHECK(workspace_input_by_sha256(ws, hex) == SIZE_MAX);
    /* a workspace file is told from a grammar by its first line */
    char kpw[700];
    snprintf(kpw, sizeof kpw, "%s/w.kpw", dir);
    CHECK(workspace_save(ws, kpw, &d));
    CHECK(workspace_file_is(kpw));
    CHECK(!workspace_file_is(harness_path("grammars/expr.ebnf")));
    CHECK(!workspace_file_is("/nonexistent/w.kpw"));
    for (size_t i = 0; i < in.len; i++)
        unlink(in.paths[i]);
    char manifest[700];
    snprintf(manifest, sizeof manifest, "%s/manifest.json", suite);
    unlink(manifest);
    rmdir(suite);
    unlink(kpw);
    rmdir(dir);
    sample_list_free(&in);
    diag_list_free(&d);
    workspace_free(ws);
}
