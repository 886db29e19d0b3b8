/* run_cli: see run_cli.h. */
#include "run_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/campaign.h"
#include "campaign_loop.h"
#include "run/collect.h"
#include "run/collect_set.h"
#include "base/outdir.h"
#include "run/runner.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

void run_cli_init(struct run_cli *r)
{
    memset(r, 0, sizeof *r);
    runner_default_options(&r->runner);
    harness_cli_init(&r->harness);
}

void run_cli_free(struct run_cli *r)
{
    free(r->features_cmds);
    r->features_cmds = NULL;
    harness_cli_free(&r->harness);
}

int run_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                   struct run_cli *r)
{
    int st = cli_runner_option(cmd, name, value, "run-max-memory", &r->runner);
    if (st == CLI_NOT_MINE)
        st = harness_cli_option(cmd, name, value, &r->harness);
    if (st != CLI_NOT_MINE)
        return st;
    if (strcmp(name, "gcov") == 0) {
        r->gcov_dir = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "lines") == 0) {
        r->lines = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "node-coverage") == 0) {
        r->node = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "features-cmd") == 0) {
        r->features_cmds = xrealloc(r->features_cmds,
                                    (r->nfeatures_cmds + 1) * sizeof *r->features_cmds);
        r->features_cmds[r->nfeatures_cmds++] = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "keep-going") == 0) {
        r->keep_going = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "runs") == 0) {
        r->runs_dir = value;
        return CLI_CONTINUE;
    }
    return CLI_NOT_MINE;
}

void run_cli_set_program(struct run_cli *r, char **program, size_t nprogram)
{
    r->command = program;
    r->ncommand = nprogram;
}

int run_cli_check(const struct cli_command *cmd, const struct run_cli *r, bool run)
{
    bool harness = r->harness.file != NULL;
    if (harness && r->command)
        return cli_usage_error(cmd, "--harness FILE is the program: no -- COMMAND with it");
    if (run && !harness && (!r->command || !r->ncommand))
        return cli_usage_error(cmd, "--run needs the command after '--': --run -- COMMAND "
                                    "[ARG...]");
    if (harness && !run)
        return cli_usage_error(cmd, "--harness needs --run");
    if (harness_cli_check(cmd, &r->harness) != CLI_CONTINUE)
        return EXIT_USAGE;
    if (!run && r->command)
        return cli_usage_error(cmd, "a command after '--' is run only with --run");
    if (!run && (r->gcov_dir || r->node || r->nfeatures_cmds || r->runs_dir))
        return cli_usage_error(cmd, "--gcov, --node-coverage, --features-cmd and --runs need "
                                    "--run");
    if (r->lines && !r->gcov_dir)
        return cli_usage_error(cmd, "--lines needs --gcov BUILD_DIR");
    if (run && !harness) {
        /* Before any generation: a typo in the command should not cost it. */
        struct diag_list diags = DIAG_LIST_INIT;
        bool ok = runner_check_command(r->command[0], &diags);
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        if (!ok)
            return EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

struct run_batch {
    const struct cli_command *cmd;
    const struct run_cli *opts;
    struct collector *cols;
    size_t ncols;
    char **collect_names;
    struct results_header header;
    char **argv;                /* a NULL-terminated copy of the command's array */
    char *dir;                  /* owned */
    bool temporary;             /* dir was made here: removed at the end */
    struct strbuf results_path;
    struct results results;
    struct str_list paths;      /* every file written */
    size_t batches;
};

struct run_batch *run_batch_open(const struct cli_command *cmd, const struct run_cli *r,
                                 const char *grammar, const char *start, int *status)
{
    struct diag_list diags = DIAG_LIST_INIT;
    *status = EXIT_USAGE;
    struct run_batch *b = xcalloc(1, sizeof *b);
    b->cmd = cmd;
    b->opts = r;
    results_init(&b->results);
    bool harness = r->harness.file != NULL;
    struct collect_spec spec = {r->gcov_dir, r->lines, r->node, r->features_cmds, r->nfeatures_cmds,
                                harness};
    bool ok = collect_set_make(&spec, &b->cols, &b->ncols, &diags);
    b->collect_names = collect_set_names(b->cols, b->ncols);
    /* The harness is built once, before the first batch. */
    struct run_cli *rw = (struct run_cli *)r;
    if (ok && harness && harness_cli_prepare(cmd, &rw->harness, &rw->runner) != EXIT_OK) {
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        run_batch_close(b);
        return NULL;
    }
    char **command = harness ? rw->harness.command : r->command;
    size_t ncommand = harness ? 2 : r->ncommand;
    b->argv = xcalloc(ncommand + 1, sizeof *b->argv);
    memcpy(b->argv, command, ncommand * sizeof *b->argv);
    b->header = (struct results_header){.kpath_version = KPATH_VERSION,
                                        .grammar = (char *)grammar, .start = (char *)start,
                                        .command = b->argv, .ncommand = (uint32_t)ncommand,
                                        .collect = b->collect_names,
                                        .ncollect = (uint32_t)b->ncols};
    if (ok)
        ok = sha256_file(grammar, b->header.grammar_sha256, &diags);
    if (ok && r->runs_dir) {
        struct outdir od = {0};
        ok = outdir_open(&od, r->runs_dir, false, &diags) == OUTDIR_OK;
        outdir_close(&od);
        b->dir = xstrdup(r->runs_dir);
    } else if (ok) {
        const char *tmp = getenv("TMPDIR");
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s/kpath-runs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(path.data)) {
            b->dir = strbuf_detach(&path, NULL);
            b->temporary = true;
        } else {
            diag_add(&diags, DIAG_ERROR, path.data, 0, 0,
                     "cannot make a temporary directory: %s", strerror(errno));
            strbuf_free(&path);
            ok = false;
        }
    }
    if (ok)
        strbuf_addf(&b->results_path, "%s/results.jsonl", b->dir);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    if (!ok) {
        run_batch_close(b);
        return NULL;
    }
    *status = EXIT_OK;
    return b;
}

int run_batch_run(struct run_batch *b, const char *label, char *const *texts,
                  const size_t *lens, size_t n, const char **paths_out)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct strbuf dir = STRBUF_INIT, name = STRBUF_INIT;
    strbuf_addf(&dir, "%s/%s", b->dir, label);
    struct outdir od = {0};
    bool ok = outdir_open(&od, dir.data, false, &diags) == OUTDIR_OK;
    size_t first = b->paths.len;
    for (size_t i = 0; ok && i < n; i++) {
        strbuf_reset(&name);
        outdir_case_name(&name, i + 1, n, ".txt");
        ok = outdir_write(&od, name.data, texts[i], lens[i], &diags);
        str_list_addf(&b->paths, "%s/%s", dir.data, name.data);
    }
    if (ok)
        ok = outdir_finish(&od, ".txt", &diags);
    outdir_close(&od);
    strbuf_free(&name);
    strbuf_free(&dir);
    int status = ok ? EXIT_OK : EXIT_FAILURE_OTHER;
    struct sample_list inputs = SAMPLE_LIST_INIT;
    if (ok && samples_expand((const char *const *)b->paths.items + first, n, false, &inputs,
                                  &diags)) {
        ok = false;
        status = EXIT_FAILURE_OTHER;
    }
    cli_print_diags(b->cmd, &diags);
    diag_list_free(&diags);
    if (ok) {
        const struct run_cli *r = b->opts;
        struct campaign_options co = {
            .runner = r->runner,
            .argv = b->argv, .collectors = b->cols, .ncollectors = b->ncols,
            .results_path = b->results_path.data, .header = &b->header,
            .resume = b->batches > 0, .max_input_size = PARSE_DEFAULT_MAX_INPUT,
            .keep_going = r->keep_going || b->batches > 0};
        struct campaign *c = campaign_open(&co, &inputs, &diags);
        cli_print_diags(b->cmd, &diags);
        diag_list_free(&diags);
        if (!c) {
            status = EXIT_USAGE;
        } else {
            struct campaign_progress p;
            enum campaign_state st = cli_run_campaign(b->cmd, c, &p);
            if (p.escaped)
                run_cli_print_costs(b->cmd->name, &(struct campaign_progress){.escaped = p.escaped});
            if (st == CAMPAIGN_RUNNING && b->temporary) {
                fprintf(stderr, "kpath %s: interrupted (%s): %zu of %zu runs recorded (in a "
                                "temporary directory, removed now: --runs DIR keeps them)\n",
                        b->cmd->name, cli_interrupt_name(), p.done, p.total);
                status = 130;
            } else if (st == CAMPAIGN_RUNNING) {
                fprintf(stderr, "kpath %s: interrupted (%s): %zu of %zu runs recorded in %s\n",
                        b->cmd->name, cli_interrupt_name(), p.done, p.total,
                        b->results_path.data);
                status = 130;
            } else if (st == CAMPAIGN_FAILED) {
                /* A temporary directory goes at the end: do not name its file. */
                if (b->temporary)
                    fprintf(stderr, "kpath %s: stopped: %zu of %zu runs recorded (in a temporary "
                                    "directory, removed now: --runs DIR keeps them)\n",
                            b->cmd->name, p.done, p.total);
                else
                    fprintf(stderr, "kpath %s: stopped: %zu of %zu runs recorded in %s\n",
                            b->cmd->name, p.done, p.total, b->results_path.data);
                status = EXIT_FAILURE_OTHER;
            } else {
                /* The campaign's results die with it: keep a copy from the file. */
                results_free(&b->results);
                results_init(&b->results);
                if (!results_load(b->results_path.data, &b->results, &diags))
                    status = EXIT_FAILURE_OTHER;
                cli_print_diags(b->cmd, &diags);
                diag_list_free(&diags);
            }
            campaign_free(c);
        }
    }
    sample_list_free(&inputs);
    if (paths_out)
        for (size_t i = 0; i < n; i++)
            paths_out[i] = first + i < b->paths.len ? b->paths.items[first + i] : "";
    b->batches++;
    return status;
}

void run_cli_print_costs(const char *name, const struct campaign_progress *p)
{
    /* Times vary from run to run: for the person watching, like the
     * progress line, not for a log that scripts compare. */
    if (p->done && p->elapsed_s > 0 && isatty(2)) {
        double n = (double)p->done;
        fprintf(stderr,
                "kpath %s: %.0f runs/s; per run: %.2f ms to start, %.2f ms in the program, "
                "%.2f ms to collect\n",
                name, n / p->elapsed_s, p->start_ms / n, p->program_ms / n, p->collect_ms / n);
    }
    if (p->escaped)
        fprintf(stderr,
                "kpath %s: warning: %zu process%s left %s run's process group (setsid: a "
                "daemon?) and %s killed when %s run ended\n",
                name, p->escaped, p->escaped == 1 ? "" : "es", p->escaped == 1 ? "its" : "their",
                p->escaped == 1 ? "was" : "were", p->escaped == 1 ? "its" : "their");
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

void run_batch_collect_names(const struct run_batch *b, struct strbuf *out)
{
    for (size_t i = 0; i < b->ncols; i++)
        strbuf_addf(out, "%s%s", i ? ", " : "", b->cols[i].name);
}

void run_batch_close(struct run_batch *b)
{
    if (!b)
        return;
    if (b->temporary && b->dir)
        runner_remove_tree(b->dir);
    collect_set_free(b->cols, b->ncols);
    free(b->collect_names);
    free(b->argv);
    free(b->dir);
    strbuf_free(&b->results_path);
    results_free(&b->results);
    str_list_free(&b->paths);
    free(b);
}
