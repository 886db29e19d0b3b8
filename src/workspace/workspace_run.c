/* workspace_run: the inputs of a workspace as files a campaign runs (see
 * workspace_run.h). */
#include "workspace/workspace_run.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file_kinds.h"
#include "base/outdir.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "workspace/workspace_export.h"

char *workspace_run_inputs_dir(const char *results_path)
{
    size_t len = strlen(results_path);
    const char *ext = ".jsonl";
    size_t el = strlen(ext);
    if (len > el && strcmp(results_path + len - el, ext) == 0)
        len -= el;
    struct strbuf sb = STRBUF_INIT;
    strbuf_add(&sb, results_path, len);
    strbuf_addstr(&sb, ".inputs");
    return strbuf_detach(&sb, NULL);
}

bool workspace_run_inputs(struct workspace *ws, const char *dir, struct sample_list *out,
                          struct diag_list *diags)
{
    if (ws->ninputs == 0) {
        diag_add(diags, DIAG_ERROR, ws->file, 0, 0,
                 "the workspace has no inputs to run: generate some (r, :gen, kpath cover) "
                 "or load samples first");
        return false;
    }
    size_t *which = xcalloc(ws->ninputs, sizeof *which);
    for (size_t i = 0; i < ws->ninputs; i++)
        which[i] = i;
    struct strbuf report = STRBUF_INIT;
    /* force: the suite of an earlier run of these inputs is replaced (its
     * stale numbered cases too); anything else in dir is left alone. */
    bool ok = workspace_export(ws, dir, which, ws->ninputs, true, &report, diags);
    strbuf_free(&report);
    free(which);
    if (!ok)
        return false;
    for (size_t i = 0; i < ws->ninputs; i++) {
        struct strbuf p = STRBUF_INIT;
        strbuf_addstr(&p, dir);
        strbuf_addch(&p, '/');
        outdir_case_name(&p, i + 1, ws->ninputs, ".txt");
        out->paths = xgrow(out->paths, &out->cap, out->len + 1, sizeof *out->paths);
        out->paths[out->len++] = strbuf_detach(&p, NULL);
    }
    return true;
}

bool workspace_file_is(const char *path)
{
    return samples_file_starts_with(path, WORKSPACE_FIRST_BYTES);
}

size_t workspace_input_by_sha256(const struct workspace *ws, const char *hex)
{
    for (size_t i = 0; i < ws->ninputs; i++) {
        char h[SHA256_HEX_SIZE];
        sha256_hex(ws->inputs[i].text, ws->inputs[i].len, h);
        if (strcmp(h, hex) == 0)
            return i;
    }
    return SIZE_MAX;
}
