/* run_batch: see run_batch.h. */
#include "run_batch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/outdir.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/xalloc.h"
#include "parse/parse.h"

struct run_batch {
    struct runner_options runner;
    bool keep_going;
    struct collector *cols;
    size_t ncols;
    char **collect_names;
    struct results_header header;
    char **argv;                /* NULL-terminated, each string owned */
    size_t nargv;
    char *grammar, *start;      /* owned */
    char *dir;                  /* owned */
    bool temporary;             /* dir was made here: removed at the end */
    struct strbuf results_path;
    struct results results;
    struct str_list paths;      /* every file written */
    size_t batches;
    struct campaign *campaign;  /* the batch under way, or NULL */
    struct sample_list inputs;  /* its inputs, which the campaign borrows */
};

struct run_batch *run_batch_new(const struct run_batch_options *o, struct diag_list *diags)
{
    struct run_batch *b = xcalloc(1, sizeof *b);
    b->runner = o->runner;
    b->keep_going = o->keep_going;
    results_init(&b->results);
    bool ok = collect_set_make(&o->collect, &b->cols, &b->ncols, diags);
    b->collect_names = collect_set_names(b->cols, b->ncols);
    b->argv = xcalloc(o->nargv + 1, sizeof *b->argv);
    for (size_t i = 0; i < o->nargv; i++)
        b->argv[i] = xstrdup(o->argv[i]);
    b->nargv = o->nargv;
    b->grammar = xstrdup(o->grammar ? o->grammar : "");
    b->start = o->start ? xstrdup(o->start) : NULL;
    b->header = (struct results_header){.kpath_version = KPATH_VERSION,
                                        .grammar = b->grammar, .start = b->start,
                                        .command = b->argv, .ncommand = (uint32_t)b->nargv,
                                        .collect = b->collect_names,
                                        .ncollect = (uint32_t)b->ncols};
    if (ok)
        ok = sha256_file(b->grammar, b->header.grammar_sha256, diags);
    if (ok && o->runs_dir) {
        struct outdir od = {0};
        ok = outdir_open(&od, o->runs_dir, false, diags) == OUTDIR_OK;
        outdir_close(&od);
        b->dir = xstrdup(o->runs_dir);
    } else if (ok) {
        const char *tmp = getenv("TMPDIR");
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s/kpath-runs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(path.data)) {
            b->dir = strbuf_detach(&path, NULL);
            b->temporary = true;
        } else {
            diag_add(diags, DIAG_ERROR, path.data, 0, 0,
                     "cannot make a temporary directory: %s", strerror(errno));
            strbuf_free(&path);
            ok = false;
        }
    }
    if (ok)
        strbuf_addf(&b->results_path, "%s/results.jsonl", b->dir);
    if (!ok) {
        run_batch_close(b);
        return NULL;
    }
    return b;
}

struct campaign *run_batch_start(struct run_batch *b, const char *label, char *const *texts,
                                 const size_t *lens, size_t n, const char **paths_out,
                                 struct diag_list *diags)
{
    if (b->campaign) /* one at a time: the caller forgot run_batch_finish */
        run_batch_finish(b, diags);
    struct strbuf dir = STRBUF_INIT, name = STRBUF_INIT;
    strbuf_addf(&dir, "%s/%s", b->dir, label);
    struct outdir od = {0};
    bool ok = outdir_open(&od, dir.data, false, diags) == OUTDIR_OK;
    size_t first = b->paths.len;
    for (size_t i = 0; ok && i < n; i++) {
        strbuf_reset(&name);
        outdir_case_name(&name, i + 1, n, ".txt");
        ok = outdir_write(&od, name.data, texts[i], lens[i], diags);
        str_list_addf(&b->paths, "%s/%s", dir.data, name.data);
    }
    if (ok)
        ok = outdir_finish(&od, ".txt", diags);
    outdir_close(&od);
    strbuf_free(&name);
    strbuf_free(&dir);
    sample_list_free(&b->inputs);
    if (ok && samples_expand((const char *const *)b->paths.items + first, n, false, &b->inputs,
                             diags))
        ok = false;
    if (paths_out)
        for (size_t i = 0; i < n; i++)
            paths_out[i] = first + i < b->paths.len ? b->paths.items[first + i] : "";
    if (ok) {
        struct campaign_options co = {
            .runner = b->runner,
            .argv = b->argv, .collectors = b->cols, .ncollectors = b->ncols,
            .results_path = b->results_path.data, .header = &b->header,
            .resume = b->batches > 0, .max_input_size = PARSE_DEFAULT_MAX_INPUT,
            .keep_going = b->keep_going || b->batches > 0};
        b->campaign = campaign_open(&co, &b->inputs, diags);
    }
    b->batches++;
    return b->campaign;
}

bool run_batch_finish(struct run_batch *b, struct diag_list *diags)
{
    if (b->campaign) {
        campaign_free(b->campaign); /* kills what still runs */
        b->campaign = NULL;
    }
    sample_list_free(&b->inputs);
    /* The campaign's results die with it: keep a copy from the file. */
    results_free(&b->results);
    results_init(&b->results);
    return results_load(b->results_path.data, &b->results, diags);
}

const struct results *run_batch_results(const struct run_batch *b)
{
    return &b->results;
}

const struct run_record *run_batch_record(const struct run_batch *b, const char *path)
{
    return results_find_input(&b->results, path);
}

const char *run_batch_dir(const struct run_batch *b)
{
    return b->dir;
}

const char *run_batch_results_path(const struct run_batch *b)
{
    return b->results_path.data;
}

bool run_batch_temporary(const struct run_batch *b)
{
    return b->temporary;
}

void run_batch_collect_names(const struct run_batch *b, struct strbuf *out)
{
    for (size_t i = 0; i < b->ncols; i++)
        strbuf_addf(out, "%s%s", i ? ", " : "", b->cols[i].name);
}

void run_batch_close(struct run_batch *b)
{
    if (!b)
        return;
    if (b->campaign)
        campaign_free(b->campaign);
    sample_list_free(&b->inputs);
    if (b->temporary && b->dir)
        runner_remove_tree(b->dir);
    collect_set_free(b->cols, b->ncols);
    free(b->collect_names);
    for (size_t i = 0; i < b->nargv; i++)
        free(b->argv[i]);
    free(b->argv);
    free(b->grammar);
    free(b->start);
    free(b->dir);
    strbuf_free(&b->results_path);
    results_free(&b->results);
    str_list_free(&b->paths);
    free(b);
}
