/* cmd_pattern: `kpath pattern` — one k-path as a human-readable pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "pattern.h"
#include "xalloc.h"

static int run(const struct cli_command *cmd, int argc, char **argv);

static const struct cli_option options[] = {
    {"ids", 0, NULL, "the path is node ids (0 10) instead of names"},
    {"quoted", 0, NULL, "keep literals in double quotes (when they look like parentheses)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_pattern_command = {
    "pattern", "[options] GRAMMAR PATH...", "show a k-path as a pattern of inputs",
    "Show what kind of input contains a k-path.  PATH is the path's nodes as\n"
    "`kpath paths` prints them, as separate arguments or in one string (arrows\n"
    "between them may stay):\n"
    "  kpath pattern grammars/expr.ebnf 'AddExpr_0 \"+\"_10'\n"
    "  AddExpr + MultExpr\n"
    "or, with --ids, their ids: kpath pattern --ids grammars/expr.ebnf 0 10.\n"
    "The pattern starts from the alternative of the rule that holds the first\n"
    "node (for the root, the start rule's right-hand side); each next node\n"
    "replaces the reference before it by the alternative of its rule that holds\n"
    "it, narrowing every group on the way to the branch that holds it.  A last\n"
    "node that is a reference stays as its rule's name; everything else stays\n"
    "as written.  Literals are shown without quotes unless --quoted.",
    options, run, false,
};

struct pattern_args {
    const char *grammar;
    const char *start;
    bool json, ids, quoted;
    char **tokens; /* the path's nodes as written */
    size_t ntokens, cap;
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Split one argument into node names.  A name can hold spaces inside its
 * quotes ("a b"_3) or brackets ([ \t]_7), so those are skipped whole; a
 * token "->" (as `kpath paths` prints between nodes) is dropped. */
static void split_path(struct pattern_args *a, const char *s)
{
    size_t i = 0;
    for (;;) {
        while (s[i] && is_space(s[i]))
            i++;
        if (!s[i])
            return;
        size_t start = i;
        char close = s[i] == '"' ? '"' : s[i] == '[' ? ']' : 0;
        if (close) {
            i++;
            while (s[i] && s[i] != close)
                i += s[i] == '\\' && s[i + 1] ? 2 : 1;
            if (s[i])
                i++;
        }
        while (s[i] && !is_space(s[i]))
            i++;
        if (i - start == 2 && strncmp(s + start, "->", 2) == 0)
            continue;
        a->tokens = xgrow(a->tokens, &a->cap, a->ntokens + 1, sizeof *a->tokens);
        a->tokens[a->ntokens++] = xstrndup(s + start, i - start);
    }
}

static int parse_args(const struct cli_command *cmd, int argc, char **argv, struct pattern_args *a)
{
    struct cli_parser p;
    const char *value;
    cli_parser_init(&p, cmd, argc, argv);
    for (int o; (o = cli_next(&p, &value)) != CLI_END;) {
        if (o == CLI_ERROR)
            return EXIT_USAGE;
        if (o == CLI_HELP) {
            cli_print_help(cmd);
            return EXIT_OK;
        }
        if (o == CLI_POSITIONAL) {
            if (!a->grammar)
                a->grammar = value;
            else
                split_path(a, value);
            continue;
        }
        const char *name = cmd->options[o].name;
        if (strcmp(name, "ids") == 0)
            a->ids = true;
        else if (strcmp(name, "quoted") == 0)
            a->quoted = true;
        else if (strcmp(name, "start") == 0)
            a->start = value;
        else
            a->json = true;
    }
    if (!a->grammar)
        return cli_usage_error(cmd, "missing GRAMMAR");
    if (!a->ntokens)
        return cli_usage_error(cmd, "missing PATH (the nodes of a k-path, like AddExpr_0 \"+\"_10)");
    return CLI_CONTINUE;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* The node a token names; prints why not and returns NODE_NONE. */
static uint32_t node_of(const struct cli_command *cmd, const struct graph *g,
                        const struct pattern_args *a, const char *token)
{
    if (a->ids && !all_digits(token)) {
        fprintf(stderr, "kpath %s: '%s' is not a node id (with --ids, write ids like 0 10)\n",
                cmd->name, token);
        return NODE_NONE;
    }
    uint32_t id = graph_parse_node_name(g, token);
    if (id != NODE_NONE)
        return id;
    if (all_digits(token)) {
        fprintf(stderr, "kpath %s: there is no node %s: the nodes of %s are 0 to %u\n",
                cmd->name, token, a->grammar, (unsigned)(g->nnodes - 1));
        return NODE_NONE;
    }
    /* Label_id with a wrong label: say what the id is. */
    const char *underscore = strrchr(token, '_');
    if (underscore && all_digits(underscore + 1)) {
        uint32_t n = graph_parse_node_name(g, underscore + 1);
        if (n != NODE_NONE) {
            struct strbuf real = STRBUF_INIT;
            graph_node_name(g, n, &real);
            fprintf(stderr, "kpath %s: no node '%s' in %s: node %u is %s\n", cmd->name, token,
                    a->grammar, (unsigned)n, real.data);
            strbuf_free(&real);
            return NODE_NONE;
        }
    }
    fprintf(stderr,
            "kpath %s: no node '%s' in %s: write nodes as `kpath paths` prints them "
            "(AddExpr_0, \"+\"_10), or ids with --ids\n",
            cmd->name, token, a->grammar);
    return NODE_NONE;
}

static int render(const struct cli_command *cmd, const struct graph *g,
                  const struct pattern_args *a)
{
    uint32_t *path = xmalloc((a->ntokens + 1) * sizeof *path);
    int status = EXIT_OK;
    for (size_t i = 0; i < a->ntokens && status == EXIT_OK; i++) {
        path[i] = node_of(cmd, g, a, a->tokens[i]);
        if (path[i] == NODE_NONE)
            status = EXIT_USAGE;
    }
    if (status == EXIT_OK) {
        struct diag_list diags = DIAG_LIST_INIT;
        struct pattern_options po = {.quoted = a->quoted};
        struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
        if (pattern_render(g, path, (uint32_t)a->ntokens, &po, &text, &diags)) {
            if (a->json) {
                strbuf_addstr(&out, "{\"path\": [");
                for (size_t i = 0; i < a->ntokens; i++)
                    strbuf_addf(&out, "%s%u", i ? ", " : "", (unsigned)path[i]);
                strbuf_addstr(&out, "], \"pattern\": ");
                json_add_string(&out, text.data, text.len);
                strbuf_addstr(&out, "}\n");
            } else {
                strbuf_addstr(&out, strbuf_str(&text));
                strbuf_addch(&out, '\n');
            }
            if (!cli_write(out.data, out.len))
                status = EXIT_FAILURE_OTHER;
        } else {
            for (size_t i = 0; i < diags.len; i++) {
                strbuf_reset(&out);
                diag_format(&diags.items[i], &out);
                fprintf(stderr, "kpath %s: %s\n", cmd->name, out.data);
            }
            status = EXIT_USAGE;
        }
        strbuf_free(&text);
        strbuf_free(&out);
        diag_list_free(&diags);
    }
    free(path);
    return status;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
    struct pattern_args a = {0};
    int status = parse_args(cmd, argc, argv, &a);
    if (status == CLI_CONTINUE) {
        struct grammar *g;
        struct graph *graph;
        status = cli_load(a.grammar, a.start, NULL, &g, &graph);
        if (status == EXIT_OK) {
            status = render(cmd, graph, &a);
            graph_free(graph);
            grammar_free(g);
        }
    }
    for (size_t i = 0; i < a.ntokens; i++)
        free(a.tokens[i]);
    free(a.tokens);
    return status;
}
