/* explain_session: the options of learning and the session of `kpath
 * explain` and `kpath target` (explain_session.h). */
#include "explain_session.h"

#include <stdio.h>
#include <string.h>

#include "base/sha256.h"

/* "0", "1", "0.5", ".75", "1.00": a fraction of 0 to 1 with at most two
 * decimals (precision is shown with two), as a percentage. */
static bool parse_fraction_pct(const char *text, uint32_t *pct)
{
    const char *p = text;
    uint32_t whole = 0, frac = 0, digits = 0;
    if (*p >= '0' && *p <= '9')
        whole = (uint32_t)(*p++ - '0');
    else if (*p != '.')
        return false;
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9' && digits < 2; digits++)
            frac = frac * 10 + (uint32_t)(*p++ - '0');
        if (!digits && p - text < 2)
            return false; /* "." alone */
        if (digits == 1)
            frac *= 10;
    }
    if (*p || whole > 1 || (whole == 1 && frac))
        return false;
    *pct = whole * 100 + frac;
    return true;
}

int explain_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                       struct explain_options *o)
{
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, 10, &o->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "max-depth") == 0) {
        o->depth_auto = false;
        return cli_parse_u32(cmd, "--max-depth", value, 0, 64, &o->tree.max_depth) ? CLI_CONTINUE
                                                                                   : EXIT_USAGE;
    }
    if (strcmp(name, "criterion") == 0) {
        if (dt_criterion_parse(value, &o->tree.criterion))
            return CLI_CONTINUE;
        return cli_usage_error(cmd, "--criterion must be gini or entropy, not '%s'", value);
    }
    if (strcmp(name, "no-balance") == 0 || strcmp(name, "balance") == 0) {
        o->balance = name[0] == 'b';
        o->balance_auto = false;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "seed") == 0)
        return cli_parse_u64(cmd, "--seed", value, &o->seed) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "min-reaching") == 0)
        return cli_parse_u32(cmd, "--min-reaching", value, 0, UINT32_MAX, &o->min_reaching)
                   ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "min-precision") == 0) {
        if (parse_fraction_pct(value, &o->min_precision_pct))
            return CLI_CONTINUE;
        return cli_usage_error(cmd, "--min-precision must be a number from 0 to 1 with at most "
                                    "two decimals (0.5, 0.75), not '%s'", value);
    }
    return cli_sample_option(cmd, name, value, &o->po);
}

void explain_cli_print_skipped(const struct cli_command *cmd, const struct diag_list *diags,
                               uint32_t skipped, const char *results_path)
{
    struct diag_list shown = DIAG_LIST_INIT;
    for (size_t i = 0; i < diags->len && i < 10; i++) {
        const struct diag *d = &diags->items[i];
        diag_add(&shown, d->severity, d->file, d->line, d->col, "%s", d->message);
    }
    cli_print_diags(cmd, &shown);
    diag_list_free(&shown);
    if (diags->len > 10)
        fprintf(stderr, "kpath %s: ... and %zu more\n", cmd->name, diags->len - 10);
    if (skipped)
        fprintf(stderr, "kpath %s: %u input%s of %s skipped (not readable, changed since the run, or not parsed)\n",
                cmd->name, skipped, skipped == 1 ? "" : "s", results_path);
}

int explain_session_load_results(const struct cli_command *cmd, const char *grammar,
                                 const char *path, struct results *r)
{
    struct diag_list diags = DIAG_LIST_INIT;
    bool ok = results_load(path, r, &diags);
    char hex[SHA256_HEX_SIZE];
    if (ok && r->header.grammar_sha256[0] && sha256_file(grammar, hex, &diags) &&
        strcmp(hex, r->header.grammar_sha256) != 0)
        diag_add(&diags, DIAG_WARNING, path, 0, 0,
                 "recorded with another grammar than %s (grammar_sha256 differs): its inputs "
                 "may not parse, or not the same way", grammar);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    return ok ? EXIT_OK : EXIT_USAGE;
}

int explain_session_open(const struct cli_command *cmd, const char *grammar, const char *start,
                         const char *results_path, const struct explain_options *o,
                         struct explain_session *s)
{
    memset(s, 0, sizeof *s);
    s->results_path = results_path;
    results_init(&s->results);
    int status = cli_load(grammar, start, NULL, &s->grammar, &s->graph);
    if (status != EXIT_OK)
        return status;
    status = explain_session_load_results(cmd, grammar, results_path, &s->results);
    if (status != EXIT_OK)
        return status;
    struct diag_list diags = DIAG_LIST_INIT;
    explain_inputs_train(s->graph, &s->results, results_path, o, &s->kf, &s->inputs, &diags);
    explain_cli_print_skipped(cmd, &diags, s->inputs.skipped, results_path);
    diag_list_free(&diags);
    if (s->inputs.data.nrows == 0) {
        fprintf(stderr, "kpath %s: error: no input of %s could be parsed; nothing to learn from\n",
                cmd->name, results_path);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

void explain_session_close(struct explain_session *s)
{
    explain_inputs_free(&s->inputs);
    kpath_features_free(&s->kf);
    results_free(&s->results);
    if (s->graph)
        graph_free(s->graph);
    if (s->grammar)
        grammar_free(s->grammar);
    memset(s, 0, sizeof *s);
}
