/* cmd_why: `kpath why` — why a k-path stays uncovered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "gen/gen.h"
#include "base/json.h"
#include "gen/learn.h"
#include "parse/parse.h"
#include "graph/pattern.h"
#include "base/samples.h"
#include "base/utf8.h"
#include "explain/why.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void free_args(void *args);
static int why(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct why_cli {
    uint32_t k;
    uint32_t max_depth;
    const char **sources;
    size_t nsources;
    const char *probs;
    struct parse_options po;
};

static const struct why_cli defaults = {.max_depth = GEN_DEFAULT_MAX_DEPTH,
                                        .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT}};

static const struct cli_option options[] = {
    {"k", 'k', "K", "length of the path (default: the number of nodes given)"},
    {"inputs", 0, "DIR", "inputs to measure against (a suite from gen -o; repeatable)"},
    {"samples", 0, "FILE|DIR", "samples to measure against (repeatable)"},
    {"max-depth", 0, "D", "the depth limit (default 16)"},
    {"probs", 0, "FILE", "the active probabilities (kpath learn's output); default: the grammar's"},
    {"pin", 0, "PATH", "an active pin (repeatable)"},
    CLI_SAMPLE_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_why_command = {
    "why", "[options] GRAMMAR PATH", "explain why a k-path stays uncovered",
    "Explain, in plain words, every reason that applies to the k-path PATH\n"
    "(node names as 'kpath paths' prints them, e.g. AddExpr_0 '\"+\"_10', one\n"
    "argument or several; pasted arrows are fine):\n"
    "  - the depth a derivation containing it needs, when that is more than the\n"
    "    depth limit (depth: reference nodes on the longest root-to-leaf path);\n"
    "  - alternatives on its way with probability 0 under the active\n"
    "    probabilities, which the prob strategy never takes;\n"
    "  - that it lies outside every active pin;\n"
    "  - relative to the inputs and samples given: which one covers it, or the\n"
    "    longest prefix and suffix of it that one covers, and which;\n"
    "  - otherwise, that it is reachable within the limits and simply not\n"
    "    produced yet.\n"
    "It also shows the smallest input containing it: fewest characters, then\n"
    "fewest tree nodes, within the depth limit (the k-path generator with the\n"
    "shortest close-off), with its depth and the k-path paper's derivation\n"
    "depth (tree nodes on its longest path), or says that none exists within\n"
    "the limits.  Under --pin, a k-path under a pin gets the smallest input\n"
    "containing it in the pin's context (what the explorer's C adds).\n"
    "Guarantee: the input is the smallest within the depth limit, also where\n"
    "that is neither the smallest nor the shallowest way, found by an exact\n"
    "search over (node, depth) whose table has (limit + 1) x graph nodes\n"
    "entries.  Above 2^21 entries (a grammar of about 120,000 nodes at depth\n"
    "16) kpath tries each leg's smallest or shallowest way only; when the\n"
    "smallest input overall is then deeper than the limit, why says so and\n"
    "gives that smallest's size, a lower bound (\"smallest input found\"; in\n"
    "--json example_smallest, smallest_bytes, smallest_depth).",
    options, NULL, .takes_files = true,
    /* no CLI_PINS: a bad pin is reported with the path's own mistakes */
    .needs = CLI_GRAPH, .args_size = sizeof defaults, .args_defaults = &defaults,
    .free_args = free_args, .on_option = on_option, .main = why,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct why_cli *w = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, KPATH_MAX_K, &w->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "max-depth") == 0)
        return cli_parse_u32(cmd, "--max-depth", value, 0, UINT32_MAX - 1, &w->max_depth)
                   ? CLI_CONTINUE : EXIT_USAGE;
    int sample = cli_sample_option(cmd, name, value, &w->po);
    if (sample != CLI_NOT_MINE)
        return sample;
    if (strcmp(name, "probs") == 0) {
        w->probs = value;
    } else {
        w->sources = xrealloc(w->sources, (w->nsources + 1) * sizeof *w->sources);
        w->sources[w->nsources++] = value; /* --inputs, --samples */
    }
    return CLI_CONTINUE;
}

static void add_path(struct strbuf *out, const struct graph *g, const uint32_t *path, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            strbuf_addstr(out, " -> ");
        graph_node_name(g, path[i], out);
    }
}

static void describe_zero(struct strbuf *out, const struct graph *g, const struct why_zero *z)
{
    const struct graph_node *alt = &g->nodes[z->alt];
    const char *rule = g->grammar->rules[alt->rule].name;
    strbuf_addf(out, "alternative %u of ", z->index + 1);
    if (g->rule_node[alt->rule] == z->alt)
        strbuf_addf(out, "rule %s", rule);
    else
        strbuf_addf(out, "a group in rule %s", rule);
    uint32_t child = graph_children(g, z->alt)[z->index];
    if (node_kind_is_symbolic(g->nodes[child].kind)) {
        strbuf_addstr(out, " (");
        graph_node_label(g, child, out);
        strbuf_addch(out, ')');
    }
}

/* The reasons, one per line, as the text output and JSON both list them. */
static size_t reasons(const struct graph *g, const uint32_t *path, uint32_t k,
                      const struct why_options *o, const struct why_report *r, char ***out)
{
    char **lines = xcalloc(8 + r->nzeros, sizeof *lines);
    size_t n = 0;
    struct strbuf sb = STRBUF_INIT;
    if (r->needed_depth == UINT32_MAX) {
        graph_why_in_no_input(g, path[k - 1], &sb);
        lines[n++] = strbuf_detach(&sb, NULL);
    } else if (r->too_deep) {
        strbuf_addf(&sb, "it needs a derivation of depth at least %u to appear at all, more than "
                    "the depth limit %u", r->needed_depth, o->max_depth);
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    for (size_t i = 0; i < r->nzeros; i++) {
        describe_zero(&sb, g, &r->zeros[i]);
        strbuf_addstr(&sb, " has probability 0 under the active probabilities, so the prob "
                           "strategy never takes it");
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    if (r->start_needs_zero) {
        strbuf_addstr(&sb, "every way from the start to ");
        graph_node_name(g, path[0], &sb);
        strbuf_addstr(&sb, " takes an alternative with probability 0 under the active probabilities");
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    if (r->outside_pins) {
        strbuf_addstr(&sb, "it lies outside every active pin (");
        for (size_t i = 0; i < o->pins->len; i++) {
            if (i)
                strbuf_addstr(&sb, "; ");
            pin_format(g, &o->pins->pins[i], &sb);
        }
        strbuf_addch(&sb, ')');
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    if (o->ninputs && r->covered_by == SIZE_MAX) {
        strbuf_addstr(&sb, "relative to the inputs: ");
        if (r->prefix) {
            strbuf_addstr(&sb, "its longest covered prefix is ");
            add_path(&sb, g, path, r->prefix);
            strbuf_addf(&sb, " (in %s)", o->inputs[r->prefix_input].name);
        } else {
            strbuf_addstr(&sb, "no prefix of it is covered");
        }
        strbuf_addstr(&sb, "; ");
        if (r->suffix) {
            strbuf_addstr(&sb, "its longest covered suffix is ");
            add_path(&sb, g, path + (k - r->suffix), r->suffix);
            strbuf_addf(&sb, " (in %s)", o->inputs[r->suffix_input].name);
        } else {
            strbuf_addstr(&sb, "no suffix of it is covered");
        }
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    bool blocked = r->needed_depth == UINT32_MAX || r->too_deep || r->nzeros ||
                   r->start_needs_zero || r->outside_pins;
    if (!blocked && r->covered_by == SIZE_MAX) {
        strbuf_addstr(&sb, "it is reachable within the limits and simply not produced yet");
        lines[n++] = strbuf_detach(&sb, NULL);
    }
    strbuf_free(&sb);
    *out = lines;
    return n;
}

/* Parse each source into per-input k-path sets for lengths 1..k. */
static size_t measure_sources(const struct graph *g, uint32_t k, const struct why_cli *w,
                              struct kpath_space *spaces, struct why_input **inputs,
                              struct sample_list *files, struct diag_list *problems)
{
    samples_expand(w->sources, w->nsources, cli_any_file(), files, problems);
    *inputs = xcalloc(files->len + 1, sizeof **inputs);
    size_t n = 0;
    struct strbuf text = STRBUF_INIT;
    struct parse_options po = w->po;
    struct kpath_set **sets = xmalloc((size_t)k * sizeof *sets);
    for (size_t i = 0; i < files->len; i++) {
        const char *name = samples_display_name(files->paths[i]);
        if (!samples_read(files->paths[i], po.max_input_size, &text, problems))
            continue;
        struct forest *f = parse_text(g, name, text.data ? text.data : "", text.len, &po, problems);
        if (!f)
            continue;
        struct why_input *in = &(*inputs)[n++];
        in->name = name;
        in->sets = xcalloc(k, sizeof *in->sets);
        for (uint32_t j = 0; j < k; j++) {
            kpath_set_init(&in->sets[j], &spaces[j]);
            sets[j] = &in->sets[j];
        }
        forest_add_kpaths_many(f, sets, k);
        forest_free(f);
    }
    free(sets);
    strbuf_free(&text);
    return n;
}

static void free_args(void *args)
{
    free(((struct why_cli *)args)->sources);
}

static int why(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct cli_common c = ctx->common;
    const struct graph *graph = ctx->graph;
    const struct why_cli w = *(const struct why_cli *)args;
    int status = EXIT_OK;

    /* The path: every argument after GRAMMAR, read as one path. */
    struct strbuf text = STRBUF_INIT;
    for (size_t i = 0; i < c.nfiles; i++) {
        if (i)
            strbuf_addch(&text, ' ');
        strbuf_addstr(&text, c.files[i]);
    }
    struct diag_list diags = DIAG_LIST_INIT;
    uint32_t k = 0;
    uint32_t *path = graph_parse_path(graph, strbuf_str(&text), &k, &diags);
    strbuf_free(&text);
    if (path && w.k && w.k != k) {
        diag_add(&diags, DIAG_ERROR, NULL, 0, 0, "-k %u, but the path has %u node%s", w.k, k,
                 k == 1 ? "" : "s");
    } else if (path) {
        pattern_check_path(graph, path, k, &diags);
    }
    struct pin_set pins = PIN_SET_INIT;
    for (size_t i = 0; i < c.npins; i++)
        pin_set_add(&pins, graph, c.pins[i], &diags);
    double *probs = NULL;
    if (w.probs) {
        probs = xmalloc(probability_table_size(graph) * sizeof *probs);
        probabilities_read_file(graph, w.probs, probs, &diags);
    }
    if (!path || diag_has_errors(&diags)) {
        cli_print_diags(cmd, &diags);
        if (!path && !diags.len)
            fprintf(stderr, "kpath why: missing PATH after GRAMMAR\n");
        status = EXIT_USAGE;
        free(path);
        free(probs);
        pin_set_free(&pins);
        diag_list_free(&diags);
        return status;
    }

    struct kpath_space *spaces = xcalloc(k, sizeof *spaces);
    for (uint32_t j = 0; j < k; j++)
        kpath_space_init(&spaces[j], graph, j + 1);
    struct why_input *inputs = NULL;
    struct sample_list files = SAMPLE_LIST_INIT;
    struct diag_list problems = DIAG_LIST_INIT;
    size_t ninputs = measure_sources(graph, k, &w, spaces, &inputs, &files, &problems);

    struct why_options o = {
        .max_depth = w.max_depth, .probabilities = probs, .pins = &pins,
        .inputs = inputs, .ninputs = ninputs,
    };
    struct why_report r;
    why_explain(graph, path, k, &o, &r);
    char **lines;
    size_t nlines = reasons(graph, path, k, &o, &r, &lines);

    struct strbuf out = STRBUF_INIT, pattern = STRBUF_INIT;
    pattern_render(graph, path, k, NULL, &pattern, NULL);
    if (c.json) {
        strbuf_addstr(&out, "{\"path\": [");
        for (uint32_t i = 0; i < k; i++)
            strbuf_addf(&out, "%s%u", i ? ", " : "", path[i]);
        strbuf_addstr(&out, "], \"pattern\": ");
        json_add_string(&out, pattern.data ? pattern.data : "", pattern.len);
        strbuf_addstr(&out, ", \"covered_by\": ");
        if (r.covered_by != SIZE_MAX)
            json_add_cstring(&out, inputs[r.covered_by].name);
        else
            strbuf_addstr(&out, "null");
        strbuf_addstr(&out, ", \"needed_depth\": ");
        if (r.needed_depth == UINT32_MAX)
            strbuf_addstr(&out, "null");
        else
            strbuf_addf(&out, "%u", r.needed_depth);
        strbuf_addf(&out, ", \"max_depth\": %u, \"reasons\": [", w.max_depth);
        for (size_t i = 0; i < nlines; i++) {
            strbuf_addstr(&out, i ? ", " : "");
            json_add_cstring(&out, lines[i]);
        }
        strbuf_addstr(&out, "], \"example\": ");
        if (r.example) {
            json_add_string(&out, r.example, r.example_len);
            strbuf_addf(&out, ", \"example_depth\": %u, \"example_derivation_depth\": %u, "
                              "\"example_within_limit\": %s, \"example_smallest\": %s, "
                              "\"smallest_bytes\": %zu, \"smallest_depth\": %u",
                        r.example_depth, r.example_derivation_depth,
                        r.example_within_limit ? "true" : "false",
                        r.example_smallest ? "true" : "false", r.smallest_len, r.smallest_depth);
        } else {
            strbuf_addstr(&out, "null");
        }
        strbuf_addstr(&out, "}\n");
    } else {
        add_path(&out, graph, path, k);
        strbuf_addf(&out, "\npattern: %s\n", strbuf_str(&pattern));
        if (ninputs)
            strbuf_addf(&out, r.covered_by != SIZE_MAX ? "covered by %s\n" : "%s",
                        r.covered_by != SIZE_MAX ? inputs[r.covered_by].name
                                                 : "covered by none of the inputs\n");
        if (nlines) {
            strbuf_addstr(&out, "why:\n");
            for (size_t i = 0; i < nlines; i++)
                strbuf_addf(&out, "  - %s\n", lines[i]);
        }
        if (r.example) {
            /* Characters, as "smallest" counts them (graph.h's min_weight); the
             * bytes too where UTF-8 makes them differ. */
            size_t chars = utf8_length(r.example, r.example_len);
            strbuf_addf(&out, "%s (depth %u, derivation depth %u, %zu character%s",
                        r.example_smallest ? "smallest input containing it"
                                           : "smallest input found containing it",
                        r.example_depth, r.example_derivation_depth, chars,
                        chars == 1 ? "" : "s");
            if (chars != r.example_len)
                strbuf_addf(&out, ", %zu bytes", r.example_len);
            strbuf_addf(&out, ")%s:\n  ",
                        r.example_within_limit ? "" : ", beyond the depth limit");
            strbuf_add(&out, r.example, r.example_len);
            strbuf_addch(&out, '\n');
            if (!r.example_smallest)
                strbuf_addf(&out, "  (not proven the smallest within depth %u: the smallest input "
                                  "containing it, %zu byte%s, needs depth %u; the exact search "
                                  "within the limit is too large for this grammar)\n",
                            r.example_within_limit ? w.max_depth : r.needed_depth,
                            r.smallest_len, r.smallest_len == 1 ? "" : "s", r.smallest_depth);
        } else {
            strbuf_addstr(&out, "no input within the limits contains it\n");
        }
    }
    cli_write(out.data, out.len);
    if (problems.len) {
        fprintf(stderr, "%zu of %zu inputs could not be measured:\n", problems.errors, files.len);
        cli_print_diags(cmd, &problems);
    }
    status = problems.errors ? EXIT_USAGE : EXIT_OK;

    strbuf_free(&out);
    strbuf_free(&pattern);
    for (size_t i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    why_report_free(&r);
    for (size_t i = 0; i < ninputs; i++) {
        for (uint32_t j = 0; j < k; j++)
            kpath_set_free(&inputs[i].sets[j]);
        free(inputs[i].sets);
    }
    free(inputs);
    for (uint32_t j = 0; j < k; j++)
        kpath_space_free(&spaces[j]);
    free(spaces);
    sample_list_free(&files);
    diag_list_free(&problems);
    free(path);
    free(probs);
    pin_set_free(&pins);
    diag_list_free(&diags);
    return status;
}
