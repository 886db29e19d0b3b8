/* cmd_check_oracle: `kpath check-oracle` — check a grammar against a program
 * that says which inputs are valid (the oracle).
 *
 * A k-path suite per k = 1 .. K (src/gen/gen, shortest close-off, so each input
 * holds its target with as little else as possible and a rejection points at
 * it), or the inputs given, is written to OUT and run through the command by
 * a campaign (src/run/campaign: every query is a real, contained run, logged as
 * a record of OUT/queries.jsonl).  The report (src/run/oracle_check) lists the
 * k-paths no accepted input contains, with their patterns (src/graph/pattern) and
 * smallest rejected input, the acceptance rate per rule, and soundness — the
 * share of accepted inputs — per k. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/campaign.h"
#include "campaign_loop.h"
#include "run_cli.h"
#include "cli.h"
#include "run/collect.h"
#include "commands.h"
#include "gen/gen.h"
#include "base/number.h"
#include "run/oracle_check.h"
#include "base/outdir.h"
#include "graph/pattern.h"
#include "run/results.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/xalloc.h"

static int run(const struct cli_command *cmd, int argc, char **argv);

#define DEFAULT_OUT "kpath-oracle"
#define DEFAULT_K 2u

static const struct cli_option options[] = {
    {"k", 'k', "K", "generate and report for k = 1 .. K (default 2)"},
    CLI_ORACLE_OPTIONS("inputs"),
    {"output", 'o', "DIR", "where the suites and the query log go (default " DEFAULT_OUT ")"},
    {"force", 'f', NULL, "use DIR even when it is not empty (replaces the query log)"},
    {"max-depth", 0, "N", "depth limit of generated trees (default 16)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_ANY_FILE_OPTION,
    {0},
};

const struct cli_command cmd_check_oracle_command = {
    .name = "check-oracle",
    .usage = "[options] GRAMMAR [INPUT|DIR...] -- COMMAND [ARG...]",
    .summary = "check a grammar against a program that accepts or rejects inputs",
    .description =
    "Ask COMMAND (the oracle) about inputs of GRAMMAR: an input is valid when the\n"
    "command exits 0 (or a code of --valid-exit) within the timeout; a signal or\n"
    "a timeout is invalid.  Without INPUTs, a k-path suite is generated for each\n"
    "k = 1 .. K (shortest close-off) into DIR/k1, DIR/k2, ...; with INPUTs, those\n"
    "are asked.  Every query is a real run, contained as in kpath run (input on\n"
    "standard input, or as a file where an argument is {}), and logged as a\n"
    "record of DIR/queries.jsonl (kpath run --report reads it).\n"
    "\n"
    "The report: soundness (the share of inputs accepted) per k; per k the\n"
    "k-paths covered and those in some accepted input; the k-paths whose every\n"
    "input was rejected (the grammar over-approximates there), each with its\n"
    "pattern and its smallest rejected input; and per rule the inputs using it\n"
    "and how many were accepted.\n"
    "\n"
    "Exit status: 0 when every input was asked (whatever the answers), 1 when\n"
    "the command failed the same way on the first inputs or could not run,\n"
    "2 for bad usage, 130 when interrupted.",
    .options = options,
    .run = run,
};

struct args {
    uint32_t k, max_depth;
    struct runner_options runner;
    struct oracle_exits exits;
    const char *out, *start;
    bool force;
    const char **positional;
    size_t npositional;
    struct parse_options po;
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, 10, &a->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "max-depth") == 0)
        return cli_parse_u32(cmd, "--max-depth", value, 1, 10000, &a->max_depth)
                   ? CLI_CONTINUE : EXIT_USAGE;
    int st = cli_oracle_option(cmd, name, value, &a->runner, &a->exits);
    if (st != CLI_NOT_MINE)
        return st;
    if (strcmp(name, "output") == 0) {
        a->out = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "force") == 0) {
        a->force = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "start") == 0) {
        a->start = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "format") == 0)
        return cli_format_option(cmd, value);
    return cli_sample_option(cmd, name, value, &a->po);
}

/* Make the generator of each k = 1 .. K into GENS (a->k of them): gen_new
 * refuses a depth limit below the smallest input here, before OUT is
 * created, so a refused run leaves nothing new behind.  False after a
 * diagnostic, with the generators made so far freed. */
static bool make_generators(const struct graph *g, const struct args *a,
                            struct generator **gens, struct diag_list *diags)
{
    for (uint32_t k = 1; k <= a->k; k++) {
        struct gen_options go;
        gen_options_default(&go);
        go.strategy = GEN_KPATH;
        go.closeoff = GEN_CLOSE_SHORTEST;
        go.k = k;
        go.max_depth = a->max_depth;
        char *error = NULL;
        gens[k - 1] = gen_new(g, &go, &error);
        if (!gens[k - 1]) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot generate the %u-path suite: %s", k,
                     error);
            free(error);
            for (uint32_t j = 1; j < k; j++)
                gen_free(gens[j - 1]);
            return false;
        }
    }
    return true;
}

/* Run the generators GENS (made by make_generators) and write the k-path
 * suite of each k into OUT/kK; false after a diagnostic. */
static bool write_suites(struct generator **gens, const struct args *a,
                         struct diag_list *diags)
{
    for (uint32_t k = 1; k <= a->k; k++) {
        struct generator *gen = gens[k - 1];
        gen_run(gen);
        bool ok = !gen->error;
        if (!ok)
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot generate the %u-path suite: %s", k,
                     gen->error);
        struct strbuf dir = STRBUF_INIT;
        strbuf_addf(&dir, "%s/k%u", a->out, k);
        struct outdir od = {0};
        if (ok)
            ok = outdir_open(&od, dir.data, a->force, diags) == OUTDIR_OK;
        for (size_t i = 0; ok && i < gen->ninputs; i++) {
            struct strbuf name = STRBUF_INIT;
            outdir_case_name(&name, i + 1, gen->ninputs, ".txt");
            ok = outdir_write(&od, name.data, gen->inputs[i].text, gen->inputs[i].len, diags);
            strbuf_free(&name);
        }
        if (ok)
            ok = outdir_finish(&od, ".txt", diags);
        outdir_close(&od);
        strbuf_free(&dir);
        gen_free(gen); /* its suite is on disk: only one k's inputs in memory at a time */
        gens[k - 1] = NULL;
        if (!ok)
            return false;
    }
    return true;
}

static void add_rate(struct strbuf *out, size_t part, size_t whole)
{
    strbuf_addf(out, "%zu/%zu (%.1f%%)", part, whole,
                whole ? (double)part * 100.0 / (double)whole : 0.0);
}

/* Soundness of the records whose input lies under PREFIX (NULL: all). */
static void soundness_row(const struct results *r, const struct oracle_exits *exits,
                          const char *label, const char *prefix, struct strbuf *out)
{
    size_t n = 0, valid = 0, plen = prefix ? strlen(prefix) : 0;
    for (size_t i = 0; i < r->nrecords; i++) {
        const struct run_record *rec = &r->records[i];
        if (prefix && strncmp(rec->input, prefix, plen) != 0)
            continue;
        n++;
        valid += oracle_valid(rec->outcome, exits);
    }
    strbuf_addf(out, "  %-6s ", label);
    add_rate(out, valid, n);
    strbuf_addch(out, '\n');
}

static void format_report(const struct graph *g, const struct results *r,
                          const struct oracle_report *rep, const struct args *a, bool generated,
                          struct strbuf *out)
{
    strbuf_addf(out, "queries: %zu, accepted: %zu, rejected: %zu\n", rep->inputs, rep->valid,
                rep->inputs - rep->valid);
    strbuf_addstr(out, "soundness (inputs accepted):\n");
    if (generated) {
        for (uint32_t k = 1; k <= a->k; k++) {
            char label[16], prefix[64];
            snprintf(label, sizeof label, "k=%u", k);
            struct strbuf p = STRBUF_INIT;
            strbuf_addf(&p, "%s/k%u/", a->out, k);
            snprintf(prefix, sizeof prefix, "%s", "");
            soundness_row(r, &a->exits, label, p.data, out);
            strbuf_free(&p);
        }
    } else {
        soundness_row(r, &a->exits, "given", NULL, out);
    }
    strbuf_addf(out, "k-paths (%zu input%s measured):\n", rep->measured,
                rep->measured == 1 ? "" : "s");
    for (uint32_t j = 0; j < rep->K; j++) {
        const struct oracle_k *row = &rep->ks[j];
        strbuf_addf(out, "  k=%u  covered %" PRIu64 "/", row->k, row->covered);
        number_add_count_compact(out, row->total);
        strbuf_addf(out, ", in an accepted input %" PRIu64 ", only in rejected inputs %zu\n",
                    row->accepted, row->nrejected);
    }
    for (uint32_t j = 0; j < rep->K; j++) {
        const struct oracle_k *row = &rep->ks[j];
        if (!row->nrejected)
            continue;
        strbuf_addf(out, "rejected %u-paths (no accepted input has them):\n", row->k);
        for (size_t i = 0; i < row->nrejected; i++) {
            const struct oracle_rejected_path *rp = &row->rejected[i];
            strbuf_addstr(out, "  ");
            for (uint32_t e = 0; e < row->k; e++) {
                if (e)
                    strbuf_addstr(out, " -> ");
                graph_node_name(g, rp->path[e], out);
            }
            strbuf_addstr(out, "\n    pattern: ");
            pattern_render(g, rp->path, row->k, NULL, out, NULL);
            strbuf_addf(out, "\n    rejected inputs: %zu, smallest: %s (%" PRIu64 " bytes)\n",
                        rp->rejected, rp->smallest, rp->smallest_size);
        }
    }
    strbuf_addstr(out, "acceptance per rule (inputs using it):\n");
    for (size_t i = 0; i < rep->nrules; i++) {
        const struct oracle_rule *ru = &rep->rules[i];
        strbuf_addf(out, "  %-20s ", g->grammar->rules[ru->rule].name);
        add_rate(out, ru->valid, ru->inputs);
        strbuf_addch(out, '\n');
    }
}

static int check(const struct cli_command *cmd, struct args *a, char **command, size_t ncommand)
{
    if (!a->npositional)
        return cli_usage_error(cmd, "missing GRAMMAR");
    if (!ncommand)
        return cli_usage_error(cmd, "missing -- COMMAND (the oracle)");
    if (cli_stdin_once(cmd, a->positional[0], a->positional + 1, a->npositional - 1) !=
        CLI_CONTINUE)
        return EXIT_USAGE;
    struct diag_list diags = DIAG_LIST_INIT;
    if (!runner_check_command(command[0], &diags)) {
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        return EXIT_USAGE;
    }
    struct grammar *g = NULL;
    struct graph *graph = NULL;
    int status = cli_load(a->positional[0], a->start, NULL, &g, &graph);
    if (status != EXIT_OK)
        return status;
    bool generated = a->npositional == 1;
    struct sample_list inputs = SAMPLE_LIST_INIT;
    struct strbuf log = STRBUF_INIT;
    strbuf_addf(&log, "%s/queries.jsonl", a->out);
    struct results_header h = {.kpath_version = KPATH_VERSION,
                               .grammar = (char *)a->positional[0],
                               .start = (char *)a->start, .command = command,
                               .ncommand = (uint32_t)ncommand};
    struct collector col;
    collector_outcome(&col);
    char *collect_names[] = {col.name, NULL};
    h.collect = collect_names;
    h.ncollect = 1;
    bool ok = sha256_file(a->positional[0], h.grammar_sha256, &diags);
    /* The inputs or the generators first: a refused run leaves no OUT behind. */
    if (ok && !generated)
        ok = samples_expand(a->positional + 1, a->npositional - 1, cli_any_file(), &inputs,
                            &diags) == 0;
    struct generator **gens = NULL;
    if (ok && generated) {
        gens = xcalloc(a->k, sizeof *gens);
        ok = make_generators(graph, a, gens, &diags);
        if (!ok) {
            free(gens);
            gens = NULL;
        }
    }
    if (ok) {
        /* OUT must be new or empty (or --force): nothing of an earlier check is mixed in. */
        struct outdir od = {0};
        ok = outdir_open(&od, a->out, a->force, &diags) == OUTDIR_OK;
        outdir_close(&od);
        if (ok && a->force && unlink(log.data) != 0 && errno != ENOENT) {
            diag_add(&diags, DIAG_ERROR, log.data, 0, 0, "cannot remove: %s", strerror(errno));
            ok = false;
        }
    }
    if (ok && generated) {
        ok = write_suites(gens, a, &diags);
        for (uint32_t k = 1; ok && k <= a->k; k++) {
            struct strbuf dir = STRBUF_INIT;
            strbuf_addf(&dir, "%s/k%u", a->out, k);
            const char *arg = dir.data;
            ok = samples_expand(&arg, 1, cli_any_file(), &inputs, &diags) == 0;
            strbuf_free(&dir);
        }
    }
    if (gens) {
        for (uint32_t k = 1; k <= a->k; k++)
            gen_free(gens[k - 1]);
        free(gens);
    }
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    status = ok ? EXIT_OK : EXIT_USAGE;
    if (ok) {
        char **argv = xcalloc(ncommand + 1, sizeof *argv);
        memcpy(argv, command, ncommand * sizeof *argv);
        struct campaign_options co = {
            .runner = a->runner,
            .argv = argv, .collectors = &col, .ncollectors = 1, .results_path = log.data,
            .header = &h, .max_input_size = a->po.max_input_size};
        struct campaign *c = campaign_open(&co, &inputs, &diags);
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        if (!c) {
            status = EXIT_USAGE;
        } else {
            struct campaign_progress p;
            enum campaign_state st = cli_run_campaign(cmd, c, &p);
            if (p.escaped)
                run_cli_print_costs(cmd->name, &(struct campaign_progress){.escaped = p.escaped});
            if (st == CAMPAIGN_RUNNING) {
                fprintf(stderr, "kpath check-oracle: interrupted (%s): %zu of %zu queries "
                                "logged in %s\n", cli_interrupt_name(), p.done, p.total,
                        log.data);
                status = 130;
            } else if (st == CAMPAIGN_FAILED) {
                fprintf(stderr, "kpath check-oracle: stopped: %zu of %zu queries logged in %s\n",
                        p.done, p.total, log.data);
                status = EXIT_FAILURE_OTHER;
            } else {
                fprintf(stderr, "kpath check-oracle: %zu quer%s logged in %s\n", p.done,
                        p.done == 1 ? "y" : "ies", log.data);
                const struct results *r = campaign_results(c);
                struct oracle_report rep;
                oracle_check_compute(r, graph, a->k, &a->po, &a->exits, &rep, &diags);
                cli_print_diags(cmd, &diags);
                diag_list_free(&diags);
                struct strbuf out = STRBUF_INIT;
                format_report(graph, r, &rep, a, generated, &out);
                status = cli_write(out.data ? out.data : "", out.len) ? EXIT_OK
                                                                       : EXIT_FAILURE_OTHER;
                strbuf_free(&out);
                oracle_report_free(&rep);
            }
            campaign_free(c);
        }
        free(argv);
    }
    collector_free(&col);
    strbuf_free(&log);
    sample_list_free(&inputs);
    graph_free(graph);
    grammar_free(g);
    return status;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
    int split = cli_split_command(argc, argv);
    struct args a = {.k = DEFAULT_K,
                     .max_depth = GEN_DEFAULT_MAX_DEPTH,
                     .out = DEFAULT_OUT,
                     .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                            .max_memory = PARSE_DEFAULT_MAX_MEMORY}};
    runner_default_options(&a.runner);
    a.exits.ok[0] = true;
    a.positional = xcalloc((size_t)argc + 1, sizeof *a.positional);
    int status = cli_parse_positional(cmd, split, argv, a.positional, &a.npositional, on_option,
                                      &a);
    if (status == CLI_CONTINUE)
        status = check(cmd, &a, argv + split + 1, split < argc ? (size_t)(argc - split - 1) : 0);
    free(a.positional);
    return status;
}
