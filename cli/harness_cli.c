/* harness_cli: see harness_cli.h. */
#include "harness_cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void harness_cli_init(struct harness_cli *h)
{
    memset(h, 0, sizeof *h);
    h->in_process_runs = HARNESS_CLI_IN_PROCESS_RUNS;
}

void harness_cli_free(struct harness_cli *h)
{
    free(h->sources);
    strbuf_free(&h->prefix);
    strbuf_free(&h->suffix);
    harness_program_free(&h->program);
    memset(h, 0, sizeof *h);
}

int harness_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                       struct harness_cli *h)
{
    if (strcmp(name, "in-process") == 0) {
        h->in_process = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "in-process-runs") == 0) {
        h->in_process_runs_given = true;
        return cli_parse_u32(cmd, "--in-process-runs", value, 1, UINT32_MAX, &h->in_process_runs)
                   ? CLI_CONTINUE
                   : EXIT_USAGE;
    }
    if (strncmp(name, "harness", 7) != 0)
        return CLI_NOT_MINE;
    if (strcmp(name, "harness") == 0) {
        h->file = value;
    } else if (strcmp(name, "harness-source") == 0) {
        h->sources = xrealloc(h->sources, (h->nsources + 1) * sizeof *h->sources);
        h->sources[h->nsources++] = value;
    } else if (strcmp(name, "harness-cflags") == 0) {
        h->cflags = value;
    } else if (strcmp(name, "harness-edges") == 0) {
        h->edges = true;
    } else if (strcmp(name, "harness-prefix") == 0 || strcmp(name, "harness-suffix") == 0) {
        bool prefix = name[8] == 'p';
        struct strbuf *b = prefix ? &h->prefix : &h->suffix;
        strbuf_reset(b);
        if (!harness_parse_bytes(value, b))
            return cli_usage_error(cmd, "--%s: '%s' has a malformed escape (\\n \\t \\r \\0 "
                                        "\\\\ \\\" \\xHH \\ooo)",
                                   name, value);
        *(prefix ? &h->prefix_given : &h->suffix_given) = true;
    } else {
        return CLI_NOT_MINE;
    }
    return CLI_CONTINUE;
}

int harness_cli_check(const struct cli_command *cmd, const struct harness_cli *h)
{
    if (!h->file && (h->nsources || h->cflags || h->prefix_given || h->suffix_given || h->edges))
        return cli_usage_error(cmd, "--harness-source, --harness-cflags, --harness-prefix, "
                                    "--harness-suffix and --harness-edges need --harness FILE");
    if (!h->file && h->in_process)
        return cli_usage_error(cmd, "--in-process needs --harness FILE");
    if (!h->in_process && h->in_process_runs_given)
        return cli_usage_error(cmd, "--in-process-runs needs --in-process");
    return CLI_CONTINUE;
}

int harness_cli_prepare(const struct cli_command *cmd, struct harness_cli *h,
                        struct runner_options *opts)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct harness_spec spec = {.harness = h->file, .sources = h->sources,
                                .nsources = h->nsources, .cflags = h->cflags,
                                .edges = h->edges};
    bool ok = harness_build(&spec, &h->program, &diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    if (!ok)
        return EXIT_USAGE;
    h->runner = (struct runner_harness){.argv = h->program.argv,
                                        .prefix = h->prefix.data ? h->prefix.data : "",
                                        .prefix_len = h->prefix.len,
                                        .suffix = h->suffix.data ? h->suffix.data : "",
                                        .suffix_len = h->suffix.len,
                                        .edges = h->edges,
                                        .in_process_runs = h->in_process ? h->in_process_runs : 0};
    h->command[0] = "--harness";
    h->command[1] = (char *)h->file;
    opts->harness = &h->runner;
    return EXIT_OK;
}
