/* cmd_grammar_from: `kpath grammar-from` — a first, concrete grammar from
 * sample inputs alone (src/infer/grammar_from), for `kpath generalize`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "infer/grammar_from.h"
#include "infer/rule_names.h"
#include "formats/grammar_write.h"
#include "base/samples.h"
#include "base/xalloc.h"

static int run(const struct cli_command *cmd, int argc, char **argv);

static const struct cli_option options[] = {
    {"output", 'o', "OUT", "write the grammar to OUT (default: standard output)"},
    {"max-input-size", 0, "N", "refuse samples larger than N bytes; K, M, G suffixes "
                               "(default 16M)"},
    CLI_ANY_FILE_OPTION,
    {0},
};

const struct cli_command cmd_grammar_from_command = {
    .name = "grammar-from",
    .usage = "[options] SAMPLE|DIR...",
    .summary = "a first, concrete grammar from samples alone, for generalize",
    .description =
    "Make a grammar that derives exactly the SAMPLEs, from their surface: each\n"
    "is cut into tokens (a run of letters, a run of digits, a run of whitespace,\n"
    "any other single character).  Samples with the same sequence of token\n"
    "kinds and the same punctuation share a rule: a token that is the same in\n"
    "all of them stays one literal, one that differs becomes a group of the\n"
    "texts seen.  The start rule, input, has an alternative per such rule.\n"
    "\n"
    "Then `kpath generalize GRAMMAR SAMPLES -- COMMAND` widens it.  Unlike\n"
    "AUTOGRAM, which follows the program's data flow, this sees no nesting and\n"
    "no token boundaries inside a run (\"abc123\" is two tokens whatever the\n"
    "program thinks): see the README, \"Learning a grammar\".\n"
    "\n"
    "Exit status: 0 when the grammar was written, 1 when it could not be\n"
    "written, 2 for bad usage or a sample that cannot be read or is not UTF-8.",
    .options = options,
    .run = run,
};

struct args {
    const char *out;
    size_t max_input_size;
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "output") == 0) {
        a->out = value;
        return CLI_CONTINUE;
    }
    struct parse_options po = {.max_input_size = a->max_input_size};
    int status = cli_sample_option(cmd, name, value, &po);
    a->max_input_size = po.max_input_size;
    return status;
}

struct notes {
    const struct grammar_from_notes *from;
    const struct rule_names *names;
};

static void note_rule(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out)
{
    const struct notes *n = ctx;
    if (rule < n->from->n && n->from->notes[rule])
        strbuf_addstr(out, n->from->notes[rule]);
    rule_names_note(n->names, g, rule, out);
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
    struct args a = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    const char **files = xcalloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    int status = cli_parse_positional(cmd, argc, argv, files, &nfiles, on_option, &a);
    if (status == CLI_CONTINUE && !nfiles)
        status = cli_usage_error(cmd, "missing SAMPLE");
    if (status == CLI_CONTINUE)
        status = cli_stdin_once(cmd, NULL, files, nfiles);
    if (status != CLI_CONTINUE) {
        free(files);
        return status;
    }
    struct diag_list diags = DIAG_LIST_INIT;
    struct sample_list list = SAMPLE_LIST_INIT;
    samples_expand(files, nfiles, cli_any_file(), &list, &diags);
    struct strbuf *texts = xcalloc(list.len ? list.len : 1, sizeof *texts);
    struct grammar_from_sample *samples = xcalloc(list.len ? list.len : 1, sizeof *samples);
    for (size_t i = 0; i < list.len && !diags.errors; i++) {
        if (!samples_read(list.paths[i], a.max_input_size, &texts[i], &diags))
            break;
        samples[i] = (struct grammar_from_sample){samples_display_name(list.paths[i]),
                                                  texts[i].data ? texts[i].data : "",
                                                  texts[i].len};
    }
    if (!diags.errors && !list.len)
        diag_add(&diags, DIAG_ERROR, NULL, 0, 0, "no sample to make a grammar from");
    struct grammar_from_notes notes = {0};
    struct grammar *g = NULL;
    if (!diags.errors)
        g = grammar_from_samples(a.out ? a.out : "<stdout>", samples, list.len, &notes, &diags);
    status = g ? EXIT_OK : EXIT_USAGE;
    if (g) {
        struct rule_names names; /* names that read (src/infer/rule_names.h) */
        rule_names_apply(g, &names);
        struct notes n = {&notes, &names};
        struct grammar_write_options wo = {.note = note_rule, .ctx = &n};
        struct strbuf text = STRBUF_INIT;
        grammar_write(g, &wo, &text);
        rule_names_free(&names);
        if (a.out)
            status = write_file_atomic(a.out, text.data, text.len, &diags) ? EXIT_OK
                                                                           : EXIT_FAILURE_OTHER;
        else
            status = cli_write(text.data, text.len) ? EXIT_OK : EXIT_FAILURE_OTHER;
        strbuf_free(&text);
    }
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    grammar_from_notes_free(&notes);
    grammar_free(g);
    for (size_t i = 0; i < list.len; i++)
        strbuf_free(&texts[i]);
    free(texts);
    free(samples);
    sample_list_free(&list);
    free(files);
    return status;
}
