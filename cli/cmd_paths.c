/* cmd_paths: `kpath paths` — list or count the k-paths of a grammar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "graph/kpath.h"
#include "base/number.h"
#include "graph/pattern.h"
#include "graph/pin.h"
#include "graph/skip_paths.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int paths(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct paths_options {
    uint32_t k;
    bool ids, count, patterns, quoted, skip_paths;
    const struct pin_set *pins;
    const struct skip_paths *skip; /* hidden unless skip_paths */
};

static const struct paths_options defaults = {.k = 2};

static const struct cli_option options[] = {
    {"k", 'k', "K", "length of the paths in symbolic nodes (default 2)"},
    {"ids", 0, NULL, "print node ids only (0 10) instead of names"},
    {"count", 0, NULL, "print only the number of k-paths"},
    {"patterns", 0, NULL, "add each path's pattern (see kpath pattern) after a tab"},
    {"quoted", 0, NULL, "with --patterns: keep literals in double quotes"},
    {"skip-paths", 0, NULL, "also the k-paths through an ANTLR import's _skip rules "
                            "(hidden by default)"},
    {"pin", 0, "PATH", "only the k-paths under PATH: starting at its last node or below "
                       "(repeatable)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_paths_command = {
    "paths", "[options] GRAMMAR", "list or count the k-paths of a grammar",
    "List every k-path of GRAMMAR, one per line, in lexicographic order of ids:\n"
    "  AddExpr_0 -> \"+\"_10\n"
    "A k-path is a sequence of k symbolic nodes (references, literals, classes),\n"
    "each reached from the one before through synthetic nodes (alternations,\n"
    "sequences, quantifiers) only; it may start at any symbolic node.  Counting\n"
    "is exact (dynamic programming, no enumeration); a count that does not fit\n"
    "in 64 bits reads \"more than 2^64\".  Listing streams, so any number of\n"
    "paths can be listed.\n"
    "With --patterns each line ends with a tab and the path's pattern, what kind\n"
    "of input contains it (see kpath pattern --help):\n"
    "  AddExpr_0 -> \"+\"_10\tAddExpr [+] MultExpr\n"
    "and with --json each path becomes {\"path\": [...], \"pattern\": \"...\"}.\n"
    "An ANTLR grammar's importer puts a rule _skip (whitespace, comments) after\n"
    "every token; the k-paths through it (and through the skip tokens' own\n"
    "nodes) are left out of the list and the count by default, and stderr says\n"
    "how many: \"(58 k-paths through _skip hidden; --skip-paths shows them)\".\n"
    "--skip-paths lists and counts them too.",
    options, NULL, false,
    .needs = CLI_PINS, .args_size = sizeof defaults, .args_defaults = &defaults,
    .on_option = on_option, .check = check, .main = paths,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct paths_options *po = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, KPATH_MAX_K, &po->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "ids") == 0) {
        po->ids = true;
    } else if (strcmp(name, "patterns") == 0) {
        po->patterns = true;
    } else if (strcmp(name, "quoted") == 0) {
        po->quoted = true;
    } else if (strcmp(name, "skip-paths") == 0) {
        po->skip_paths = true;
    } else {
        po->count = true;
    }
    return CLI_CONTINUE;
}

/* Flush the output buffer to stdout once it is this large. */
enum { FLUSH_AT = 1 << 16 };

static bool flush(struct strbuf *out)
{
    bool ok = cli_write(out->data, out->len);
    strbuf_reset(out);
    return ok;
}

/* The k-paths listed: under the pins, and not hidden. */
static uint64_t shown_count(const struct paths_options *po, const struct kpath_space *sp)
{
    if (!po->skip)
        return pin_count_under(po->pins, sp);
    return skip_paths_count_shown(po->skip, sp, po->pins->len ? po->pins->below : NULL);
}

static int list_paths(const struct kpath_space *sp, const struct paths_options *po, bool json)
{
    const struct graph *g = sp->graph;
    /* Names are built once per node, never per path. */
    char **names = xcalloc(g->nnodes, sizeof *names);
    struct strbuf name = STRBUF_INIT;
    for (uint32_t s = 0; s < g->nsymbolic; s++) {
        uint32_t id = g->symbolic[s];
        strbuf_reset(&name);
        if (po->ids)
            strbuf_addf(&name, "%u", id);
        else
            graph_node_name(g, id, &name);
        if (json && !po->ids) {
            struct strbuf quoted = STRBUF_INIT;
            json_add_string(&quoted, name.data, name.len);
            names[id] = strbuf_detach(&quoted, NULL);
        } else {
            names[id] = strbuf_detach(&name, NULL);
        }
    }
    strbuf_free(&name);

    const char *sep = json ? ", " : po->ids ? " " : " -> ";
    struct strbuf out = STRBUF_INIT;
    bool ok = true, first = true;
    if (json)
        strbuf_addf(&out, "{\"k\": %u, \"count\": %llu, \"saturated\": %s, \"paths\": [", sp->k,
                    (unsigned long long)shown_count(po, sp),
                    sp->saturated ? "true" : "false");
    struct kpath_iter it;
    struct pattern_options pattern_opts = {.quoted = po->quoted, .mark = true,
                                           .hide_skip = !po->skip_paths};
    struct strbuf pattern = STRBUF_INIT;
    kpath_iter_init(&it, sp);
    if (po->pins->len)
        kpath_iter_restrict(&it, po->pins->below);
    while (ok && kpath_iter_next(&it)) {
        if (po->skip && skip_paths_hides(po->skip, it.path, sp->k))
            continue;
        if (json) {
            strbuf_addstr(&out, first ? "\n  " : ",\n  ");
            strbuf_addstr(&out, po->patterns ? "{\"path\": [" : "[");
            first = false;
        }
        for (uint32_t i = 0; i < sp->k; i++) {
            if (i)
                strbuf_addstr(&out, sep);
            strbuf_addstr(&out, names[it.path[i]]);
        }
        if (po->patterns) {
            strbuf_reset(&pattern);
            pattern_render(g, it.path, sp->k, &pattern_opts, &pattern, NULL);
            if (json) {
                strbuf_addstr(&out, "], \"pattern\": ");
                json_add_string(&out, pattern.data, pattern.len);
                strbuf_addstr(&out, "}");
            } else {
                strbuf_addch(&out, '\t');
                strbuf_add(&out, pattern.data, pattern.len);
                strbuf_addch(&out, '\n');
            }
        } else {
            strbuf_addstr(&out, json ? "]" : "\n");
        }
        if (out.len >= FLUSH_AT)
            ok = flush(&out);
    }
    kpath_iter_free(&it);
    strbuf_free(&pattern);
    if (json)
        strbuf_addstr(&out, first ? "]}\n" : "\n]}\n");
    ok = ok && flush(&out);
    strbuf_free(&out);
    for (uint32_t i = 0; i < g->nnodes; i++)
        free(names[i]);
    free(names);
    return ok ? EXIT_OK : EXIT_FAILURE_OTHER;
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)ctx;
    const struct paths_options *po = args;
    if (po->patterns && po->count)
        return cli_usage_error(cmd, "--patterns goes with listing paths, not with --count");
    if (po->quoted && !po->patterns)
        return cli_usage_error(cmd, "--quoted changes how patterns are shown; add --patterns");
    return CLI_CONTINUE;
}

static int paths(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)cmd;
    struct paths_options po = *(struct paths_options *)args;
    po.pins = &ctx->pins;
    int status = EXIT_OK;
    struct kpath_space sp;
    kpath_space_init(&sp, ctx->graph, po.k);
    struct skip_paths skip;
    skip_paths_init(&skip, ctx->graph);
    po.skip = skip.nhidden && !po.skip_paths ? &skip : NULL;
    uint64_t total = shown_count(&po, &sp);
    uint64_t all = pin_count_under(po.pins, &sp);
    if (po.count) {
        if (ctx->common.json)
            printf("{\"k\": %u, \"count\": %llu, \"saturated\": %s}\n", po.k,
                   (unsigned long long)total, sp.saturated ? "true" : "false");
        else {
            struct strbuf text = STRBUF_INIT;
            number_add_count(&text, total);
            printf("%s\n", strbuf_str(&text));
            strbuf_free(&text);
        }
    } else {
        status = list_paths(&sp, &po, ctx->common.json);
    }
    if (po.skip && all > total) {
        struct strbuf text = STRBUF_INIT;
        number_add_count(&text, all - total);
        fflush(stdout);
        fprintf(stderr, "(%s %u-path%s through _skip hidden; --skip-paths shows them)\n",
                strbuf_str(&text), po.k, all - total == 1 ? "" : "s");
        strbuf_free(&text);
    }
    skip_paths_free(&skip);
    kpath_space_free(&sp);
    return status;
}
