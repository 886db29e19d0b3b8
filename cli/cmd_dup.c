/* cmd_dup: `kpath dup` — duplicate the rules an alternative refers to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "grammar/dup.h"
#include "formats/grammar_write.h"
#include "base/json.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int run_dup(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct dup_args {
    const char *rule, *output;
    bool json;
    struct dup_options opts;
};

static const struct cli_option options[] = {
    {"depth", 0, "D", "copy D levels of rules deep, no more (default: no limit)"},
    {"output", 'o', "OUT", "write the grammar to OUT (atomically) instead of stdout"},
    {"max-new-rules", 0, "N", "refuse to make more than N copies (default 100000)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_dup_command = {
    "dup", "[options] GRAMMAR RULE [ALTERNATIVE]",
    "copy the rules an alternative uses, one copy per context",
    "In rule RULE, take alternative ALTERNATIVE (1-based; every alternative when\n"
    "it is not given) and replace each reference in it by a reference to a\n"
    "fresh copy of the rule it names: integer-1, integer-2, ... (the first free\n"
    "suffix; <integer-1> for <integer>).  Inside a copy every reference gets its\n"
    "own copy again, except a reference to a rule being copied on the way there,\n"
    "which names that copy, so recursion ends.  --depth D stops after D levels\n"
    "of copies; below, references stay as they were.  Rules no longer reachable\n"
    "from the start rule are removed.  Then k-path coverage tells apart the\n"
    "contexts a rule is used in.\n"
    "The grammar is written in kpath's format: untouched rules exactly as they\n"
    "were (with their comments, in their order), RULE and the copies printed\n"
    "anew, each copy right after the rule it copies.  Without -o it goes to\n"
    "stdout; -o OUT writes a temporary file beside OUT and renames it, so OUT is\n"
    "never left half-written.  With --start, use the same --start on the result.",
    options, NULL, .takes_files = true,
    .needs = CLI_GRAMMAR, .args_size = sizeof(struct dup_args), .on_option = on_option,
    .check = check, .main = run_dup,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct dup_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "depth") == 0) {
        if (!cli_parse_u32(cmd, "--depth", value, 1, UINT32_MAX - 1, &a->opts.depth))
            return EXIT_USAGE;
    } else if (strcmp(name, "max-new-rules") == 0) {
        if (!cli_parse_u32(cmd, "--max-new-rules", value, 1, UINT32_MAX - 1,
                           &a->opts.max_new_rules))
            return EXIT_USAGE;
    } else if (strcmp(name, "output") == 0) {
        a->output = value;
    }
    return CLI_CONTINUE;
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct dup_args *a = args;
    const struct cli_common *c = &ctx->common;
    a->json = c->json;
    int status = CLI_CONTINUE;
    if (c->nfiles > 2)
        status = cli_usage_error(cmd, "unexpected argument '%s' (expected GRAMMAR RULE "
                                      "[ALTERNATIVE])", c->files[2]);
    if (status == CLI_CONTINUE) {
        a->rule = c->files[0];
        if (c->nfiles == 2 && !cli_parse_u32(cmd, "ALTERNATIVE", c->files[1], 1, UINT32_MAX - 1,
                                             &a->opts.alternative))
            status = EXIT_USAGE;
    }
    if (status == CLI_CONTINUE && a->output && !*a->output)
        status = cli_usage_error(cmd, "-o needs a file name");
    return status;
}

/* Names of the rules of `before` that `after` no longer has. */
static void add_removed(struct strbuf *out, char **before, uint32_t n, const struct grammar *after,
                        bool json)
{
    bool first = true;
    for (uint32_t r = 0; r < n; r++) {
        if (grammar_find_rule(after, before[r]) != RULE_NONE)
            continue;
        strbuf_addstr(out, first ? "" : ", ");
        if (json)
            json_add_cstring(out, before[r]);
        else
            strbuf_addstr(out, before[r]);
        first = false;
    }
}

static void add_json_summary(struct strbuf *out, const struct dup_args *a, const struct grammar *g,
                             char **before, uint32_t nbefore, const struct strbuf *text)
{
    strbuf_addstr(out, "{\"rule\": ");
    json_add_cstring(out, a->rule);
    if (a->opts.alternative)
        strbuf_addf(out, ", \"alternative\": %u", (unsigned)a->opts.alternative);
    else
        strbuf_addstr(out, ", \"alternative\": null");
    strbuf_addstr(out, ", \"new_rules\": [");
    bool first = true;
    for (uint32_t r = 0; r < g->nrules; r++) {
        if (grammar_rule_has_source(&g->rules[r]))
            continue;
        strbuf_addstr(out, first ? "" : ", ");
        json_add_cstring(out, g->rules[r].name);
        first = false;
    }
    strbuf_addstr(out, "], \"removed_rules\": [");
    add_removed(out, before, nbefore, g, true);
    strbuf_addstr(out, "], \"output\": ");
    if (a->output) {
        json_add_cstring(out, a->output);
    } else {
        strbuf_addstr(out, "null, \"grammar\": ");
        json_add_string(out, text->data ? text->data : "", text->len);
    }
    strbuf_addstr(out, "}\n");
}

static int write_result(const struct cli_command *cmd, const struct dup_args *a,
                        const struct grammar *g, const struct dup_result *result, char **before,
                        uint32_t nbefore, struct diag_list *diags)
{
    int status = EXIT_OK;
    struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
    grammar_write(g, NULL, &text);
    if (a->output && !write_file_atomic(a->output, strbuf_str(&text), text.len, diags)) {
        cli_print_diags(cmd, diags);
        status = EXIT_FAILURE_OTHER;
    } else {
        if (a->json)
            add_json_summary(&out, a, g, before, nbefore, &text);
        else if (!a->output)
            strbuf_add(&out, strbuf_str(&text), text.len);
        if (!cli_write(strbuf_str(&out), out.len))
            status = EXIT_FAILURE_OTHER;
        if (a->output && !a->json) {
            struct strbuf removed = STRBUF_INIT;
            add_removed(&removed, before, nbefore, g, false);
            fprintf(stderr, "wrote %s: %u new rule%s", a->output, (unsigned)result->copies,
                    result->copies == 1 ? "" : "s");
            if (result->removed)
                fprintf(stderr, ", %u removed (%s)", (unsigned)result->removed, removed.data);
            fprintf(stderr, "\n");
            strbuf_free(&removed);
        }
    }
    strbuf_free(&text);
    strbuf_free(&out);
    return status;
}

static int run_dup(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct dup_args a = *(const struct dup_args *)args;
    struct grammar *g = ctx->grammar;
    int status;
    uint32_t nbefore = g->nrules;
    char **before = xmalloc(((size_t)nbefore + 1) * sizeof *before);
    for (uint32_t r = 0; r < nbefore; r++)
        before[r] = xstrdup(g->rules[r].name);

    struct diag_list diags = DIAG_LIST_INIT;
    struct dup_result result;
    if (dup_rule(g, a.rule, &a.opts, &result, &diags) == DUP_OK) {
        status = write_result(cmd, &a, g, &result, before, nbefore, &diags);
    } else {
        cli_print_diags(cmd, &diags);
        status = EXIT_USAGE;
    }
    diag_list_free(&diags);
    for (uint32_t r = 0; r < nbefore; r++)
        free(before[r]);
    free(before);
    return status;
}
