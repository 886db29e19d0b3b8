/* Benchmark of input reduction (issue 33, item 2): kpath shrink's search
 * (src/suite/input_shrink) against two baselines on the failing inputs of
 * real programs:
 *  - ddmin: the same module on characters only (kpath shrink --chars);
 *  - HDD*: a picireny-style hierarchical delta debugging written here: per
 *    level of rule nodes (reference instances with as many references
 *    above them), ddmin by complements over the nodes, a node "removed" by
 *    putting its node's smallest text in its place, the text re-parsed
 *    after each level, levels top down, repeated until a round keeps
 *    nothing.
 * Every method asks through the same runner (src/run/runner.h) and the
 * same cache (an input already answered is not run again), so "runs" are
 * real executions.  The behaviour kept is the input's own outcome.
 *
 * Subjects: build/subjects/calc (make subjects); tinyexpr, built here from
 * the fetched repository (TINYEXPR_GIT, default
 * /work/.mirror/codeplea+tinyexpr/repo, a bare git directory) with a
 * driver written here (exit 3 for NaN, 4 for an infinite value, 2 for a
 * syntax error), skipped saying so when absent.  Failing inputs: the first
 * BENCH_SHRINK_INPUTS (default 12) failing ones among random inputs of
 * grammars/arith.ebnf (depth <= 9, seed 11) at least 12 bytes long.
 * Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

#include "base/sha256.h"
#include "base/strbuf.h"
#include "bench.h"
#include "gen/gen.h"
#include "grammar/grammar.h"
#include "graph/derivation.h"
#include "parse/parse.h"
#include "run/runner.h"
#include "suite/input_shrink.h"
#include "suite/tree_edit.h"

struct answer {
    uint8_t key[SHA256_DIGEST_SIZE];
    bool keeps;
    UT_hash_handle hh;
};

/* A program and the outcome to keep; runs counted, answers cached. */
struct tester {
    char *const *argv;
    struct runner *runner;
    const char *want;
    struct answer *cache;
    size_t runs;
};

static void outcome_of(struct runner *r, char *const *argv, const char *text, size_t len,
                       struct strbuf *out)
{
    struct runner_job job = {.argv = argv, .input_name = "input", .input = text,
                             .input_len = len};
    struct diag_list diags = DIAG_LIST_INIT;
    strbuf_reset(out);
    if (!runner_start(r, &job, &diags)) {
        diag_list_free(&diags);
        strbuf_addstr(out, "error:start");
        return;
    }
    struct runner_result *res = NULL;
    while (!(res = runner_poll(r, 1000)))
        ;
    runner_outcome(res, out);
    runner_result_free(res);
}

static bool keeps(struct tester *t, const char *text, size_t len)
{
    uint8_t key[SHA256_DIGEST_SIZE];
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, text, len);
    sha256_final(&h, key);
    struct answer *a = NULL;
    HASH_FIND(hh, t->cache, key, SHA256_DIGEST_SIZE, a);
    if (a)
        return a->keeps;
    struct strbuf out = STRBUF_INIT;
    outcome_of(t->runner, t->argv, text, len, &out);
    t->runs++;
    a = calloc(1, sizeof *a);
    memcpy(a->key, key, SHA256_DIGEST_SIZE);
    a->keeps = strcmp(strbuf_str(&out), t->want) == 0;
    HASH_ADD(hh, t->cache, key, SHA256_DIGEST_SIZE, a);
    strbuf_free(&out);
    return a->keeps;
}

static void tester_reset(struct tester *t)
{
    struct answer *a, *tmp;
    HASH_ITER(hh, t->cache, a, tmp) {
        HASH_DEL(t->cache, a);
        free(a);
    }
    t->runs = 0;
}

/* ---- kpath shrink and ddmin: input_shrink --------------------------------- */

static char *by_input_shrink(const struct graph *g, struct tester *t, const char *text,
                             size_t len, bool chars, size_t *out_len)
{
    keeps(t, text, len); /* the input's own run, as kpath shrink makes it */
    struct input_shrink *s = input_shrink_new(g, NULL, text, len, chars);
    const char *c;
    size_t n;
    while (input_shrink_next(s, &c, &n))
        input_shrink_answer(s, keeps(t, c, n));
    const char *r = input_shrink_result(s, out_len);
    char *copy = malloc(*out_len + 1);
    memcpy(copy, r, *out_len);
    copy[*out_len] = '\0';
    input_shrink_free(s);
    return copy;
}

/* ---- HDD*: the baseline ----------------------------------------------------- */

/* The smallest text of node n (alternatives by min_weight, fewest
 * repetitions), into out. */
static void smallest_text(const struct graph *g, uint32_t n, struct strbuf *out)
{
    struct derivation t;
    derivation_init(&t, g, n);
    for (size_t i = 0; i < t.len; i++) {
        const struct graph_node *node = &g->nodes[t.insts[i].node];
        uint32_t d = 0;
        if (node->kind == NODE_ALT) {
            uint64_t best = UINT64_MAX;
            for (uint32_t a = 0; a < node->nchildren; a++)
                if (g->nodes[graph_children(g, t.insts[i].node)[a]].min_weight < best)
                    best = g->nodes[graph_children(g, t.insts[i].node)[a]].min_weight, d = a;
        } else if (node->kind == NODE_QUANT) {
            d = node->expr->u.quant.min;
        } else if (node->kind == NODE_CLASS) {
            d = grammar_class_default_char(node->expr);
        }
        derivation_expand(&t, (uint32_t)i, d);
    }
    strbuf_reset(out);
    derivation_text(&t, out);
    derivation_free(&t);
}

struct unit {
    size_t from, to;   /* the span in the level's text */
    uint32_t node;
};

/* The level's text with the units marked in `gone` replaced by their smallest
 * texts. */
static void splice(const char *text, size_t len, const struct unit *u, size_t nu,
                   const bool *gone, struct strbuf *const *small, struct strbuf *out)
{
    strbuf_reset(out);
    size_t at = 0;
    for (size_t i = 0; i < nu; i++) {
        if (!gone[i])
            continue;
        strbuf_add(out, text + at, u[i].from - at);
        strbuf_add(out, strbuf_str(small[u[i].node]), small[u[i].node]->len);
        at = u[i].to;
    }
    strbuf_add(out, text + at, len - at);
}

static char *by_hdd(const struct graph *g, struct tester *t, const char *text, size_t len,
                    size_t *out_len)
{
    keeps(t, text, len);
    struct strbuf cur = STRBUF_INIT, cand = STRBUF_INIT;
    strbuf_add(&cur, text, len);
    struct strbuf **small = calloc(g->nnodes, sizeof *small);
    struct tree_editor ed;
    tree_editor_init(&ed, g, NULL, UINT32_MAX);
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t level = 0;; level++) {
            struct diag_list diags = DIAG_LIST_INIT;
            struct forest *f = parse_text(g, "in", strbuf_str(&cur), cur.len, &po, &diags);
            diag_list_free(&diags);
            struct derivation tree;
            if (!f || !forest_first_tree(f, &tree)) {
                forest_free(f);
                goto out;
            }
            forest_free(f);
            tree_edit_measure(&ed, &tree);
            struct unit *u = malloc((tree.len + 1) * sizeof *u);
            size_t nu = 0;
            bool any_at_level = false;
            for (size_t p = 0; p < tree.len; p++) {
                uint32_t e = ed.preorder[p];
                uint32_t n = tree.insts[e].node;
                if (g->nodes[n].kind != NODE_REF || ed.refs_above[e] != level)
                    continue;
                any_at_level = true;
                if (!small[n]) {
                    small[n] = calloc(1, sizeof **small);
                    smallest_text(g, n, small[n]);
                }
                uint64_t chars = ed.weight[e] >> 32;
                if (chars > small[n]->len)
                    u[nu++] = (struct unit){ed.offset[e], ed.offset[e] + chars, n};
            }
            derivation_free(&tree);
            if (!any_at_level) {
                free(u);
                break;
            }
            /* ddmin by complements over the units: gone[] is what was replaced. */
            bool *gone = calloc(nu + 1, sizeof *gone), *trial = calloc(nu + 1, sizeof *trial);
            size_t *left = malloc((nu + 1) * sizeof *left), nleft = nu, chunks = 2, i = 0;
            for (size_t k = 0; k < nu; k++)
                left[k] = k;
            while (nleft) {
                if (chunks > nleft)
                    chunks = nleft;
                if (i >= chunks) {
                    if (chunks >= nleft)
                        break;
                    chunks = chunks * 2 > nleft ? nleft : chunks * 2;
                    i = 0;
                }
                size_t from = i * nleft / chunks, to = (i + 1) * nleft / chunks;
                memcpy(trial, gone, nu * sizeof *trial);
                for (size_t k = from; k < to; k++)
                    trial[left[k]] = true;
                splice(strbuf_str(&cur), cur.len, u, nu, trial, small, &cand);
                if (cand.len < cur.len && keeps(t, strbuf_str(&cand), cand.len)) {
                    memcpy(gone, trial, nu * sizeof *gone);
                    memmove(left + from, left + to, (nleft - to) * sizeof *left);
                    nleft -= to - from;
                    chunks = chunks > 2 ? chunks - 1 : 2;
                    i = 0;
                } else {
                    i++;
                }
            }
            bool kept = false;
            for (size_t k = 0; k < nu; k++)
                kept = kept || gone[k];
            if (kept) {
                splice(strbuf_str(&cur), cur.len, u, nu, gone, small, &cand);
                strbuf_reset(&cur);
                strbuf_add(&cur, strbuf_str(&cand), cand.len);
                changed = true;
            }
            free(gone);
            free(trial);
            free(left);
            free(u);
        }
    }
out:
    for (uint32_t n = 0; n < g->nnodes; n++)
        if (small[n]) {
            strbuf_free(small[n]);
            free(small[n]);
        }
    free(small);
    tree_editor_free(&ed);
    strbuf_free(&cand);
    return strbuf_detach(&cur, out_len);
}

/* ---- the subjects ------------------------------------------------------------ */

static const char *const tinyexpr_driver =
    "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n#include \"tinyexpr.h\"\n"
    "int main(void) {\n"
    "    static char buf[1 << 16];\n"
    "    size_t n = fread(buf, 1, sizeof buf - 1, stdin);\n"
    "    buf[n] = 0;\n"
    "    int err = 0;\n"
    "    double v = te_interp(buf, &err);\n"
    "    if (err) return 2;\n"
    "    if (isnan(v)) return 3;\n"
    "    if (isinf(v)) return 4;\n"
    "    printf(\"%g\\n\", v);\n"
    "    return 0;\n"
    "}\n";

/* Build tinyexpr into dir/te; false (saying why in *why) when it cannot. */
static bool build_tinyexpr(const char *dir, char *why, size_t whylen)
{
    const char *git = getenv("TINYEXPR_GIT");
    if (!git || !*git)
        git = "/work/.mirror/codeplea+tinyexpr/repo";
    struct stat st;
    if (stat(git, &st) != 0) {
        snprintf(why, whylen, "no tinyexpr repository at %s (TINYEXPR_GIT)", git);
        return false;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "git --git-dir='%s' show HEAD:tinyexpr.c >'%s/tinyexpr.c' 2>/dev/null && "
             "git --git-dir='%s' show HEAD:tinyexpr.h >'%s/tinyexpr.h' 2>/dev/null",
             git, dir, git, dir);
    if (system(cmd) != 0) {
        snprintf(why, whylen, "cannot read tinyexpr.c from %s", git);
        return false;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/driver.c", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(tinyexpr_driver, f) < 0) {
        if (f)
            fclose(f);
        snprintf(why, whylen, "cannot write driver.c in %.200s", dir);
        return false;
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -O1 -o '%s/te' '%s/driver.c' '%s/tinyexpr.c' -lm 2>/dev/null",
             dir, dir, dir);
    if (system(cmd) != 0) {
        snprintf(why, whylen, "cc failed on tinyexpr");
        return false;
    }
    return true;
}

/* The smallest failing input by hand, per outcome (0: not worked out). */
typedef size_t (*minimum_fn)(const char *outcome);

static size_t calc_minimum(const char *outcome)
{
    if (strcmp(outcome, "signal:SIGSEGV") == 0)
        return 4; /* -(0) */
    if (strcmp(outcome, "exit:3") == 0)
        return 3; /* 0/0 */
    if (strcmp(outcome, "exit:4") == 0)
        return 19; /* a 19-digit number above 2^63 - 1 */
    return 0;
}

static size_t tinyexpr_minimum(const char *outcome)
{
    if (strcmp(outcome, "exit:3") == 0 || strcmp(outcome, "exit:4") == 0)
        return 3; /* 0/0 (NaN), 1/0 (inf) */
    return 0;
}

static void bench_subject(const char *name, char *const *argv, const struct graph *g,
                          minimum_fn minimum)
{
    const char *env = getenv("BENCH_SHRINK_INPUTS");
    size_t want = env && atoi(env) > 0 ? (size_t)atoi(env) : 12;
    struct runner_options ro;
    runner_default_options(&ro);
    ro.jobs = 1;
    struct runner *r = runner_new(&ro);
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_RANDOM;
    o.count = 600;
    o.max_depth = 9;
    o.seed = 11;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    if (!gen) {
        printf("  %s: skipped (%s)\n", name, error);
        free(error);
        runner_free(r);
        return;
    }
    gen_run(gen);
    struct strbuf out = STRBUF_INIT;
    const char *methods[] = {"kpath shrink", "HDD*", "ddmin"};
    size_t runs[3] = {0}, bytes[3] = {0}, at_min[3] = {0}, with_min = 0, total_in = 0, found = 0;
    double secs[3] = {0};
    for (size_t i = 0; i < gen->ninputs && found < want; i++) {
        const struct gen_input *in = &gen->inputs[i];
        if (in->len < 12)
            continue;
        outcome_of(r, argv, in->text, in->len, &out);
        if (strcmp(strbuf_str(&out), "exit:0") == 0 || strcmp(strbuf_str(&out), "exit:2") == 0)
            continue;
        found++;
        total_in += in->len;
        size_t min = minimum(strbuf_str(&out));
        with_min += min > 0;
        for (int m = 0; m < 3; m++) {
            struct tester t = {.argv = argv, .runner = r, .want = strbuf_str(&out)};
            size_t len = 0;
            double t0 = bench_now();
            char *res = m == 1 ? by_hdd(g, &t, in->text, in->len, &len)
                               : by_input_shrink(g, &t, in->text, in->len, m == 2, &len);
            secs[m] += bench_now() - t0;
            runs[m] += t.runs;
            bytes[m] += len;
            at_min[m] += min && len == min;
            free(res);
            tester_reset(&t);
        }
    }
    printf("  %s: %zu failing inputs, %zu bytes in all (%zu with a smallest worked out by hand)\n",
           name, found, total_in, with_min);
    printf("    %-14s %8s %12s %14s %10s\n", "method", "runs", "result bytes", "at the minimum",
           "seconds");
    for (int m = 0; m < 3; m++)
        printf("    %-14s %8zu %12zu %14zu %10.1f\n", methods[m], runs[m], bytes[m], at_min[m],
               secs[m]);
    strbuf_free(&out);
    gen_free(gen);
    runner_free(r);
}

void bench_shrink(const char *root)
{
    printf("\n== shrink: failing inputs reduced (kpath shrink vs HDD* vs ddmin; same runner, "
           "cache)\n");
    char path[4096];
    size_t tlen;
    char *text = bench_read(root, "grammars/arith.ebnf", &tlen);
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *gr = text ? grammar_load_string("arith.ebnf", text, tlen, NULL, &d) : NULL;
    diag_list_free(&d);
    free(text);
    if (!gr) {
        printf("  skipped: cannot load grammars/arith.ebnf\n");
        return;
    }
    struct graph *graph = graph_build(gr);
    snprintf(path, sizeof path, "%s/build/subjects/calc", root);
    if (access(path, X_OK) == 0) {
        char *argv[] = {path, NULL};
        bench_subject("calc", argv, graph, calc_minimum);
    } else {
        printf("  calc: skipped (no %s: make subjects)\n", path);
    }
    char dir[] = "/tmp/kpath-bench-shrink.XXXXXX", why[8192];
    if (!mkdtemp(dir)) {
        printf("  tinyexpr: skipped (no temporary directory)\n");
    } else {
        if (build_tinyexpr(dir, why, sizeof why)) {
            snprintf(path, sizeof path, "%s/te", dir);
            char *argv[] = {path, NULL};
            bench_subject("tinyexpr", argv, graph, tinyexpr_minimum);
        } else {
            printf("  tinyexpr: skipped (%s)\n", why);
        }
        runner_remove_tree(dir);
    }
    graph_free(graph);
    grammar_free(gr);
}
