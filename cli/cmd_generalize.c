/* cmd_generalize: `kpath generalize` — widen a grammar by asking a program
 * (the oracle) about inputs made from samples (src/infer/generalize), every query a
 * contained run (src/infer/membership through src/run/runner).
 *
 * The generalized grammar goes to -o OUT (written atomically) or standard
 * output; the query log to standard output when the grammar has a file, else
 * to standard error, and to --log FILE as it is written (flushed block by
 * block, so it is there after an interruption or a failed run).  The first
 * CHECK_TWICE inputs asked are asked a second time, and a warning says so
 * when the program answers one of them differently (it is not
 * deterministic: the grammar learned may differ from run to run). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign_loop.h"
#include "cli.h"
#include "commands.h"
#include "infer/generalize.h"
#include "formats/grammar_write.h"
#include "graph/graph.h"
#include "infer/lattice.h"
#include "infer/membership.h"
#include "infer/rule_names.h"
#include "infer/structure.h"
#include "base/samples.h"
#include "base/xalloc.h"

static int run(const struct cli_command *cmd, int argc, char **argv);

#define DEFAULT_LATTICE LATTICE_DEFAULT

static const struct cli_option options[] = {
    {"output", 'o', "OUT", "write the generalized grammar to OUT (default: standard output)"},
    {"log", 0, "FILE", "also write the query log to FILE"},
    {"lattice", 0, "FILE", "the items strings are generalized along (default: the "
                           "shipped " DEFAULT_LATTICE ")"},
    {"lattice-add", 0, "FILE", "add the items of FILE to the lattice, after its own (they "
                               "may generalize its items)"},
    CLI_ORACLE_OPTIONS("queries"),
    {"max-input-size", 0, "N", "refuse samples larger than N bytes; K, M, G suffixes "
                               "(default 16M)"},
    {"max-queries", 0, "N", "ask at most N distinct inputs, then write what was found "
                            "(default 10000)"},
    {"no-strings", 0, NULL, "do not generalize literal strings"},
    {"no-repetitions", 0, NULL, "do not look for repetitions"},
    {"no-optional", 0, NULL, "do not look for optional parts"},
    {"structure", 0, NULL, "first learn classes, recursion and repetitions from the samples "
                           "(GRAMMAR's rules are then not used)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_ANY_FILE_OPTION,
    {0},
};

const struct cli_command cmd_generalize_command = {
    .name = "generalize",
    .usage = "[options] GRAMMAR SAMPLE|DIR... -- COMMAND [ARG...]",
    .summary = "widen a grammar by asking a program about inputs from samples",
    .description =
    "Generalize GRAMMAR as AUTOGRAM does (Active Learning of Input Grammars):\n"
    "parse the SAMPLEs, then rule by rule try three generalizations, each\n"
    "confirmed by membership queries that change the samples only where that\n"
    "rule derived text:\n"
    "  strings      a literal is replaced by the examples of lattice items that\n"
    "               hold it (--lattice; positive integers, digits, letters,\n"
    "               alphanumerics, identifiers, ... printable text), walking up\n"
    "               while all are accepted; it becomes the last item accepted;\n"
    "  repetitions  a group of items occurring twice or more in a row is tried\n"
    "               1 to 5 times; all accepted makes it (group)+;\n"
    "  optional     subsequences of a sequence are omitted, longest first; all\n"
    "               accepted makes the subsequence optional.\n"
    "An input is valid when COMMAND exits 0 (or a code of --valid-exit) within\n"
    "the timeout; each query is a contained run as in kpath run (input on\n"
    "standard input, or as a file where an argument is {}).  Every sample must be\n"
    "valid.  The same input is never run twice.\n"
    "\n"
    "The query log lists per attempt each input, yes or no, and the conclusion;\n"
    "queries are numbered, and the grammar gets a #: comment above every changed\n"
    "rule naming the queries that justified each change.  The grammar goes to\n"
    "OUT (replaced atomically) or standard output; the log to standard output\n"
    "when -o is given, else to standard error.  In the explorer,\n"
    ":generalize SAMPLE... -- COMMAND does the same on the grammar explored, as\n"
    "a job that any key stops; W shows the query log and the learned grammar.\n"
    "\n"
    "With --structure, a grammar is first learned from the SAMPLEs alone and\n"
    "put in GRAMMAR's place (src/infer/structure): blanks between tokens where\n"
    "the program takes them (ws := [ \\t\\n\\r]*, the characters it takes); a\n"
    "string's contents from probes (each printable character and escape);\n"
    "tokens that replace each other become a class; a span that can replace a\n"
    "class's token, and be replaced by it, in several contexts becomes an\n"
    "alternative of that class, so nested structure makes it recursive (from\n"
    "[1,[2]]: value ::= \"[\" value \",\" value \"]\" | ...), a separator in it\n"
    "keeping only the texts of its class taken there (\"-7\" is a value, \"*7\"\n"
    "none: (\"+\" | \"-\") value); a \"quoted\" string is one token, and a class of\n"
    "strings or words that can stand where a recursive class stands becomes one\n"
    "of its alternatives (a JSON string is a value); a group of items written\n"
    "twice and three times becomes (group)+.  The three generalizations above\n"
    "then run on it.\n"
    "\n"
    "Exit status: 0 when the grammar was written, 1 when the command could not\n"
    "run or a file could not be written, 2 for bad usage, an invalid grammar, a\n"
    "sample that does not parse or that the program rejects, 130 when\n"
    "interrupted.",
    .options = options,
    .run = run,
};

struct args {
    struct runner_options runner;
    uint64_t max_queries;
    struct oracle_exits exits;
    const char *out, *log, *lattice, *lattice_add, *start;
    bool no_strings, no_repetitions, no_optional, structure;
    const char **positional;
    size_t npositional;
    struct parse_options po;
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct args *a = ctx;
    const char *name = cmd->options[index].name;
    int st = cli_oracle_option(cmd, name, value, &a->runner, &a->exits);
    if (st != CLI_NOT_MINE)
        return st;
    if (strcmp(name, "max-queries") == 0) {
        if (!cli_parse_u64(cmd, "--max-queries", value, &a->max_queries))
            return EXIT_USAGE;
        return a->max_queries ? CLI_CONTINUE
                              : cli_usage_error(cmd, "--max-queries must be at least 1");
    }
    const char **text = strcmp(name, "output") == 0    ? &a->out
                        : strcmp(name, "log") == 0     ? &a->log
                        : strcmp(name, "lattice") == 0 ? &a->lattice
                        : strcmp(name, "lattice-add") == 0 ? &a->lattice_add
                        : strcmp(name, "start") == 0   ? &a->start
                                                       : NULL;
    if (text) {
        *text = value;
        return CLI_CONTINUE;
    }
    bool *flag = strcmp(name, "no-strings") == 0       ? &a->no_strings
                 : strcmp(name, "no-repetitions") == 0 ? &a->no_repetitions
                 : strcmp(name, "no-optional") == 0    ? &a->no_optional
                 : strcmp(name, "structure") == 0      ? &a->structure
                                                       : NULL;
    if (flag) {
        *flag = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "format") == 0)
        return cli_format_option(cmd, value);
    return cli_sample_option(cmd, name, value, &a->po);
}

#define CHECK_TWICE 4

struct asker {
    struct membership *m;
    char **why; /* of the last batch, kept over the second asking */
    size_t nwhy;
    size_t checked, differ; /* inputs asked twice; answered differently */
};

static void forget_why(struct asker *k)
{
    for (size_t i = 0; i < k->nwhy; i++)
        free(k->why[i]);
    free(k->why);
    k->why = NULL;
    k->nwhy = 0;
}

static const char *why_answer(void *ctx, size_t i)
{
    const struct asker *k = ctx;
    return i < k->nwhy ? k->why[i] : "";
}

static const char *answer_name(enum membership_answer a)
{
    return a == MEMBERSHIP_YES ? "yes" : a == MEMBERSHIP_NO ? "no"
                                      : a == MEMBERSHIP_TIMEOUT ? "a timeout" : "a crash";
}

static bool ask_program(void *ctx, const char *const *inputs, const size_t *lens, size_t n,
                        enum membership_answer *answers, struct diag_list *diags)
{
    struct asker *k = ctx;
    if (!membership_ask(k->m, inputs, lens, n, answers, cli_interrupt_flag(), diags))
        return false;
    forget_why(k);
    k->why = xcalloc(n ? n : 1, sizeof *k->why);
    k->nwhy = n;
    for (size_t i = 0; i < n; i++)
        k->why[i] = xstrdup(membership_why(k->m, i));
    /* The determinism check: the first inputs once more. */
    size_t again = n < CHECK_TWICE - k->checked ? n : CHECK_TWICE - k->checked;
    if (!again)
        return true;
    enum membership_answer *second = xcalloc(again, sizeof *second);
    bool ok = membership_ask(k->m, inputs, lens, again, second, cli_interrupt_flag(), diags);
    for (size_t i = 0; ok && i < again; i++) {
        k->checked++;
        if (second[i] == answers[i])
            continue;
        k->differ++;
        struct strbuf label = STRBUF_INIT;
        grammar_lit_label(inputs[i], lens[i] > 60 ? 60 : lens[i], &label);
        diag_add(diags, DIAG_WARNING, NULL, 0, 0,
                 "the program is not deterministic: asked twice about %s%s, it answered %s, "
                 "then %s (the grammar learned may differ from run to run)", label.data,
                 lens[i] > 60 ? "..." : "", answer_name(answers[i]), answer_name(second[i]));
        strbuf_free(&label);
    }
    free(second);
    return ok;
}

struct log_sink {
    FILE *to;
    FILE *file; /* --log, or NULL */
    bool failed;
};

static void log_block(void *ctx, const char *text, size_t len)
{
    struct log_sink *s = ctx;
    fwrite(text, 1, len, s->to);
    fflush(s->to);
    if (s->file && (fwrite(text, 1, len, s->file) != len || fflush(s->file) != 0))
        s->failed = true;
}

struct notes {
    const struct structure_result *structure;
    const struct generalize_result *res;
    const struct rule_names *names;
};

static void note_rule(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out)
{
    const struct notes *n = ctx;
    const struct generalize_result *res = n->res;
    if (rule < n->structure->nnotes && n->structure->notes[rule]) {
        strbuf_addstr(out, n->structure->notes[rule]);
        if (rule < res->nnotes && res->notes[rule].len)
            strbuf_addch(out, '\n');
    }
    if (rule < res->nnotes && res->notes[rule].len)
        strbuf_add(out, res->notes[rule].data, res->notes[rule].len);
    rule_names_note(n->names, g, rule, out);
}

/* The ambiguity of the result (issue #35): how many parse trees each sample
 * has under the grammar learned, one line into the log (so --log has it
 * too), before the summary.  A sample the parse gives up on (its memory
 * budget) says why instead of a count. */
static void log_trees(const struct grammar *g, const struct generalize_sample *samples, size_t n,
                      const struct parse_options *po, struct log_sink *sink)
{
    struct graph *graph = graph_build(g);
    struct strbuf line = STRBUF_INIT;
    strbuf_addstr(&line, "parse trees of each sample under the grammar learned:");
    for (size_t i = 0; i < n; i++) {
        uint64_t trees = 0;
        bool infinite = false;
        struct diag_list diags = DIAG_LIST_INIT;
        char count[FOREST_TREES_TEXT_SIZE];
        strbuf_addf(&line, "%s %s ", i ? "," : "", samples[i].name);
        if (!parse_kpaths(graph, samples[i].name, samples[i].text, samples[i].len, po, NULL, 0,
                          NULL, &trees, &infinite, &diags))
            strbuf_addf(&line, "not counted (%s)", diags.len ? diags.items[0].message : "no parse");
        else if (infinite)
            strbuf_addstr(&line, "infinitely many");
        else
            strbuf_addstr(&line, forest_trees_text(trees, count));
        diag_list_free(&diags);
    }
    strbuf_addch(&line, '\n');
    log_block(sink, line.data, line.len);
    strbuf_free(&line);
    graph_free(graph);
}

static int generalize(const struct cli_command *cmd, struct args *a, char **command,
                      size_t ncommand)
{
    if (!a->npositional)
        return cli_usage_error(cmd, "missing GRAMMAR");
    if (a->npositional < 2)
        return cli_usage_error(cmd, "missing SAMPLE: generalizing starts from valid inputs");
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
    struct strbuf lattice_path = STRBUF_INIT;
    if (a->lattice) {
        strbuf_addstr(&lattice_path, a->lattice);
    } else if (!a->no_strings && !lattice_default_path(&lattice_path)) {
        fprintf(stderr, "kpath generalize: cannot find the default lattice (%s); give one "
                        "with --lattice FILE or use --no-strings\n", lattice_path.data);
        strbuf_free(&lattice_path);
        return EXIT_FAILURE_OTHER;
    }
    struct lattice lattice = {0};
    bool have_lattice = !a->no_strings;
    if (a->lattice_add && !have_lattice) {
        strbuf_free(&lattice_path);
        return cli_usage_error(cmd, "--lattice-add adds to the lattice, which --no-strings "
                                    "leaves out");
    }
    if (have_lattice && (!lattice_load(lattice_path.data, &lattice, &diags) ||
                         (a->lattice_add && !lattice_add(&lattice, a->lattice_add, &diags)))) {
        if (lattice.grammar)
            lattice_free(&lattice);
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        strbuf_free(&lattice_path);
        return EXIT_USAGE;
    }
    struct grammar *g = NULL;
    int status = cli_load(a->positional[0], a->start, NULL, &g, NULL);
    if (status != EXIT_OK) {
        if (have_lattice)
            lattice_free(&lattice);
        strbuf_free(&lattice_path);
        return status;
    }
    struct sample_list files = SAMPLE_LIST_INIT;
    samples_expand(a->positional + 1, a->npositional - 1, cli_any_file(), &files, &diags);
    struct strbuf *texts = xcalloc(files.len ? files.len : 1, sizeof *texts);
    struct generalize_sample *samples = xcalloc(files.len ? files.len : 1, sizeof *samples);
    for (size_t i = 0; i < files.len && !diags.errors; i++) {
        if (!samples_read(files.paths[i], a->po.max_input_size, &texts[i], &diags))
            break;
        samples[i] = (struct generalize_sample){samples_display_name(files.paths[i]),
                                                texts[i].data ? texts[i].data : "",
                                                texts[i].len};
    }
    if (!diags.errors && !files.len)
        diag_add(&diags, DIAG_ERROR, NULL, 0, 0, "no sample to start from");
    cli_print_diags(cmd, &diags);
    status = diags.errors ? EXIT_USAGE : EXIT_OK;
    diag_list_free(&diags);
    struct generalize_result res = {0};
    struct structure_result sres = {0};
    bool generalized = false;
    struct log_sink sink = {a->out ? stdout : stderr, NULL, false};
    if (status == EXIT_OK && a->log) {
        sink.file = fopen(a->log, "w");
        if (!sink.file) {
            fprintf(stderr, "kpath generalize: %s: cannot write: %s\n", a->log, strerror(errno));
            status = EXIT_FAILURE_OTHER;
        }
    }
    if (status == EXIT_OK) {
        char **argv = xcalloc(ncommand + 1, sizeof *argv);
        memcpy(argv, command, ncommand * sizeof *argv);
        struct runner_options ro = a->runner;
        struct asker k = {membership_new(&ro, argv, &a->exits), NULL, 0, 0, 0};
        free(argv);
        struct generalize_options o;
        generalize_options_default(&o);
        o.lattice = have_lattice ? &lattice : NULL;
        o.lattice_name = a->lattice ? a->lattice : DEFAULT_LATTICE;
        o.ask = ask_program;
        o.ask_ctx = &k;
        o.log = log_block;
        o.log_ctx = &sink;
        o.why = why_answer;
        o.why_ctx = &k;
        o.po = a->po;
        o.max_queries = (size_t)a->max_queries;
        o.strings = !a->no_strings;
        o.repetitions = !a->no_repetitions;
        o.optional = !a->no_optional;
        cli_catch_interrupts(true);
        bool structured = true;
        if (a->structure) {
            struct structure_options so;
            structure_options_default(&so);
            so.ask = ask_program;
            so.ask_ctx = &k;
            so.log = log_block;
            so.log_ctx = &sink;
            /* half the budget at most: the strings and optional parts need theirs */
            so.max_queries = o.max_queries ? (o.max_queries + 1) / 2 : 0;
            struct grammar *learned = structure_learn(g->file, samples, files.len, &so, &sres,
                                                      &diags);
            structured = learned != NULL;
            if (learned) {
                grammar_free(g);
                g = learned;
            }
            if (o.max_queries)
                o.max_queries -= sres.queries < o.max_queries ? sres.queries : o.max_queries;
        }
        if (a->structure && a->max_queries && !o.max_queries)
            generalized = structured; /* no query left for the rest */
        else
            generalized = structured && generalize_run(g, samples, files.len, &o, &res, &diags);
        bool interrupted = *cli_interrupt_flag() != 0;
        cli_catch_interrupts(false);
        membership_free(k.m);
        forget_why(&k);
        if (interrupted) {
            diag_list_free(&diags);
            fprintf(stderr, "kpath generalize: interrupted (%s) after %zu queries; %s\n",
                    cli_interrupt_name(), res.queries + sres.queries,
                    a->log ? "the log so far is in --log, no grammar written"
                           : "nothing written");
            status = 130;
        } else {
            cli_print_diags(cmd, &diags);
            bool rejected = false;
            for (size_t i = 0; i < diags.len; i++)
                rejected = rejected || (diags.items[i].file && diags.items[i].severity == DIAG_ERROR);
            status = generalized ? EXIT_OK : rejected ? EXIT_USAGE : EXIT_FAILURE_OTHER;
            diag_list_free(&diags);
        }
    }
    if (status == EXIT_OK)
        log_trees(g, samples, files.len, &a->po, &sink);
    if (sink.file && fclose(sink.file) != 0)
        sink.failed = true;
    if (sink.failed && status == EXIT_OK) {
        fprintf(stderr, "kpath generalize: %s: cannot write the log\n", a->log);
        status = EXIT_FAILURE_OTHER;
    }
    if (status == EXIT_OK) {
        struct strbuf summary = STRBUF_INIT;
        size_t total = res.queries + sres.queries;
        strbuf_addf(&summary, "%zu quer%s (%zu accepted", total, total == 1 ? "y" : "ies",
                    res.accepted + sres.accepted);
        if (a->structure)
            strbuf_addf(&summary, ", %zu for structure: %zu class merge%s, %zu recursion%s, "
                        "%zu repetition%s", sres.queries, sres.classes,
                        sres.classes == 1 ? "" : "s", sres.recursions,
                        sres.recursions == 1 ? "" : "s", sres.repetitions,
                        sres.repetitions == 1 ? "" : "s");
        if (res.timeouts + sres.timeouts)
            strbuf_addf(&summary, ", %zu timed out", res.timeouts + sres.timeouts);
        if (res.crashes + sres.crashes)
            strbuf_addf(&summary, ", %zu crashed", res.crashes + sres.crashes);
        strbuf_addf(&summary, "), %zu asked again from memory, %zu change%s",
                    res.asked - res.queries, res.changes, res.changes == 1 ? "" : "s");
        if (res.undecided)
            strbuf_addf(&summary, ", %zu attempt%s undecided (timeouts or crashes only)",
                        res.undecided, res.undecided == 1 ? "" : "s");
        fprintf(a->out ? stdout : stderr, "%s\n", summary.data);
        strbuf_free(&summary);
        struct rule_names names; /* names that read (src/infer/rule_names.h) */
        rule_names_apply(g, &names);
        struct notes notes = {&sres, &res, &names};
        struct grammar_write_options wo = {.note = note_rule, .ctx = &notes};
        struct strbuf text = STRBUF_INIT;
        grammar_write(g, &wo, &text);
        rule_names_free(&names);
        if (status == EXIT_OK && a->out)
            status = write_file_atomic(a->out, text.data, text.len, &diags) ? EXIT_OK
                                                                             : EXIT_FAILURE_OTHER;
        else if (status == EXIT_OK && !cli_write(text.data, text.len))
            status = EXIT_FAILURE_OTHER;
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        strbuf_free(&text);
    }
    generalize_result_free(&res);
    structure_result_free(&sres);
    for (size_t i = 0; i < files.len; i++)
        strbuf_free(&texts[i]);
    free(texts);
    free(samples);
    sample_list_free(&files);
    grammar_free(g);
    if (have_lattice)
        lattice_free(&lattice);
    strbuf_free(&lattice_path);
    return status;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
    int split = cli_split_command(argc, argv);
    struct args a = {.max_queries = GENERALIZE_DEFAULT_MAX_QUERIES,
                     .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                            .max_memory = PARSE_DEFAULT_MAX_MEMORY}};
    runner_default_options(&a.runner);
    a.exits.ok[0] = true;
    a.positional = xcalloc((size_t)argc + 1, sizeof *a.positional);
    int status = cli_parse_positional(cmd, split, argv, a.positional, &a.npositional, on_option,
                                      &a);
    if (status == CLI_CONTINUE)
        status = generalize(cmd, &a, argv + split + 1,
                            split < argc ? (size_t)(argc - split - 1) : 0);
    free(a.positional);
    return status;
}
