/* cmd_gen: `kpath gen` and `kpath cover` — generate inputs from a grammar,
 * print them or write them as a test suite, and report their k-path coverage.
 *
 * Both commands share one run function; `cover` is `gen` with the kpath
 * strategy fixed (it has no --strategy option) and run until the agenda is
 * empty.  The coverage in the summary is recomputed here from the inputs'
 * derivation trees, for every k from 1 to K, independently of the generator's
 * own bookkeeping, so the report checks the generator rather than echoing it. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "graph/expansion.h"
#include "gen/gen.h"
#include "base/number.h"
#include "base/json.h"
#include "graph/kpath.h"
#include "gen/learn.h"
#include "base/outdir.h"
#include "graph/pin.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "suite/suite_min.h"
#include "formats/target_list.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_gen(void *args);
static void init_cover(void *args);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int generate(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct gen_cli {
    struct gen_options opts;
    bool k_set, count_set, closeoff_set, pack_set, keep_redundant;
    bool stream;             /* --stream: every input kept, each written once made */
    bool progress;           /* --progress: progress lines on stderr even off a terminal */
    const char *target_file; /* --target FILE */
    double minutes;          /* --minutes M; 0: not given */
    const char *probs; /* --probs FILE */
    bool invert;
    const char *outdir;
    const char *suffix;
    bool force, nul;
};

/* gen and cover: the same command but for their default strategy. */
#define GEN_COMMAND(init)                                                                  \
    .takes_files = false, .needs = CLI_GRAPH, .args_size = sizeof(struct gen_cli),          \
    .init_args = init, .on_option = on_option, .check = check, .main = generate

/* The help states the defaults of gen.h in words; these keep them honest. */
_Static_assert(GEN_DEFAULT_K == 2, "help text: -k default");
_Static_assert(GEN_DEFAULT_COUNT == 10, "help text: -n default");
_Static_assert(GEN_DEFAULT_MAX_DEPTH == 16, "help text: --max-depth default");
_Static_assert(GEN_DEFAULT_MAX_REPETITIONS == 3, "help text: --max-repetitions default");
_Static_assert(GEN_DEFAULT_MAX_SIZE == 2000, "help text: --max-size default");
_Static_assert(GEN_DEFAULT_SEED == 1, "help text: --seed default");
_Static_assert(GEN_DEFAULT_PACK_SIZE == 60, "help text: --pack-size default");

/* Option help shared by both commands; cover lacks --strategy. */
#define OPT_K {"k", 'k', "K", "k-path length to cover and report (default 2)"}
#define OPT_STRATEGY {"strategy", 0, "NAME", "kpath, random, coverage or prob (default kpath)"}
#define OPT_CLOSEOFF {"close-off", 0, "HOW", "shortest, random or greedy (default greedy)"}
#define OPT_PACK_SIZE                                                               \
    {"pack-size", 0, "N", "greedy: pack k-paths into an input only up to N tree nodes " \
                               "(default 60; 0: up to --max-size)"}
#define OPT_COUNT {"count", 'n', "N", "inputs, 0 = all k-paths (default 0 for kpath, else 10)"}
#define OPT_KEEP {"keep-redundant", 0, NULL, "kpath: keep inputs whose k-paths all occur in other inputs"}
#define OPT_STREAM {"stream", 0, NULL, "write each input once made; none dropped (see below)"}
#define OPT_TARGETS                                                                       \
    {"target", 0, "FILE", "kpath: cover only the k-paths in FILE, one a line as kpath paths " \
                          "prints them"},                                                  \
    {"recurrent", 0, NULL, "kpath: after full coverage start over with random choices, "  \
                           "for -n N inputs or --minutes M"},                             \
    {"minutes", 0, "M", "with --recurrent: stop after M minutes (a decimal)"}
#define OPT_COMMON_TAIL                                                                   \
    {"pin", 0, "PATH", "cover the k-paths under PATH in its context (repeatable)"},     \
    {"max-depth", 0, "D", "reference nodes per root-to-leaf path (default 16)"},         \
    {"max-repetitions", 0, "R", "repetitions of *, + and {n,}, at most (default 3)"},    \
    {"max-size", 0, "S", "size budget in tree nodes, every strategy (default 2000)"},         \
    {"seed", 0, "S", "seed of every random choice (default 1)"},                         \
    {"output", 'o', "DIR", "write DIR/0001.txt, ... and DIR/manifest.json"},             \
    {"suffix", 0, "SUF", "with -o: file name suffix (default .txt)"},                    \
    {"force", 0, NULL, "with -o: use a non-empty DIR, replacing its test cases"},        \
    {"null", '0', NULL, "end each input with a NUL instead of a newline"},               \
    {"start", 0, "NAME", "use rule NAME as the start rule"},                             \
    CLI_FORMAT_OPTION,                                                                   \
    CLI_TOKEN_OPTION,                                                                    \
    CLI_GRAMMAR_SIZE_OPTION,                                                             \
    {"json", 0, NULL, "print the run (manifest, with texts) as JSON on stdout"},         \
    {"progress", 0, NULL, "say on stderr how far generation is (default: on a terminal)"}, \
    {0}

static const struct cli_option gen_options[] = {
    OPT_K, OPT_STRATEGY, OPT_CLOSEOFF, OPT_PACK_SIZE, OPT_COUNT, OPT_KEEP, OPT_STREAM, OPT_TARGETS,
    {"probs", 0, "FILE", "prob: probabilities from FILE (kpath learn's output, or a grammar "
                         "with the same rules annotated by hand)"},
    {"invert", 0, NULL, "prob: invert the probabilities (inputs unlike the samples)"},
    OPT_COMMON_TAIL,
};
static const struct cli_option cover_options[] = {
    OPT_K, OPT_CLOSEOFF, OPT_PACK_SIZE, OPT_COUNT, OPT_KEEP, OPT_STREAM, OPT_TARGETS, OPT_COMMON_TAIL,
};

#define DEPTH_TEXT                                                                  \
    "Depth is the number of reference nodes on the longest root-to-leaf path of a\n" \
    "derivation tree (the manifest also gives the k-path paper's derivation\n"  \
    "depth: tree nodes on that path).  No strategy builds a tree deeper than\n"   \
    "--max-depth; a grammar whose smallest input is deeper is refused (exit\n"  \
    "status 2) with the depth it needs, and the kpath strategy reports each\n"  \
    "k-path that needs more, with the depth it needs.\n"                       \
    "\n"                                                                            \
    "Smallest means fewest characters, then fewest tree nodes, within --max-depth:\n" \
    "the kpath walk follows the smallest way to its target within the limit,\n" \
    "also where that is neither the smallest nor the shallowest way (an exact\n" \
    "search, up to (limit + 1) x graph nodes = 2^21; past it, the shallowest\n" \
    "way when the smallest is too deep), and the shortest close-off takes the\n" \
    "smallest subtree within the depth left.  --max-size is a budget of tree\n" \
    "nodes for every strategy and close-off: a choice may only take what keeps\n" \
    "the tree, closed in the smallest way, within it; with nothing left, the\n" \
    "smallest alternative and the fewest repetitions.  A grammar whose smallest\n" \
    "input exceeds it is refused (exit status 2, naming the rule); a k-path\n" \
    "whose smallest tree does is reported with the tree nodes it needs.\n"

#define TARGET_TEXT                                                                 \
    "\n"                                                                            \
    "--target FILE covers only the k-paths listed in FILE, one a line as 'kpath\n"    \
    "paths' prints them ('#' comments and blank lines skipped; the k-path paper's\n" \
    "subset targeting): they alone are the agenda, greedy close-off counts only\n"   \
    "them, and the summary says how many are covered.  FILE sets k unless -k\n"     \
    "is given; a bad line is an error at FILE:LINE:COL.\n"                          \
    "\n"                                                                            \
    "--recurrent keeps generating after full coverage: the agenda starts over,\n"   \
    "every reachable target again, in a new random order and with random\n"        \
    "close-off, round after round, until -n N inputs (exactly N) or --minutes M\n"  \
    "(checked between trees).  Inputs are never dropped; the manifest gives each\n" \
    "its round.\n"

#define OUTPUT_TEXT                                                                 \
    "Without -o the inputs go to stdout, each followed by a newline (with -0 by a\n" \
    "NUL, for inputs that contain newlines).  They stream (each is written when\n"  \
    "its tree is done) exactly when no input can be dropped later: --stream,\n"   \
    "--keep-redundant, --recurrent, strategies other than kpath, -n 1, and\n"      \
    "--target in a space of more than 2^26 k-paths.  Otherwise cover drops\n"     \
    "redundant inputs once done (then, with greedy, runs the last pass) and\n"   \
    "writes the rest at the end: whether an input stays depends on the inputs\n"  \
    "made after it.  --stream asks for the inputs at once instead: it keeps\n"   \
    "every input, as --keep-redundant does (more inputs, the same coverage), so\n" \
    "nothing written is ever taken back; it excludes -o and --json, which are\n"   \
    "written at the end.  For the same options the bytes are the same whether\n" \
    "they stream or not.  On a terminal, unless inputs stream to it, stderr\n"   \
    "shows the stage (preparing the generator, making inputs: how many are\n"   \
    "made and k-paths left, choosing the suite, measuring its coverage),\n"     \
    "cleared before the summary; --progress writes these lines anywhere (one\n" \
    "a second, and the last).  Elsewhere a run still at work after 10 s of\n"  \
    "CPU time says so once, naming its stage, and writes them from then on.\n" \
    "With -o DIR each input is a file,\n"                                        \
    "DIR/0001.txt, DIR/0002.txt, ... (four digits, more for 10000 inputs or more),\n" \
    "and DIR/manifest.json, written last, describes the run: grammar and its\n"      \
    "SHA-256, options, and per file its size, depth and the k-paths it newly\n"      \
    "covered.  Every file is written atomically.  DIR is created if missing; a\n"    \
    "non-empty DIR is refused unless --force, which replaces files of the same\n"    \
    "names and, after a successful run, removes the numbered files (digits and\n"    \
    "the suffix) of an earlier run that this run did not write; nothing else.\n"     \
    "\n"                                                                           \
    "A summary goes to stderr: strategy, seed and bounds, sizes, the k-path\n"       \
    "coverage of the inputs for every k from 1 to K and their expansion\n"          \
    "coverage (the alternatives of every alternation, and each rule without\n"      \
    "alternatives, that some input uses: fuzzingbook's expansion_coverage),\n"      \
    "both recomputed from their derivation trees, and each K-path left\n"           \
    "uncovered with the reason.\n"                                                  \
    "The same grammar, options and seed give the same inputs on every machine."

#define CLOSEOFF_TEXT                                                                \
    "\n"                                                                            \
    "Close-off (kpath strategy): how a tree is completed once its target is in it.\n" \
    "  shortest  each open slot takes the alternative with the shortest text\n"      \
    "            (then the smallest depth and size) that fits --max-depth, the\n"    \
    "            fewest repetitions and the first printable character of a class\n"  \
    "  random    uniform among the alternatives that fit --max-depth, repetitions\n" \
    "            uniform up to --max-repetitions, random characters\n"            \
    "  greedy    (default) the alternative adding the most k-paths not covered\n" \
    "            yet (then one that can lead to one, then the shortest),\n"         \
    "            repetitions while they add k-paths, up to --pack-size tree\n"   \
    "            nodes an input; the letters and digits of a class in turn\n"    \
    "            across the suite (seeded); then a last pass (below)\n"          \
    "Once done, inputs whose k-paths all occur in other inputs are dropped\n"      \
    "(coverage stays the same); --keep-redundant keeps them.  With greedy, the\n"  \
    "default, a last pass then chooses the suite, as a set cover, among\n"          \
    "greedy's inputs and the whole suites of the shortest and random close-offs\n" \
    "(same seed), and shrinks its trees: a subtree becomes the smallest one of\n"  \
    "its node within the depth left, a recursion shorter, a repetition fewer,\n"  \
    "and a whole input moves into another in place of a subtree of the same\n"   \
    "node, each only while the suite still holds every k-path it held; inputs\n" \
    "that became redundant go.  The result has no more inputs and no more bytes\n" \
    "than greedy's, and of those the fewest inputs, then the fewest bytes kpath\n" \
    "finds (not a proven minimum); same coverage.  It never trades bytes for\n"  \
    "inputs.  With packing bounded (the default), an input whose text is all\n"  \
    "one repetition (a list of lines) is then split into one input per\n"       \
    "repetition where that costs no bytes.  Above 100000 k-paths the pass is\n" \
    "off (the summary says so) and the suite is greedy's.\n"                     \
    "--pack-size N bounds greedy's packing: a tree takes k-paths only while it\n" \
    "stays, closed in the smallest way, within N tree nodes, then closes like\n"  \
    "shortest (larger only where the way to its target alone needs more; the\n"  \
    "last pass keeps the bound).  Default 60; 0: no bound but --max-size.  Why\n" \
    "this default: run by five programs (make bench, behaviour), it reaches at\n" \
    "least what the shortest suite and random inputs of the same bytes reach,\n" \
    "where unbounded packing does not (an error early in a long input masks\n" \
    "what comes after it; docs/suites.md).\n"

const struct cli_command cmd_gen_command = {
    "gen",
    "[options] GRAMMAR [-o DIR [--suffix SUF] [--force] | -0]",
    "generate inputs (k-path, random, coverage or probabilistic)",
    "Generate inputs from GRAMMAR.\n"
    "\n"
    "Strategies:\n"
    "  kpath     the k-path algorithm: takes each k-path not covered yet as a\n"
    "            target, derives from the root towards its nodes along the\n"
    "            smallest way, then completes the tree with the\n"
    "            close-off; stops when every k-path is covered or needs more\n"
    "            than --max-depth (or after -n inputs)\n"
    "  random    uniform among the alternatives that still fit --max-depth and\n"
    "            --max-size, repetitions uniform up to --max-repetitions; with\n"
    "            nothing that fits, the smallest choice\n"
    "  coverage  like random, but by fuzzingbook's deep foresight: the\n"
    "            alternatives whose subtrees add the most expansions no input\n"
    "            has used yet, at the smallest lookahead (in references) where\n"
    "            any adds one; random among ties\n"
    "  prob      alternatives drawn by their weights in the grammar (40%, @@ 0.4;\n"
    "            unweighted ones share the rest); weight 0 is never drawn unless\n"
    "            nothing else completes the tree\n"
    CLOSEOFF_TEXT
    TARGET_TEXT
    "\n"
    DEPTH_TEXT
    "\n"
    OUTPUT_TEXT,
    gen_options, NULL, GEN_COMMAND(init_gen),
};

const struct cli_command cmd_cover_command = {
    "cover",
    "[options] GRAMMAR [-o DIR [--suffix SUF] [--force] | -0]",
    "generate inputs until every k-path is covered",
    "Generate inputs from GRAMMAR until they cover every k-path that a tree\n"
    "within --max-depth can contain: 'kpath gen --strategy kpath'.  Each k-path\n"
    "not covered yet becomes a target; the tree derives from the root towards\n"
    "its nodes along the smallest way and is completed by the\n"
    "close-off.  With -k 3 on grammars/config.ebnf that is every combination of\n"
    "operating system, processor and browser.\n"
    CLOSEOFF_TEXT
    TARGET_TEXT
    "\n"
    DEPTH_TEXT
    "\n"
    OUTPUT_TEXT,
    cover_options, NULL, GEN_COMMAND(init_cover),
};

/* ---- options --------------------------------------------------------------- */

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct gen_cli *gc = ctx;
    struct gen_options *o = &gc->opts;
    const char *name = cmd->options[index].name;
    bool ok = true;
    if (strcmp(name, "k") == 0) {
        ok = cli_parse_u32(cmd, "-k", value, 1, KPATH_MAX_K, &o->k);
        gc->k_set = true;
    } else if (strcmp(name, "target") == 0) {
        gc->target_file = value;
    } else if (strcmp(name, "recurrent") == 0) {
        o->recurrent = true;
    } else if (strcmp(name, "minutes") == 0) {
        char *end;
        double m = strtod(value, &end);
        /* At most a year: beyond it the deadline's arithmetic loses meaning. */
        if (!*value || *end || !(m > 0) || m > 525600)
            return cli_usage_error(cmd, "--minutes must be a number of minutes above 0 and at "
                                        "most 525600, not '%s'", value);
        gc->minutes = m;
    } else if (strcmp(name, "strategy") == 0) {
        if (!gen_strategy_parse(value, &o->strategy))
            return cli_usage_error(cmd, "--strategy must be kpath, random, coverage or prob, "
                                        "not '%s'", value);
    } else if (strcmp(name, "close-off") == 0) {
        if (!gen_closeoff_parse(value, &o->closeoff))
            return cli_usage_error(cmd, "--close-off must be shortest, random or greedy, not '%s'",
                                   value);
        gc->closeoff_set = true;
    } else if (strcmp(name, "count") == 0) {
        ok = cli_parse_u32(cmd, "-n", value, 0, UINT32_MAX, &o->count);
        gc->count_set = true;
    } else if (strcmp(name, "max-depth") == 0) {
        ok = cli_parse_u32(cmd, "--max-depth", value, 0, UINT32_MAX - 1, &o->max_depth);
    } else if (strcmp(name, "max-repetitions") == 0) {
        ok = cli_parse_u32(cmd, "--max-repetitions", value, 0, UINT32_MAX - 1,
                           &o->max_repetitions);
    } else if (strcmp(name, "max-size") == 0) {
        ok = cli_parse_u32(cmd, "--max-size", value, 1, UINT32_MAX - 1, &o->max_size);
    } else if (strcmp(name, "pack-size") == 0) {
        ok = cli_parse_u32(cmd, "--pack-size", value, 0, UINT32_MAX - 1,
                           &o->pack_size);
        gc->pack_set = true;
    } else if (strcmp(name, "seed") == 0) {
        ok = cli_parse_u64(cmd, "--seed", value, &o->seed);
    } else if (strcmp(name, "output") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "-o needs a directory name");
        gc->outdir = value;
    } else if (strcmp(name, "suffix") == 0) {
        if (strchr(value, '/'))
            return cli_usage_error(cmd, "--suffix must not contain '/', not '%s'", value);
        gc->suffix = value;
    } else if (strcmp(name, "probs") == 0) {
        gc->probs = value;
    } else if (strcmp(name, "invert") == 0) {
        gc->invert = true;
    } else if (strcmp(name, "force") == 0) {
        gc->force = true;
    } else if (strcmp(name, "keep-redundant") == 0) {
        gc->keep_redundant = true;
    } else if (strcmp(name, "stream") == 0) {
        gc->stream = true;
    } else if (strcmp(name, "progress") == 0) {
        gc->progress = true;
    } else if (strcmp(name, "null") == 0) {
        gc->nul = true;
    }
    return ok ? CLI_CONTINUE : EXIT_USAGE;
}

/* Checks that need every option; returns CLI_CONTINUE or EXIT_USAGE. */
static int check_options(const struct cli_command *cmd, struct gen_cli *gc, bool json)
{
    struct gen_options *o = &gc->opts;
    if (!gc->count_set)
        o->count = o->strategy == GEN_KPATH ? 0 : GEN_DEFAULT_COUNT;
    if (o->count == 0 && o->strategy != GEN_KPATH)
        return cli_usage_error(cmd, "-n 0 (no limit) works with the kpath strategy only; "
                                    "--strategy %s needs a number of inputs",
                               gen_strategy_name(o->strategy));
    if (gc->closeoff_set && o->strategy != GEN_KPATH)
        return cli_usage_error(cmd, "--close-off applies to the kpath strategy only");
    if (gc->pack_set && (o->strategy != GEN_KPATH || o->closeoff != GEN_CLOSE_GREEDY))
        return cli_usage_error(cmd, "--pack-size applies to the greedy close-off only");
    /* The bound in force: none outside greedy, none at --max-size or above. */
    if (o->strategy != GEN_KPATH || o->closeoff != GEN_CLOSE_GREEDY ||
        o->pack_size >= o->max_size)
        o->pack_size = 0;
    if (gc->keep_redundant && o->strategy != GEN_KPATH)
        return cli_usage_error(cmd, "--keep-redundant applies to the kpath strategy only");
    if (gc->target_file && o->strategy != GEN_KPATH)
        return cli_usage_error(cmd, "--target applies to the kpath strategy only");
    if (o->recurrent && o->strategy != GEN_KPATH)
        return cli_usage_error(cmd, "--recurrent applies to the kpath strategy only");
    if (gc->minutes > 0 && !o->recurrent)
        return cli_usage_error(cmd, "--minutes needs --recurrent (without it, generation ends "
                                    "at full coverage)");
    if (o->recurrent && !o->count && gc->minutes <= 0)
        return cli_usage_error(cmd, "--recurrent needs -n N (inputs) or --minutes M: it "
                                    "generates until one of them stops it");
    if (o->recurrent && gc->keep_redundant)
        return cli_usage_error(cmd, "--keep-redundant and --recurrent exclude each other "
                                    "(the recurrent mode keeps every input)");
    /* --stream writes each input once made, so none may be dropped later:
     * nothing written is taken back.  It goes to stdout only. */
    if (gc->stream && gc->outdir)
        return cli_usage_error(cmd, "--stream and -o exclude each other (--stream writes to "
                                    "stdout; -o writes the files at the end)");
    if (gc->stream && json)
        return cli_usage_error(cmd, "--stream and --json exclude each other (the JSON "
                                    "document is written at the end)");
    o->drop_redundant = o->strategy == GEN_KPATH && !gc->keep_redundant && !gc->stream;
    if ((gc->probs || gc->invert) && o->strategy != GEN_PROB)
        return cli_usage_error(cmd, "%s applies to --strategy prob only",
                               gc->probs ? "--probs" : "--invert");
    if (gc->nul && gc->outdir)
        return cli_usage_error(cmd, "-0 and -o exclude each other (-0 separates inputs on "
                                    "stdout)");
    if (gc->nul && json)
        return cli_usage_error(cmd, "-0 and --json exclude each other");
    if (!gc->outdir && gc->suffix)
        return cli_usage_error(cmd, "--suffix needs -o DIR");
    if (!gc->outdir && gc->force)
        return cli_usage_error(cmd, "--force needs -o DIR");
    if (!gc->suffix)
        gc->suffix = ".txt";
    return CLI_CONTINUE;
}

/* ---- coverage, recomputed from the trees ----------------------------------- */

struct coverage_row {
    uint32_t k;
    uint64_t covered, total;
    bool saturated;
};

/* rows[j-1] for j = 1..k, and the expansions the trees use into `used`.
 * With pins: coverage in their context, of the k-paths under them.  One
 * pass over the inputs: each tree is rebuilt from its packed form once. */
static struct coverage_row *measure_coverage(const struct generator *gen, uint32_t k,
                                             struct expansion_set *used)
{
    struct coverage_row *rows = xcalloc(k, sizeof *rows);
    struct kpath_space *spaces = xcalloc(k, sizeof *spaces);
    struct kpath_set *sets = xcalloc(k, sizeof *sets);
    for (uint32_t j = 0; j < k; j++) {
        kpath_space_init(&spaces[j], gen->graph, j + 1);
        kpath_set_init(&sets[j], &spaces[j]);
    }
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct derivation tree;
        gen_input_tree(gen, i, &tree);
        for (uint32_t j = 0; j < k; j++)
            pin_add_kpaths(gen->opts.pins, &tree, &sets[j]);
        expansion_add_tree(used, &tree);
        derivation_free(&tree);
    }
    for (uint32_t j = 0; j < k; j++) {
        rows[j] = (struct coverage_row){j + 1, sets[j].size,
                                        pin_count_under(gen->opts.pins, &spaces[j]),
                                        spaces[j].saturated};
        kpath_set_free(&sets[j]);
        kpath_space_free(&spaces[j]);
    }
    free(sets);
    free(spaces);
    return rows;
}

/* A saturated total is only a lower bound: such coverage never reads 100.0. */
static void add_percent(struct strbuf *out, uint64_t covered, uint64_t total, bool saturated)
{
    if (saturated && covered >= total)
        strbuf_addstr(out, "99.9");
    else
        number_add_percent(out, covered, total);
}

/* ---- the run's description (manifest.json, --json) ------------------------- */

struct run {
    const struct cli_command *cmd;
    const struct gen_cli *gc;
    const char *grammar_path;
    const char *grammar_sha256; /* NULL: not computed */
    const char *start_rule;
    const struct generator *gen;
    const struct coverage_row *rows;
    char **names;               /* file names with -o, else NULL */
    uint64_t total_bytes;
    uint64_t agenda_left;
    bool output_failed;         /* streaming to stdout failed, which stopped generation */
    uint64_t targets_covered, targets_distinct; /* with --target */
    uint64_t expansions_used, expansions_total; /* recomputed from the trees */
    struct suite_min_report minimized;          /* the final pass (suite_min.h) */
};

static void add_ids(struct strbuf *out, const uint32_t *ids, uint32_t k)
{
    strbuf_addch(out, '[');
    for (uint32_t i = 0; i < k; i++)
        strbuf_addf(out, i ? ", %u" : "%u", ids[i]);
    strbuf_addch(out, ']');
}

static double mean_bytes(const struct run *r)
{
    return r->gen->ninputs ? (double)r->total_bytes / (double)r->gen->ninputs : 0.0;
}

static void build_manifest(const struct run *r, bool texts, struct strbuf *out)
{
    const struct generator *gen = r->gen;
    const struct gen_options *o = &gen->opts;
    uint32_t k = o->k;
    strbuf_addstr(out, "{\n  \"tool\": \"kpath\",\n  \"version\": ");
    json_add_cstring(out, KPATH_VERSION);
    strbuf_addstr(out, ",\n  \"command\": ");
    json_add_cstring(out, r->cmd->name);
    strbuf_addstr(out, ",\n  \"grammar\": {\"path\": ");
    json_add_cstring(out, r->grammar_path);
    if (r->grammar_sha256) {
        strbuf_addstr(out, ", \"sha256\": ");
        json_add_cstring(out, r->grammar_sha256);
    }
    strbuf_addstr(out, "},\n  \"start\": ");
    json_add_cstring(out, r->start_rule);
    strbuf_addf(out, ",\n  \"strategy\": \"%s\"", gen_strategy_name(o->strategy));
    if (o->strategy == GEN_PROB) {
        strbuf_addstr(out, ",\n  \"probabilities\": ");
        if (r->gc->probs)
            json_add_cstring(out, r->gc->probs);
        else
            strbuf_addstr(out, "\"grammar\"");
        strbuf_addf(out, ",\n  \"inverted\": %s", r->gc->invert ? "true" : "false");
    }
    if (o->strategy == GEN_KPATH)
        strbuf_addf(out, ",\n  \"close_off\": \"%s\"", gen_closeoff_name(r->gc->opts.closeoff));
    else
        strbuf_addstr(out, ",\n  \"close_off\": null");
    if (r->gc->target_file) {
        strbuf_addstr(out, ",\n  \"targets\": {\"file\": ");
        json_add_cstring(out, r->gc->target_file);
        strbuf_addf(out, ", \"k_paths\": %" PRIu64 ", \"covered\": %" PRIu64 "}",
                    r->targets_distinct, r->targets_covered);
    }
    if (o->recurrent)
        strbuf_addf(out, ",\n  \"recurrent\": {\"rounds\": %u, \"minutes\": %g}", gen->round,
                    r->gc->minutes);
    if (o->pins && o->pins->len) {
        strbuf_addstr(out, ",\n  \"pins\": [");
        for (size_t i = 0; i < o->pins->len; i++) {
            struct strbuf pin = STRBUF_INIT;
            pin_format(r->gen->graph, &o->pins->pins[i], &pin);
            strbuf_addstr(out, i ? ", " : "");
            json_add_string(out, pin.data, pin.len);
            strbuf_free(&pin);
        }
        strbuf_addch(out, ']');
    }
    strbuf_addf(out, ",\n  \"k\": %u,\n  \"max_depth\": %u,\n  \"max_repetitions\": %u,"
                     "\n  \"max_size\": %u,\n  \"seed\": %" PRIu64 ",\n  \"count\": %u",
                k, o->max_depth, o->max_repetitions, o->max_size, o->seed, o->count);
    if (o->pack_size)
        strbuf_addf(out, ",\n  \"pack_size\": %u", o->pack_size);
    if (r->names) {
        strbuf_addstr(out, ",\n  \"suffix\": ");
        json_add_cstring(out, r->gc->suffix);
    }
    strbuf_addstr(out, r->names ? ",\n  \"files\": [" : ",\n  \"inputs\": [");
    for (size_t i = 0; i < gen->ninputs; i++) {
        const struct gen_input *in = &gen->inputs[i];
        strbuf_addstr(out, i ? ",\n    {" : "\n    {");
        if (r->names) {
            strbuf_addstr(out, "\"name\": ");
            json_add_cstring(out, r->names[i]);
            strbuf_addstr(out, ", ");
        }
        strbuf_addf(out, "\"size\": %zu, \"depth\": %u, \"derivation_depth\": %u", in->len,
                    in->depth, in->derivation_depth);
        if (o->recurrent)
            strbuf_addf(out, ", \"round\": %u", in->round);
        if (texts) {
            strbuf_addstr(out, ", \"text\": ");
            json_add_string(out, in->text, in->len);
        }
        if (in->target) {
            strbuf_addstr(out, ", \"target\": ");
            add_ids(out, in->target, k);
        }
        strbuf_addstr(out, ", \"new_paths\": [");
        for (uint32_t p = 0; p < in->nnew; p++) {
            if (p)
                strbuf_addstr(out, ", ");
            add_ids(out, in->new_paths + (size_t)p * k, k);
        }
        strbuf_addstr(out, "]}");
    }
    strbuf_addstr(out, gen->ninputs ? "\n  ],\n" : "],\n");

    strbuf_addf(out, "  \"summary\": {\n    \"inputs\": %zu,\n    \"total_bytes\": %" PRIu64
                     ",\n    \"mean_bytes\": %.1f,\n    \"coverage\": [",
                gen->ninputs, r->total_bytes, mean_bytes(r));
    for (uint32_t j = 0; j < k; j++) {
        const struct coverage_row *row = &r->rows[j];
        strbuf_addf(out, "%s\n      {\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64
                         "%s}",
                    j ? "," : "", row->k, row->covered, row->total,
                    row->saturated ? ", \"saturated\": true" : "");
    }
    strbuf_addf(out, "\n    ],\n    \"expansions\": {\"covered\": %" PRIu64 ", \"total\": %" PRIu64
                     "},",
                r->expansions_used, r->expansions_total);
    strbuf_addstr(out, "\n    \"unreachable\": [");
    for (size_t u = 0; u < gen->nunreachable; u++) {
        strbuf_addstr(out, u ? ",\n      {\"path\": " : "\n      {\"path\": ");
        add_ids(out, gen->unreachable[u].path, k);
        if (gen->unreachable[u].empty_repetition)
            strbuf_addstr(out, ", \"empty_repetition\": true");
        else
            strbuf_addf(out, ", \"needed_depth\": %u", gen->unreachable[u].needed_depth);
        if (gen->unreachable[u].needed_size)
            strbuf_addf(out, ", \"needed_size\": %" PRIu64, gen->unreachable[u].needed_size);
        strbuf_addch(out, '}');
    }
    strbuf_addstr(out, gen->nunreachable ? "\n    ],\n" : "],\n");
    strbuf_addf(out, "    \"agenda_left\": %" PRIu64 "\n  },\n  \"error\": ", r->agenda_left);
    if (gen->error)
        json_add_cstring(out, gen->error);
    else
        strbuf_addstr(out, "null");
    strbuf_addstr(out, "\n}\n");
}

/* ---- the summary on stderr ------------------------------------------------- */

static void add_path_names(struct strbuf *out, const struct graph *g, const uint32_t *path,
                           uint32_t k)
{
    for (uint32_t i = 0; i < k; i++) {
        if (i)
            strbuf_addstr(out, " -> ");
        graph_node_name(g, path[i], out);
    }
}

static void print_summary(const struct run *r)
{
    const struct generator *gen = r->gen;
    const struct gen_options *o = &gen->opts;
    uint32_t k = o->k;
    struct strbuf s = STRBUF_INIT;
    strbuf_addf(&s, "strategy: %s", gen_strategy_name(o->strategy));
    if (o->strategy == GEN_KPATH)
        strbuf_addf(&s, ", close-off %s", gen_closeoff_name(r->gc->opts.closeoff));
    if (o->pack_size)
        strbuf_addf(&s, " packing up to %u tree nodes an input", o->pack_size);
    if (o->recurrent)
        strbuf_addstr(&s, ", recurrent (rounds after the first: random order and close-off)");
    if (o->strategy == GEN_PROB)
        strbuf_addf(&s, ", probabilities from %s%s", r->gc->probs ? r->gc->probs : "the grammar",
                    r->gc->invert ? ", inverted" : "");
    strbuf_addf(&s, ", k=%u, seed %" PRIu64 "\n", k, o->seed);
    if (o->pins && o->pins->len) {
        strbuf_addstr(&s, "pins: ");
        for (size_t i = 0; i < o->pins->len; i++) {
            if (i)
                strbuf_addstr(&s, "; ");
            pin_format(gen->graph, &o->pins->pins[i], &s);
        }
        strbuf_addstr(&s, " (coverage in their context, of the k-paths under them)\n");
    }
    if (r->gc->target_file)
        strbuf_addf(&s, "targets: %s, %" PRIu64 " %u-path%s, %" PRIu64 " covered\n",
                    r->gc->target_file, r->targets_distinct, k,
                    r->targets_distinct == 1 ? "" : "s", r->targets_covered);
    if (o->recurrent)
        strbuf_addf(&s, "rounds: %u (the agenda started over %u time%s)\n", gen->round,
                    gen->round - 1, gen->round == 2 ? "" : "s");
    strbuf_addf(&s, "bounds: max depth %u, max repetitions %u, max size %u, ", o->max_depth,
                o->max_repetitions, o->max_size);
    if (o->count)
        strbuf_addf(&s, "-n %u\n", o->count);
    else if (r->gc->minutes > 0)
        strbuf_addf(&s, "--minutes %g\n", r->gc->minutes);
    else
        strbuf_addstr(&s, "-n 0 (until every k-path is covered)\n");
    strbuf_addf(&s, "inputs: %zu, %" PRIu64 " bytes in total, %.1f bytes on average\n", gen->ninputs,
                r->total_bytes, mean_bytes(r));
    const struct suite_min_report *m = &r->minimized;
    if (m->outcome == SUITE_MIN_DONE) {
        strbuf_addf(&s, "suite: fewest inputs, then bytes, none more than greedy's, of %zu "
                        "candidates", m->candidates);
        if (m->shrink.kept) /* suite_shrink.h */
            strbuf_addf(&s, ", trees shrunk by %" PRIu64 " edit%s%s", m->shrink.kept,
                        m->shrink.kept == 1 ? "" : "s",
                        m->shrink.budget_spent ? " (stopped at the work bound)" : "");
        if (m->grafts.kept)
            strbuf_addf(&s, ", %" PRIu64 " input%s grafted into others%s", m->grafts.kept,
                        m->grafts.kept == 1 ? "" : "s",
                        m->grafts.budget_spent ? " (stopped at the work bound)" : "");
        if (m->split) /* suite_split.h */
            strbuf_addf(&s, ", then %zu input%s split into %s repetitions (no more bytes)", m->split,
                        m->split == 1 ? "" : "s", m->split == 1 ? "its" : "their");
        strbuf_addf(&s, " (greedy alone: %zu input%s, %" PRIu64 " bytes)\n", m->before_inputs,
                    m->before_inputs == 1 ? "" : "s", m->before_bytes);
    } else if (m->outcome == SUITE_MIN_TOO_BIG)
        strbuf_addf(&s, "suite: greedy's, as made (the last pass is off above %u %u-paths; "
                        "this grammar has %" PRIu64 ")\n",
                    SUITE_MIN_MAX_KPATHS, k, m->kpaths);
    if (r->gc->stream && o->strategy == GEN_KPATH && !o->recurrent)
        strbuf_addstr(&s, "suite: every input, as streamed (--stream drops none)\n");
    strbuf_addstr(&s, "k-path coverage:\n");
    for (uint32_t j = 0; j < k; j++) {
        const struct coverage_row *row = &r->rows[j];
        strbuf_addf(&s, "  k=%u: %" PRIu64 "/", row->k, row->covered);
        if (row->saturated)
            strbuf_addstr(&s, "more than 2^64");
        else
            strbuf_addf(&s, "%" PRIu64, row->total);
        strbuf_addstr(&s, " (");
        add_percent(&s, row->covered, row->total, row->saturated);
        strbuf_addstr(&s, "%)\n");
    }

    strbuf_addf(&s, "expansion coverage: %" PRIu64 "/%" PRIu64 " (", r->expansions_used,
                r->expansions_total);
    add_percent(&s, r->expansions_used, r->expansions_total, false);
    strbuf_addstr(&s, "%)\n");

    const struct coverage_row *last = &r->rows[k - 1];
    if (!last->saturated && last->total == 0 && !r->gc->target_file)
        strbuf_addf(&s, "note: the grammar has no %u-paths (no chain of %u symbolic nodes): "
                        "nothing to aim at; a smaller -k has some\n", k, k);
    uint64_t uncovered = last->saturated ? UINT64_MAX : last->total - last->covered;
    /* With targets, only they were aimed at: account for those. */
    if (r->gc->target_file)
        uncovered = r->targets_distinct - r->targets_covered;
    if (uncovered) {
        if (r->gc->target_file)
            strbuf_addf(&s, "uncovered targets: %" PRIu64 "\n", uncovered);
        else if (last->saturated)
            strbuf_addf(&s, "uncovered %u-paths: more than 2^64 - %" PRIu64 "\n", k,
                        last->covered);
        else
            strbuf_addf(&s, "uncovered %u-paths: %" PRIu64 "\n", k, uncovered);
        for (size_t u = 0; u < gen->nunreachable; u++) {
            strbuf_addstr(&s, "  ");
            add_path_names(&s, gen->graph, gen->unreachable[u].path, k);
            if (gen->unreachable[u].empty_repetition) {
                strbuf_addstr(&s, " found only in a repetition that produces no text, "
                                  "which no parse counts (kpath check warns about it)\n");
            } else if (gen->unreachable[u].needed_depth == UINT32_MAX) {
                strbuf_addch(&s, ' ');
                graph_why_in_no_input(gen->graph, gen->unreachable[u].path[k - 1], &s);
                strbuf_addch(&s, '\n');
            } else if (gen->unreachable[u].needed_size)
                strbuf_addf(&s, " needs %" PRIu64 " tree nodes (--max-size %u)\n",
                            gen->unreachable[u].needed_size, o->max_size);
            else
                strbuf_addf(&s, " needs depth %u (limit %u)\n",
                            gen->unreachable[u].needed_depth, o->max_depth);
        }
        uint64_t explained = (uint64_t)gen->nunreachable;
        if (o->strategy == GEN_KPATH) {
            if (r->agenda_left && r->output_failed)
                strbuf_addf(&s, "  %" PRIu64 "%s left on the agenda: writing the inputs "
                                "failed and stopped generation early\n",
                            r->agenda_left, gen->nunreachable ? " more" : "");
            else if (r->agenda_left)
                strbuf_addf(&s, "  %" PRIu64 "%s left on the agenda: -n %u stopped "
                                "generation early\n",
                            r->agenda_left, gen->nunreachable ? " more" : "", o->count);
            explained += r->agenda_left;
            /* The trees and the generator's agenda must agree; say so when
             * they do not, rather than hide it. */
            if ((!last->saturated || r->gc->target_file) && explained != uncovered)
                strbuf_addf(&s, "  note: the inputs leave %" PRIu64 " uncovered, but the "
                                "generator accounts for %" PRIu64 "\n",
                            uncovered, explained);
        } else if (!last->saturated && uncovered > explained) {
            strbuf_addf(&s, "  %" PRIu64 " %s: the %s strategy does not aim at k-paths "
                            "(kpath cover -k %u does)\n",
                        uncovered - explained, gen->nunreachable ? "more" : "of them",
                        gen_strategy_name(o->strategy), k);
        }
    }
    fputs(strbuf_str(&s), stderr);
    strbuf_free(&s);
}

/* ---- output ---------------------------------------------------------------- */

static void print_diags(const struct cli_command *cmd, struct diag_list *diags)
{
    cli_print_diags(cmd, diags);
    diag_list_free(diags);
}

/* Write inputs `from` .. the last to stdout, each ended by a newline or NUL. */
static bool write_stdout(const struct generator *gen, size_t from, bool nul)
{
    char sep = nul ? '\0' : '\n';
    for (size_t i = from; i < gen->ninputs; i++)
        if (!cli_write(gen->inputs[i].text, gen->inputs[i].len) || !cli_write(&sep, 1))
            return false;
    return true;
}

/* Write the suite into the open directory.  Returns EXIT_OK or
 * EXIT_FAILURE_OTHER (after saying what happened). */
static int write_suite(struct run *r, struct outdir *od, struct diag_list *diags)
{
    const struct generator *gen = r->gen;
    bool ok = true;
    for (size_t i = 0; ok && i < gen->ninputs; i++)
        ok = outdir_write(od, r->names[i], gen->inputs[i].text, gen->inputs[i].len, diags);
    char hex[SHA256_HEX_SIZE];
    if (ok && (ok = sha256_file(r->grammar_path, hex, diags)))
        r->grammar_sha256 = hex;
    /* Stale cases go only after a run that made everything it meant to, and
     * before the manifest: when it appears, the directory is the suite. */
    if (ok && !gen->error)
        ok = outdir_finish(od, r->gc->suffix, diags);
    if (ok) {
        struct strbuf manifest = STRBUF_INIT;
        build_manifest(r, false, &manifest);
        ok = outdir_write(od, OUTDIR_MANIFEST, manifest.data, manifest.len, diags);
        strbuf_free(&manifest);
    }
    r->grammar_sha256 = NULL; /* hex dies here */
    if (!ok)
        outdir_commit(od, diags); /* what was written is in place, and counted */
    print_diags(r->cmd, diags);
    if (!ok) {
        fprintf(stderr, "kpath %s: %zu file%s written to %s before the error; %s intact\n",
                r->cmd->name, od->written, od->written == 1 ? " was" : "s were", r->gc->outdir,
                od->written == 1 ? "it is" : "they are");
        return EXIT_FAILURE_OTHER;
    }
    return EXIT_OK;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The recurrent mode for --minutes: whole trees until the time is up (or -n
 * inputs, or a round that makes none).  The clock is read between trees, so
 * the last tree is always finished. */
/* Generate, tree by tree, until done or (minutes > 0) past the deadline.
 * With `stream`, each input goes to stdout as soon as its tree is finished
 * (only when no input can be dropped at the end: see drop_redundant); false
 * when writing failed (generation stops there). */
/* Progress on stderr while inputs are made, so a long run that writes its
 * inputs only at the end (cover's default) is not silent.  On a terminal one
 * line is rewritten in place and cleared at the end; otherwise (--progress)
 * a line at most every second and always the last, so a log reads well.
 * The stages that take long on big grammars (preparing the generator,
 * choosing the suite, measuring its coverage) say so as they begin.  Off a
 * terminal and without --progress a run says nothing, unless it is still
 * at work after PROGRESS_NOTE_SECONDS of CPU time (not of the wall clock,
 * which a loaded machine stretches: the test suites' short runs stay
 * quiet): then a note names the stage it is in and the lines of
 * --progress follow. */
#define PROGRESS_NOTE_SECONDS 10.0

struct progress {
    const char *cmd;
    bool on, tty;
    double last;      /* when the last line was written */
    double start;     /* when the run began */
    bool noted;       /* the note of a long run was written */
    char stage[160];  /* what the run is doing, for that note */
};

/* Off: after PROGRESS_NOTE_SECONDS, the note, and progress on from then. */
static void progress_wake(struct progress *p)
{
    struct timespec cpu;
    if (p->on || p->noted || p->tty || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0 ||
        (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9 < PROGRESS_NOTE_SECONDS)
        return; /* on a terminal, progress is on or the streamed inputs show it */
    p->noted = p->on = true;
    fprintf(stderr, "%s: still at work after %.0f s, %s (progress follows; --progress shows it "
                    "from the start)\n",
            p->cmd, seconds_now() - p->start, p->stage);
}

/* A stage begins: kept for the note, and said when progress is on. */
static void progress_stage(struct progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void progress_stage(struct progress *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->stage, sizeof p->stage, fmt, ap);
    va_end(ap);
    progress_wake(p);
    if (p->on)
        fprintf(stderr, "%s%s: %s%s", p->tty ? "\r" : "", p->cmd, p->stage,
                p->tty ? "\033[K" : "\n");
}

static void progress_say(struct progress *p, const struct generator *gen, bool last)
{
    progress_wake(p);
    if (!p->on)
        return;
    double now = seconds_now();
    if (!last && now - p->last < 1.0)
        return;
    p->last = now;
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s: %zu input%s made", p->cmd, gen->ninputs, plural_s(gen->ninputs));
    if (gen->opts.strategy == GEN_KPATH && !gen->opts.recurrent) {
        strbuf_addstr(&sb, ", ");
        number_add_count(&sb, gen_agenda_left(gen));
        strbuf_addf(&sb, " %u-paths left to cover", gen->opts.k);
    }
    if (p->tty)
        fprintf(stderr, "\r%s\033[K", strbuf_str(&sb));
    else
        fprintf(stderr, "%s\n", strbuf_str(&sb));
    strbuf_free(&sb);
}

/* Clear a terminal's progress line before the summary. */
static void progress_end(struct progress *p)
{
    if (p->on && p->tty)
        fputs("\r\033[K", stderr);
}

static bool produce(struct generator *gen, double minutes, bool stream, bool nul,
                    struct progress *p)
{
    double deadline = seconds_now() + minutes * 60.0;
    size_t written = 0;
    for (;;) {
        bool more = gen_finish_tree(gen);
        if (stream) {
            if (!write_stdout(gen, written, nul) || fflush(stdout) != 0)
                return false;
            written = gen->ninputs;
        }
        if (!more || (minutes > 0 && seconds_now() >= deadline)) {
            progress_say(p, gen, true);
            return true;
        }
        progress_say(p, gen, false);
    }
}

/* How many distinct targets the inputs' trees hold (recomputed from the
 * trees, like the coverage rows). */
static uint64_t count_targets_covered(const struct generator *gen, const struct target_list *t,
                                      uint64_t *distinct)
{
    struct kpath_set in_inputs, seen;
    kpath_set_init(&in_inputs, &gen->space);
    kpath_set_init(&seen, &gen->space);
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct derivation tree;
        gen_input_tree(gen, i, &tree);
        pin_add_kpaths(gen->opts.pins, &tree, &in_inputs);
        derivation_free(&tree);
    }
    uint64_t covered = 0;
    *distinct = 0;
    for (size_t i = 0; i < t->len; i++) {
        const uint32_t *path = t->paths + i * t->k;
        if (!kpath_set_add(&seen, path))
            continue;
        ++*distinct;
        covered += kpath_set_contains(&in_inputs, path);
    }
    kpath_set_free(&seen);
    kpath_set_free(&in_inputs);
    return covered;
}

static void init_gen(void *args)
{
    gen_options_default(&((struct gen_cli *)args)->opts);
    ((struct gen_cli *)args)->opts.pack_size = GEN_DEFAULT_PACK_SIZE;
}

static void init_cover(void *args)
{
    init_gen(args);
    ((struct gen_cli *)args)->opts.strategy = GEN_KPATH;
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    return check_options(cmd, args, ctx->common.json);
}

static int generate(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct cli_common c = ctx->common;
    const struct grammar *g = ctx->grammar;
    const struct graph *graph = ctx->graph;
    struct gen_cli gc = *(struct gen_cli *)args;
    int status = EXIT_OK;

    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od = {0}; /* opened once the generator is made, below */

    /* The probability table: the grammar's weights or --probs FILE, and
     * --invert on top. */
    double *probs = xmalloc(probability_table_size(graph) * sizeof *probs);
    probabilities_from_grammar(graph, probs);
    if (gc.probs && !probabilities_read_file(graph, gc.probs, probs, &diags)) {
        print_diags(cmd, &diags);
        diag_list_free(&diags);
        free(probs);
        outdir_close(&od);
        return EXIT_USAGE;
    }
    if (gc.invert)
        probabilities_invert(graph, probs, probs);
    gc.opts.probabilities = probs;
    struct pin_set pins = PIN_SET_INIT;
    if (!cli_add_pins(cmd, graph, &c, &pins)) {
        pin_set_free(&pins);
        free(probs);
        outdir_close(&od);
        return EXIT_USAGE;
    }
    gc.opts.pins = &pins;

    /* The targets fix k when -k does not. */
    struct target_list targets = TARGET_LIST_INIT;
    if (gc.target_file) {
        if (!target_list_read(graph, gc.target_file, gc.k_set ? gc.opts.k : 0, &targets,
                              &diags)) {
            print_diags(cmd, &diags);
            pin_set_free(&pins);
            free(probs);
            outdir_close(&od);
            return EXIT_USAGE;
        }
        gc.opts.k = targets.k;
        gc.opts.targets = targets.paths;
        gc.opts.ntargets = targets.len;
    }

    char *error = NULL;
    struct diag_list size_diags = DIAG_LIST_INIT;
    struct generator *gen = NULL;
    bool stream_possible = !c.json && !gc.outdir;
    struct progress progress = {.cmd = cmd->name, .tty = isatty(STDERR_FILENO),
                                .start = seconds_now()};
    progress.last = progress.start;
    /* Streamed inputs on a terminal are progress enough (and would be
     * broken by a line rewritten under them): on a terminal, the stages
     * are said only when nothing can be streamed (set again below). */
    progress.on = gc.progress || (progress.tty && !stream_possible);
    if (gen_size_diag(graph, gc.opts.max_size, DIAG_ERROR, &size_diags)) {
        cli_print_grammar_diags(&size_diags); /* FILE:LINE:COL of the rule to blame */
    } else {
        progress_stage(&progress, "preparing the generator (a graph of %u nodes, k=%u)",
                       graph->nnodes, gc.opts.k);
        gen = gen_new(graph, &gc.opts, &error);
        progress_end(&progress);
    }
    if (!gen) {
        if (!size_diags.len)
            fprintf(stderr, "kpath %s: error: %s\n", cmd->name, error ? error : "cannot generate");
        free(error);
        free(probs);
        target_list_free(&targets);
        pin_set_free(&pins);
        outdir_close(&od);
        diag_list_free(&size_diags);
        return EXIT_USAGE;
    }
    /* Check the directory before generating (refusing after a long run
     * would waste it), but after every refusal above: outdir_open creates
     * DIR, and a refused run leaves nothing new behind. */
    if (gc.outdir) {
        enum outdir_status os = outdir_open(&od, gc.outdir, gc.force, &diags);
        if (os != OUTDIR_OK) {
            print_diags(cmd, &diags);
            outdir_close(&od);
            gen_free(gen);
            free(probs);
            target_list_free(&targets);
            pin_set_free(&pins);
            return os == OUTDIR_REFUSED ? EXIT_USAGE : EXIT_FAILURE_OTHER;
        }
    }
    bool stream = stream_possible && gen_keeps_inputs(gen);
    progress.on = progress.on || gc.progress || (progress.tty && !stream);
    snprintf(progress.stage, sizeof progress.stage, "making inputs");
    bool produced = produce(gen, gc.minutes, stream, gc.nul, &progress);
    progress_end(&progress);
    if (!produced)
        status = EXIT_FAILURE_OTHER;

    struct run r = {
        .cmd = cmd, .gc = &gc, .grammar_path = c.grammar,
        .start_rule = g->rules[grammar_user_start(g)].name, .gen = gen,
        /* What stopped generation, unless -n did anyway. */
        .output_failed = !produced && !(gen->opts.count && gen->ninputs >= gen->opts.count),
    };
    /* Greedy's suite, as a set cover: fewest inputs, then bytes (it applies
     * only where inputs are dropped at the end, so nothing was streamed). */
    if (gen->opts.drop_redundant && gen->ninputs > 1)
        progress_stage(&progress, "choosing the suite among %zu inputs", gen->ninputs);
    suite_min_run(gen, &r.minimized);
    progress_stage(&progress, "measuring the coverage of %zu input%s", gen->ninputs,
                   plural_s(gen->ninputs));
    for (size_t i = 0; i < gen->ninputs; i++)
        r.total_bytes += gen->inputs[i].len;
    /* After the first round every reachable target was covered; what is
     * left of a later round's agenda is covered already. */
    r.agenda_left = gen->opts.strategy == GEN_KPATH && gen->round == 1 ? gen_agenda_left(gen) : 0;
    if (gc.target_file)
        r.targets_covered = count_targets_covered(gen, &targets, &r.targets_distinct);
    struct expansion_set used;
    expansion_set_init(&used, graph);
    struct coverage_row *rows = measure_coverage(gen, gen->opts.k, &used);
    r.rows = rows;
    r.expansions_used = used.count;
    r.expansions_total = expansion_total(graph);
    expansion_set_free(&used);
    progress_end(&progress);

    if (gc.outdir) {
        r.names = xcalloc(gen->ninputs + 1, sizeof *r.names);
        for (size_t i = 0; i < gen->ninputs; i++) {
            struct strbuf name = STRBUF_INIT;
            outdir_case_name(&name, i + 1, gen->ninputs, gc.suffix);
            r.names[i] = strbuf_detach(&name, NULL);
        }
    }

    if (c.json) {
        struct strbuf doc = STRBUF_INIT;
        char hex[SHA256_HEX_SIZE];
        struct diag_list hash_diags = DIAG_LIST_INIT;
        if (sha256_file(c.grammar, hex, &hash_diags))
            r.grammar_sha256 = hex;
        diag_list_free(&hash_diags);
        build_manifest(&r, true, &doc);
        r.grammar_sha256 = NULL;
        if (!cli_write(doc.data, doc.len))
            status = EXIT_FAILURE_OTHER;
        strbuf_free(&doc);
    } else if (!gc.outdir && !stream) {
        if (!write_stdout(gen, 0, gc.nul))
            status = EXIT_FAILURE_OTHER;
    }
    /* Inputs first, then what happened to them. */
    fflush(stdout);
    print_summary(&r);
    if (gc.outdir && status == EXIT_OK)
        status = write_suite(&r, &od, &diags);
    if (gc.outdir && status == EXIT_OK)
        fprintf(stderr, "wrote %zu input file%s and manifest.json to %s\n", gen->ninputs,
                gen->ninputs == 1 ? "" : "s", gc.outdir);
    if (gen->error) {
        fprintf(stderr, "kpath %s: error: %s\n", cmd->name, gen->error);
        if (gc.outdir && status == EXIT_OK)
            fprintf(stderr, "kpath %s: the %zu input%s made before the error %s in %s, "
                            "with manifest.json\n",
                    cmd->name, gen->ninputs, gen->ninputs == 1 ? "" : "s",
                    gen->ninputs == 1 ? "is" : "are", gc.outdir);
        status = EXIT_FAILURE_OTHER;
    }

    if (r.names)
        for (size_t i = 0; i < gen->ninputs; i++)
            free(r.names[i]);
    free(r.names);
    free(rows);
    diag_list_free(&diags);
    outdir_close(&od);
    gen_free(gen);
    free(probs);
    target_list_free(&targets);
    pin_set_free(&pins);
    return status;
}
