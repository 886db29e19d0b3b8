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

struct run_batch *run_cli_batch_open(const struct cli_command *cmd, const struct run_cli *r,
                                     const char *grammar, const char *start, int *status)
{
    struct diag_list diags = DIAG_LIST_INIT;
    /* The harness is built once, before the first batch; its fork server
     * becomes the command. */
    bool harness = r->harness.file != NULL;
    struct run_cli *rw = (struct run_cli *)r;
    if (harness && harness_cli_prepare(cmd, &rw->harness, &rw->runner) != EXIT_OK) {
        *status = EXIT_USAGE;
        return NULL;
    }
    struct run_batch_options o = {
        .runner = r->runner,
        .argv = harness ? rw->harness.command : r->command,
        .nargv = harness ? 2 : r->ncommand,
        .collect = {r->gcov_dir, r->lines, r->node, r->features_cmds, r->nfeatures_cmds, harness},
        .runs_dir = r->runs_dir, .keep_going = r->keep_going, .grammar = grammar,
        .start = start};
    struct run_batch *b = run_batch_new(&o, &diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    *status = b ? EXIT_OK : EXIT_USAGE;
    return b;
}

int run_cli_batch_run(const struct cli_command *cmd, struct run_batch *b, const char *label,
                      char *const *texts, const size_t *lens, size_t n, const char **paths_out)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct campaign *c = run_batch_start(b, label, texts, lens, n, paths_out, &diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    if (!c) {
        run_batch_finish(b, &diags);
        diag_list_free(&diags);
        return EXIT_FAILURE_OTHER;
    }
    int status = EXIT_OK;
    struct campaign_progress p;
    enum campaign_state st = cli_run_campaign(cmd, c, &p);
    if (p.escaped)
        run_cli_print_costs(cmd->name, &(struct campaign_progress){.escaped = p.escaped});
    bool temporary = run_batch_temporary(b);
    if (st == CAMPAIGN_RUNNING && temporary) {
        fprintf(stderr, "kpath %s: interrupted (%s): %zu of %zu runs recorded (in a "
                        "temporary directory, removed now: --runs DIR keeps them)\n",
                cmd->name, cli_interrupt_name(), p.done, p.total);
        status = 130;
    } else if (st == CAMPAIGN_RUNNING) {
        fprintf(stderr, "kpath %s: interrupted (%s): %zu of %zu runs recorded in %s\n",
                cmd->name, cli_interrupt_name(), p.done, p.total, run_batch_results_path(b));
        status = 130;
    } else if (st == CAMPAIGN_FAILED) {
        /* A temporary directory goes at the end: do not name its file. */
        if (temporary)
            fprintf(stderr, "kpath %s: stopped: %zu of %zu runs recorded (in a temporary "
                            "directory, removed now: --runs DIR keeps them)\n",
                    cmd->name, p.done, p.total);
        else
            fprintf(stderr, "kpath %s: stopped: %zu of %zu runs recorded in %s\n", cmd->name,
                    p.done, p.total, run_batch_results_path(b));
        status = EXIT_FAILURE_OTHER;
    }
    if (!run_batch_finish(b, &diags) && status == EXIT_OK)
        status = EXIT_FAILURE_OTHER;
    if (status == EXIT_OK)
        cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
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
