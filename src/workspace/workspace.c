/* workspace: see workspace.h.  Coverage is derived data: covered_ranks and
 * node_covered are rebuilt lazily from the covered set after inputs change
 * (once per change, not per input), so a long run adding thousands of inputs
 * stays linear. */
#include "workspace/workspace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/dup.h"
#include "graph/expansion.h"
#include "graph/written.h"
#include "formats/grammar_load.h"
#include "base/json.h"
#include "parse/parse.h"
#include "base/samples.h"
#include "base/xalloc.h"

const char *ws_prob_source_name(enum ws_prob_source s)
{
    static const char *const names[] = {"uniform", "annotated", "learned",
                                        "unseen", "inverted", "edited"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *ws_filter_name(enum ws_filter f)
{
    return f == WS_UNCOVERED ? "uncovered" : f == WS_COVERED ? "covered" : "all";
}


/* ---- coverage ------------------------------------------------------------- */

struct rank_vec {
    uint64_t *v;
    size_t len, cap;
};

static void rank_push(struct rank_vec *rv, uint64_t r)
{
    rv->v = xgrow(rv->v, &rv->cap, rv->len + 1, sizeof *rv->v);
    rv->v[rv->len++] = r;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void sort_unique(struct rank_vec *rv)
{
    if (rv->len > 1)
        qsort(rv->v, rv->len, sizeof *rv->v, compare_u64);
    size_t out = 0;
    for (size_t i = 0; i < rv->len; i++)
        if (!out || rv->v[out - 1] != rv->v[i])
            rv->v[out++] = rv->v[i];
    rv->len = out;
}

struct collect {
    const struct kpath_space *sp;
    struct rank_vec *rv;
    struct kpath_set *set; /* saturated spaces: add here instead */
};

static void collect_tree_path(const uint32_t *path, void *ctx)
{
    struct collect *c = ctx;
    uint64_t r;
    if (c->set)
        kpath_set_add(c->set, path);
    else if (kpath_rank(c->sp, path, &r))
        rank_push(c->rv, r);
}

static bool collect_set_path(const uint32_t *path, void *ctx)
{
    collect_tree_path(path, ctx);
    return true;
}

/* The k-paths of one input, as sorted ranks (in->ranks), or, in a saturated
 * space, added to `into` directly. */
static void input_compute_paths(struct workspace *ws, struct ws_input *in, struct kpath_set *into)
{
    free(in->ranks);
    in->ranks = NULL;
    in->nranks = 0;
    struct rank_vec rv = {0};
    struct collect c = {&ws->space, &rv, ws->space.saturated ? into : NULL};
    /* With pins, coverage in context: in every tree of a sample's forest. */
    const struct pin_set *pins = ws->pins.len ? &ws->pins : NULL;
    if (in->forest) {
        struct kpath_set tmp;
        struct kpath_set *sets = &tmp;
        kpath_set_init(&tmp, &ws->space);
        forest_add_kpaths_pinned(in->forest, &sets, 1, pins);
        kpath_set_foreach(&tmp, collect_set_path, &c);
        kpath_set_free(&tmp);
    } else if (in->has_tree) {
        pin_foreach_kpath(pins, &in->tree, ws->k, collect_tree_path, &c);
    }
    if (ws->space.saturated) {
        free(rv.v);
        return;
    }
    sort_unique(&rv);
    in->ranks = rv.v;
    in->nranks = rv.len;
}

/* Add one input's k-paths to the coverage; returns how many were new. */
static uint64_t cover_input(struct workspace *ws, struct ws_input *in)
{
    if (ws->space.saturated) {
        uint64_t before = ws->covered.size;
        input_compute_paths(ws, in, &ws->covered);
        return ws->covered.size - before;
    }
    input_compute_paths(ws, in, NULL);
    uint64_t added = 0;
    uint32_t *path = xmalloc(ws->k * sizeof *path);
    for (size_t i = 0; i < in->nranks; i++) {
        uint64_t r = in->ranks[i];
        if (ws->covered.bits) {
            uint64_t bit = UINT64_C(1) << (r % 64);
            if (!(ws->covered.bits[r / 64] & bit)) {
                ws->covered.bits[r / 64] |= bit;
                ws->covered.size++;
                added++;
            }
        } else {
            kpath_unrank(&ws->space, r, path);
            added += kpath_set_add(&ws->covered, path);
        }
    }
    free(path);
    return added;
}

static void invalidate_coverage(struct workspace *ws)
{
    free(ws->covered_pos);
    ws->covered_pos = NULL;
    free(ws->node_seen);
    ws->node_seen = NULL;
    ws->expansions_used = UINT64_MAX;
    free(ws->covered_ranks);
    ws->covered_ranks = NULL;
    free(ws->node_covered);
    ws->node_covered = NULL;
}

struct rank_fill {
    const struct kpath_space *sp;
    uint64_t *out;
    size_t n;
};

static bool fill_rank(const uint32_t *path, void *ctx)
{
    struct rank_fill *f = ctx;
    uint64_t r;
    if (kpath_rank(f->sp, path, &r))
        f->out[f->n++] = r;
    return true;
}

static bool count_first(const uint32_t *path, void *ctx)
{
    uint64_t *counts = ctx;
    counts[path[0]]++;
    return true;
}

static size_t lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- the k-paths under the pins ----------------------------------------------- */

static void build_under(struct workspace *ws)
{
    free(ws->under);
    ws->under = NULL;
    ws->nunder = 0;
    ws->total_under = 0;
    if (!ws->pins.len || ws->space.saturated)
        return;
    const struct graph *g = ws->graph;
    ws->under = xmalloc(((size_t)g->nsymbolic + 1) * sizeof *ws->under);
    for (uint32_t s = 0; s < g->nsymbolic; s++) {
        uint32_t id = g->symbolic[s];
        uint64_t len = kpath_count_from(&ws->space, id, ws->k);
        if (!ws->pins.below[id] || !len)
            continue;
        ws->under[ws->nunder++] = (struct ws_interval){ws->space.start_prefix[s], len, ws->total_under};
        ws->total_under += len;
    }
}

static bool pinned(const struct workspace *ws)
{
    return ws->pins.len && !ws->space.saturated;
}

/* The first interval of k-paths under the pins that ends after rank r
 * (nunder when none does). */
static size_t interval_after(const struct workspace *ws, uint64_t r)
{
    size_t lo = 0, hi = ws->nunder;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ws->under[mid].lo + ws->under[mid].len <= r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Position among the k-paths under the pins of the first one of rank >= r. */
static uint64_t under_pos_from(const struct workspace *ws, uint64_t r)
{
    size_t i = interval_after(ws, r);
    if (i == ws->nunder)
        return ws->total_under;
    const struct ws_interval *iv = &ws->under[i];
    return iv->before + (r > iv->lo ? r - iv->lo : 0);
}

static bool under_contains(const struct workspace *ws, uint64_t r)
{
    size_t i = interval_after(ws, r);
    return i < ws->nunder && r >= ws->under[i].lo;
}

static uint64_t under_rank(const struct workspace *ws, uint64_t p)
{
    size_t lo = 0, hi = ws->nunder;
    while (lo + 1 < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ws->under[mid].before <= p)
            lo = mid;
        else
            hi = mid;
    }
    return ws->under[lo].lo + (p - ws->under[lo].before);
}

bool workspace_rank_under_pins(const struct workspace *ws, uint64_t rank)
{
    return !pinned(ws) || under_contains(ws, rank);
}

static void ensure_coverage(const struct workspace *cws)
{
    struct workspace *ws = (struct workspace *)cws; /* derived data only */
    const struct graph *g = ws->graph;
    if (!ws->covered_ranks && !ws->space.saturated) {
        size_t n = (size_t)ws->covered.size;
        uint64_t *ranks = xmalloc((n + 1) * sizeof *ranks);
        size_t got = 0;
        if (ws->covered.bits) {
            size_t words = (size_t)(ws->space.total / 64 + 1);
            for (size_t w = 0; w < words; w++)
                for (uint64_t b = ws->covered.bits[w]; b; b &= b - 1)
                    ranks[got++] = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(b);
        } else {
            struct rank_fill f = {&ws->space, ranks, 0};
            kpath_set_foreach(&ws->covered, fill_rank, &f);
            got = f.n;
            qsort(ranks, got, sizeof *ranks, compare_u64);
        }
        ws->covered_ranks = ranks;
    }
    if (pinned(ws) && !ws->covered_pos) {
        size_t n = (size_t)ws->covered.size;
        ws->covered_pos = xmalloc((n + 1) * sizeof *ws->covered_pos);
        for (size_t i = 0; i < n; i++)
            ws->covered_pos[i] = under_pos_from(ws, ws->covered_ranks[i]);
    }
    if (!ws->node_covered) {
        ws->node_covered = xcalloc((size_t)g->nnodes + 1, sizeof *ws->node_covered);
        if (ws->space.saturated) {
            kpath_set_foreach(&ws->covered, count_first, ws->node_covered);
            return;
        }
        /* Ranks are ordered by their first node, so each start node owns one
         * interval [start_prefix, start_prefix + count) of them. */
        size_t lo = 0, n = (size_t)ws->covered.size;
        for (uint32_t s = 0; s < g->nsymbolic; s++) {
            uint64_t end = s + 1 < g->nsymbolic ? ws->space.start_prefix[s + 1] : ws->space.total;
            size_t hi = lo + lower_bound(ws->covered_ranks + lo, n - lo, end);
            ws->node_covered[g->symbolic[s]] = hi - lo;
            lo = hi;
        }
    }
}

static void recompute_coverage(struct workspace *ws)
{
    kpath_set_clear(&ws->covered);
    invalidate_coverage(ws);
    for (size_t i = 0; i < ws->ninputs; i++)
        ws->inputs[i].nnew = cover_input(ws, &ws->inputs[i]);
}

bool workspace_set_k(struct workspace *ws, uint32_t k, struct diag_list *diags)
{
    struct kpath_space sp;
    if (!kpath_space_init(&sp, ws->graph, k)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "k must be between 1 and %u", KPATH_MAX_K);
        return false;
    }
    workspace_gen_reset(ws, false);
    if (ws->space.graph) {
        kpath_set_free(&ws->covered);
        kpath_space_free(&ws->space);
    }
    ws->space = sp;
    ws->k = k;
    kpath_set_init(&ws->covered, &ws->space);
    build_under(ws);
    recompute_coverage(ws);
    return true;
}

bool workspace_listable(const struct workspace *ws)
{
    return !ws->space.saturated;
}

uint64_t workspace_count(const struct workspace *ws, enum ws_filter f)
{
    if (f == WS_COVERED)
        return ws->covered.size;
    if (ws->space.saturated)
        return UINT64_MAX;
    uint64_t all = pinned(ws) ? ws->total_under : ws->space.total;
    return f == WS_ALL ? all : all - ws->covered.size;
}

/* The i-th position not in the sorted positions c[0..n): i + the number of
 * c[m] with c[m] - m <= i. */
static uint64_t select_missing(const uint64_t *c, size_t n, uint64_t i)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid] - mid <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return i + lo;
}

uint64_t workspace_nth(const struct workspace *ws, enum ws_filter f, uint64_t i)
{
    bool pin = pinned(ws);
    if (f == WS_ALL)
        return pin ? under_rank(ws, i) : i;
    ensure_coverage(ws);
    size_t n = (size_t)ws->covered.size;
    if (f == WS_COVERED)
        return ws->covered_ranks[i];
    if (!pin)
        return select_missing(ws->covered_ranks, n, i);
    return under_rank(ws, select_missing(ws->covered_pos, n, i));
}

uint64_t workspace_position(const struct workspace *ws, enum ws_filter f, uint64_t rank)
{
    if (ws->space.saturated || rank >= ws->space.total)
        return UINT64_MAX;
    bool pin = pinned(ws);
    if (pin && !under_contains(ws, rank))
        return UINT64_MAX;
    uint64_t p = pin ? under_pos_from(ws, rank) : rank;
    if (f == WS_ALL)
        return p;
    ensure_coverage(ws);
    size_t n = (size_t)ws->covered.size;
    size_t below = lower_bound(ws->covered_ranks, n, rank);
    bool covered = below < n && ws->covered_ranks[below] == rank;
    if (f == WS_COVERED)
        return covered ? below : UINT64_MAX;
    return covered ? UINT64_MAX : p - below;
}

uint64_t workspace_position_from(const struct workspace *ws, enum ws_filter f, uint64_t rank)
{
    if (ws->space.saturated)
        return 0;
    if (rank > ws->space.total)
        rank = ws->space.total;
    uint64_t p = pinned(ws) ? under_pos_from(ws, rank) : rank;
    if (f == WS_ALL)
        return p;
    ensure_coverage(ws);
    size_t below = lower_bound(ws->covered_ranks, (size_t)ws->covered.size, rank);
    return f == WS_COVERED ? below : p - below;
}

bool workspace_rank_covered(const struct workspace *ws, uint64_t rank)
{
    if (ws->space.saturated || rank >= ws->space.total)
        return false;
    if (ws->covered.bits)
        return kpath_set_contains_rank(&ws->covered, rank);
    ensure_coverage(ws);
    size_t n = (size_t)ws->covered.size;
    size_t at = lower_bound(ws->covered_ranks, n, rank);
    return at < n && ws->covered_ranks[at] == rank;
}

static bool mark_seen(const uint32_t *path, void *ctx)
{
    bool *seen = ctx;
    seen[path[0]] = true;
    return true;
}

bool workspace_node_seen(const struct workspace *cws, uint32_t id)
{
    struct workspace *ws = (struct workspace *)cws; /* derived data only */
    const struct graph *g = ws->graph;
    if (!ws->node_seen) {
        ws->node_seen = xcalloc((size_t)g->nnodes + 1, sizeof *ws->node_seen);
        struct kpath_space sp1;
        kpath_space_init(&sp1, g, 1);
        for (size_t i = 0; i < ws->ninputs; i++) {
            const struct ws_input *in = &ws->inputs[i];
            if (in->forest) {
                struct kpath_set set;
                kpath_set_init(&set, &sp1);
                forest_add_kpaths(in->forest, &set);
                kpath_set_foreach(&set, mark_seen, ws->node_seen);
                kpath_set_free(&set);
            } else if (in->has_tree) {
                for (size_t t = 0; t < in->tree.len; t++)
                    ws->node_seen[in->tree.insts[t].node] = true;
            }
        }
        kpath_space_free(&sp1);
    }
    return id < g->nnodes && ws->node_seen[id];
}

uint64_t workspace_expansions_used(const struct workspace *cws)
{
    struct workspace *ws = (struct workspace *)cws; /* derived data only */
    if (ws->expansions_used == UINT64_MAX) {
        struct expansion_set used;
        expansion_set_init(&used, ws->graph);
        for (size_t i = 0; i < ws->ninputs; i++) {
            const struct ws_input *in = &ws->inputs[i];
            if (in->forest)
                forest_add_expansions(in->forest, &used);
            else if (in->has_tree)
                expansion_add_tree(&used, &in->tree);
        }
        ws->expansions_used = used.count;
        expansion_set_free(&used);
    }
    return ws->expansions_used;
}

uint64_t workspace_expansions_total(const struct workspace *ws)
{
    return expansion_total(ws->graph);
}

uint64_t workspace_node_total(const struct workspace *ws, uint32_t id)
{
    if (id >= ws->graph->nnodes || !node_kind_is_symbolic(ws->graph->nodes[id].kind))
        return 0;
    return kpath_count_from(&ws->space, id, ws->k);
}

size_t workspace_covered_by(const struct workspace *ws, uint64_t rank, size_t *out, size_t max)
{
    size_t found = 0;
    for (size_t i = 0; i < ws->ninputs; i++) {
        const struct ws_input *in = &ws->inputs[i];
        if (!in->ranks)
            continue;
        size_t at = lower_bound(in->ranks, in->nranks, rank);
        if (at < in->nranks && in->ranks[at] == rank) {
            if (found < max)
                out[found] = i;
            found++;
        }
    }
    return found;
}

/* Inputs changed: derived coverage is rebuilt when next asked for. */
static void coverage_changed(struct workspace *ws)
{
    invalidate_coverage(ws);
}

uint64_t workspace_node_covered(const struct workspace *ws, uint32_t id)
{
    ensure_coverage(ws);
    return id < ws->graph->nnodes ? ws->node_covered[id] : 0;
}

/* ---- construction ------------------------------------------------------- */

static void touch(struct workspace *ws)
{
    ws->dirty = true;
    ws->changes++;
}

static void init_probabilities(struct workspace *ws)
{
    free(ws->probs);
    free(ws->prob_source);
    const struct graph *g = ws->graph;
    ws->nprobs = probability_table_size(g);
    ws->probs = xcalloc(ws->nprobs, sizeof *ws->probs);
    ws->prob_source = xcalloc((size_t)g->nnodes + 1, 1);
    probabilities_from_grammar(g, ws->probs);
    for (uint32_t n = 0; n < g->nnodes; n++) {
        const struct graph_node *node = &g->nodes[n];
        if (node->kind == NODE_ALT && node->expr->u.alt.weights)
            ws->prob_source[n] = WS_PROB_ANNOTATED;
        else
            ws->prob_source[n] = WS_PROB_UNIFORM;
    }
}

static bool load_grammar(struct workspace *ws, struct diag_list *diags)
{
    struct grammar_options go = {.start = ws->start};
    ws->grammar = grammar_open(ws->grammar_path, ws->format, &go, diags);
    if (!ws->grammar)
        return false;
    ws->graph = graph_build(ws->grammar);
    struct diag_list ignore = DIAG_LIST_INIT;
    if (!sha256_file(ws->grammar_path, ws->grammar_sha256, &ignore))
        ws->grammar_sha256[0] = '\0';
    diag_list_free(&ignore);
    return true;
}

struct workspace *workspace_new(const char *grammar_path, const char *start,
                                struct diag_list *diags)
{
    return workspace_new_format(grammar_path, start, GRAMMAR_FORMAT_AUTO, diags);
}

struct workspace *workspace_new_format(const char *grammar_path, const char *start,
                                       enum grammar_format format, struct diag_list *diags)
{
    struct workspace *ws = xcalloc(1, sizeof *ws);
    ws->expansions_used = UINT64_MAX;
    ws->grammar_path = xstrdup(grammar_path);
    ws->start = start ? xstrdup(start) : NULL;
    ws->format = format;
    if (!load_grammar(ws, diags)) {
        workspace_free(ws);
        return NULL;
    }
    gen_options_default(&ws->gen_opts);
    ws->gen_opts.count = 0;
    /* r, the stepper and :compare make the suite kpath cover makes */
    ws->gen_opts.pack_size = GEN_DEFAULT_PACK_SIZE;
    ws->gen_opts.depth_setting = ":depth";
    init_probabilities(ws);
    learn_init(&ws->learned, ws->graph);
    workspace_set_k(ws, GEN_DEFAULT_K, diags);
    coverage_changed(ws);
    return ws;
}

static void input_free(struct ws_input *in)
{
    free(in->text);
    free(in->sample);
    if (in->forest)
        forest_free(in->forest);
    if (in->has_tree)
        derivation_free(&in->tree);
    free(in->target);
    free(in->origin);
    free(in->ranks);
    memset(in, 0, sizeof *in);
}

void workspace_free(struct workspace *ws)
{
    if (!ws)
        return;
    if (ws->gen)
        gen_free(ws->gen);
    for (size_t i = 0; i < ws->ninputs; i++)
        input_free(&ws->inputs[i]);
    free(ws->inputs);
    if (ws->space.graph) {
        kpath_set_free(&ws->covered);
        kpath_space_free(&ws->space);
    }
    free(ws->covered_ranks);
    free(ws->covered_pos);
    free(ws->node_covered);
    free(ws->node_seen);
    free(ws->probs);
    free(ws->prob_source);
    if (ws->learned.graph)
        learn_free(&ws->learned);
    for (size_t i = 0; i < ws->ndups; i++)
        free(ws->dups[i].rule);
    free(ws->dups);
    pin_set_free(&ws->pins);
    free(ws->under);
    free(ws->rule_alts);
    free(ws->rule_alts_start);
    free(ws->gen_error);
    free(ws->gen_origin);
    graph_free(ws->graph);
    grammar_free(ws->grammar);
    free(ws->grammar_path);
    free(ws->start);
    free(ws->results_path);
    free(ws->file);
    free(ws);
}

/* ---- inputs -------------------------------------------------------------- */

static struct ws_input *new_input(struct workspace *ws)
{
    ws->inputs = xgrow(ws->inputs, &ws->inputs_cap, ws->ninputs + 1, sizeof *ws->inputs);
    struct ws_input *in = &ws->inputs[ws->ninputs++];
    memset(in, 0, sizeof *in);
    return in;
}

static void input_added(struct workspace *ws, struct ws_input *in)
{
    in->nnew = cover_input(ws, in);
    coverage_changed(ws);
    if (in->sample)
        ws->learned_valid = false;
    touch(ws);
}

/* Parse text into a forest and its first tree (false with a diagnostic). */
static bool parse_into(struct workspace *ws, struct ws_input *in, const char *name,
                       struct diag_list *diags)
{
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .should_stop = ws->parse_should_stop,
                               .should_stop_ctx = ws->parse_should_stop_ctx};
    struct forest *f = parse_text(ws->graph, name, in->text, in->len, &po, diags);
    if (!f)
        return false;
    in->forest = f;
    bool infinite = false;
    in->ambiguous = forest_count_trees(f, &infinite) > 1 || infinite;
    in->has_tree = forest_first_tree(f, &in->tree);
    if (!in->has_tree)
        derivation_free(&in->tree);
    in->depth = in->has_tree ? derivation_depth(&in->tree) : 0;
    return true;
}

/* Parse text and add it: as a sample called `name` (its forest kept), or as
 * a generated input (its first tree kept). */
static bool add_parsed(struct workspace *ws, const char *name, const char *text, size_t len,
                       bool sample, struct diag_list *diags)
{
    struct ws_input tmp = {0};
    tmp.text = xmemdup(text, len + 1);
    tmp.text[len] = '\0';
    tmp.len = len;
    if (!parse_into(ws, &tmp, name, diags)) {
        free(tmp.text);
        return false;
    }
    if (sample) {
        tmp.sample = xstrdup(name);
    } else {
        if (tmp.forest)
            forest_free(tmp.forest);
        tmp.forest = NULL;
    }
    struct ws_input *in = new_input(ws);
    *in = tmp;
    input_added(ws, in);
    return true;
}

bool workspace_add_sample(struct workspace *ws, const char *name, const char *text, size_t len,
                          struct diag_list *diags)
{
    return add_parsed(ws, name, text, len, true, diags);
}

bool workspace_add_parsed(struct workspace *ws, const char *text, size_t len,
                          struct diag_list *diags)
{
    return add_parsed(ws, "input", text, len, false, diags);
}

bool workspace_add_sample_file(struct workspace *ws, const char *path, struct diag_list *diags)
{
    struct strbuf text = STRBUF_INIT;
    bool ok = samples_read(path, PARSE_DEFAULT_MAX_INPUT, &text, diags) &&
              workspace_add_sample(ws, samples_display_name(path), strbuf_str(&text), text.len,
                                   diags);
    strbuf_free(&text);
    return ok;
}

size_t workspace_add_samples(struct workspace *ws, char *const *paths, size_t n,
                             struct diag_list *diags)
{
    struct sample_list files = SAMPLE_LIST_INIT;
    samples_expand((const char *const *)paths, n, false, &files, diags);
    size_t added = 0;
    for (size_t i = 0; i < files.len; i++)
        added += workspace_add_sample_file(ws, files.paths[i], diags);
    sample_list_free(&files);
    return added;
}

struct find_path {
    const uint32_t *path;
    uint32_t k;
    bool found;
};

static void match_path(const uint32_t *path, void *ctx)
{
    struct find_path *fp = ctx;
    fp->found = fp->found || memcmp(path, fp->path, fp->k * sizeof *path) == 0;
}

/* Whether the tree contains the target is a property of the tree, whatever
 * pins are active. */
void ws_input_set_target(struct ws_input *in, const uint32_t *target, uint32_t k)
{
    free(in->target);
    in->target = xmemdup(target, k * sizeof *target);
    in->target_k = k;
    struct find_path fp = {target, k, false};
    if (in->has_tree)
        derivation_foreach_kpath(&in->tree, k, match_path, &fp);
    in->target_covered = fp.found;
}

void workspace_add_generated(struct workspace *ws, const struct derivation *tree,
                             const uint32_t *target, uint32_t session)
{
    struct ws_input *in = new_input(ws);
    derivation_copy(&in->tree, tree);
    in->has_tree = true;
    struct strbuf text = STRBUF_INIT;
    derivation_written_text(&in->tree, &text);
    if (!text.data)
        strbuf_addstr(&text, "");
    in->text = strbuf_detach(&text, &in->len);
    in->depth = derivation_depth(&in->tree);
    in->session = session;
    input_added(ws, in);
    if (target)
        ws_input_set_target(in, target, ws->k);
}

void workspace_remove_inputs(struct workspace *ws, const bool *keep)
{
    size_t out = 0;
    bool samples_changed = false;
    for (size_t i = 0; i < ws->ninputs; i++) {
        if (keep[i]) {
            ws->inputs[out++] = ws->inputs[i];
        } else {
            samples_changed |= ws->inputs[i].sample != NULL;
            input_free(&ws->inputs[i]);
        }
    }
    if (out == ws->ninputs)
        return;
    ws->ninputs = out;
    if (samples_changed)
        ws->learned_valid = false;
    recompute_coverage(ws);
    coverage_changed(ws);
    touch(ws);
}

size_t workspace_marked(const struct workspace *ws)
{
    size_t n = 0;
    for (size_t i = 0; i < ws->ninputs; i++)
        n += ws->inputs[i].marked;
    return n;
}

/* ---- generation ------------------------------------------------------------ */

/* The provenance of a generator's inputs, for the export manifest: the
 * strategy and its settings, and for the prob strategy where the
 * probabilities came from (each source that some alternation uses). */
static char *generator_origin(const struct workspace *ws, const struct gen_options *o)
{
    struct strbuf j = STRBUF_INIT;
    strbuf_addf(&j, "{\"made_by\": \"generator\", \"strategy\": \"%s\", \"seed\": %" PRIu64,
                gen_strategy_name(o->strategy), o->seed);
    if (o->strategy == GEN_KPATH)
        strbuf_addf(&j, ", \"close_off\": \"%s\"", gen_closeoff_name(o->closeoff));
    strbuf_addf(&j, ", \"k\": %u, \"max_depth\": %u", o->k, o->max_depth);
    if (o->strategy == GEN_PROB) {
        bool used[WS_PROB_EDITED + 1] = {false};
        const struct graph *g = ws->graph;
        for (uint32_t n = 0; n < g->nnodes; n++)
            if (g->nodes[n].kind == NODE_ALT || g->nodes[n].kind == NODE_QUANT)
                used[ws->prob_source[n]] = true;
        strbuf_addstr(&j, ", \"probabilities\": [");
        bool first = true;
        for (int src = 0; src <= WS_PROB_EDITED; src++)
            if (used[src]) {
                strbuf_addf(&j, "%s\"%s\"", first ? "" : ", ", ws_prob_source_name((enum ws_prob_source)src));
                first = false;
            }
        strbuf_addch(&j, ']');
    }
    strbuf_addch(&j, '}');
    return strbuf_detach(&j, NULL);
}

bool workspace_gen_start(struct workspace *ws, uint32_t count, struct diag_list *diags)
{
    workspace_gen_reset(ws, false);
    struct gen_options o = ws->gen_opts;
    o.k = ws->k;
    o.count = count ? count : o.strategy == GEN_KPATH ? 0 : GEN_DEFAULT_COUNT;
    o.probabilities = ws->probs;
    o.pins = ws->pins.len ? &ws->pins : NULL;
    char *error = NULL;
    ws->gen = gen_new(ws->graph, &o, &error);
    if (!ws->gen) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", error ? error : "cannot generate");
        free(error);
        return false;
    }
    ws->session++;
    ws->gen_taken = 0;
    free(ws->gen_origin);
    ws->gen_origin = generator_origin(ws, &o);
    free(ws->gen_error);
    ws->gen_error = NULL;
    /* The agenda skips what the inputs cover already. */
    if (o.strategy == GEN_KPATH) {
        if (!ws->space.saturated) {
            ensure_coverage(ws);
            uint32_t *path = xmalloc(ws->k * sizeof *path);
            for (uint64_t i = 0; i < ws->covered.size; i++) {
                kpath_unrank(&ws->space, ws->covered_ranks[i], path);
                gen_mark_covered(ws->gen, path);
            }
            free(path);
        }
    }
    return true;
}

bool workspace_gen_step(struct workspace *ws)
{
    if (!ws->gen) {
        struct diag_list d = DIAG_LIST_INIT;
        bool ok = workspace_gen_start(ws, 0, &d);
        if (!ok && d.len) {
            free(ws->gen_error);
            ws->gen_error = xstrdup(d.items[0].message);
        }
        diag_list_free(&d);
        if (!ok)
            return false;
    }
    struct generator *gen = ws->gen;
    bool more = gen_step(gen);
    while (ws->gen_taken < gen->ninputs) {
        const struct gen_input *gi = &gen->inputs[ws->gen_taken];
        struct derivation tree;
        gen_input_tree(gen, ws->gen_taken++, &tree);
        workspace_add_generated(ws, &tree, gi->target, ws->session);
        derivation_free(&tree);
        if (ws->gen_origin)
            ws->inputs[ws->ninputs - 1].origin = xstrdup(ws->gen_origin);
    }
    if (!more && gen->error && !ws->gen_error)
        ws->gen_error = xstrdup(gen->error);
    return more;
}

bool workspace_cover_path(struct workspace *ws, const uint32_t *path, struct diag_list *diags)
{
    if (!kpath_is_valid(ws->graph, path, ws->k)) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "not a %u-path of this grammar", ws->k);
        return false;
    }
    struct gen_options o = ws->gen_opts;
    o.strategy = GEN_KPATH;
    o.closeoff = GEN_CLOSE_SHORTEST;
    o.k = ws->k;
    o.count = 1;
    o.probabilities = ws->probs;
    o.only_path = path;
    /* inside the pins when it is under them, so it counts in context */
    o.pins = ws->pins.len && pin_set_covers_path(&ws->pins, path) ? &ws->pins : NULL;
    char *error = NULL;
    struct generator *gen = gen_new(ws->graph, &o, &error);
    if (!gen) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", error ? error : "cannot generate");
        free(error);
        return false;
    }
    gen_run(gen);
    bool ok = gen->ninputs == 1;
    if (ok) {
        struct derivation tree;
        gen_input_tree(gen, 0, &tree);
        workspace_add_generated(ws, &tree, gen->inputs[0].target, 0);
        derivation_free(&tree);
        struct strbuf j = STRBUF_INIT;
        strbuf_addstr(&j, "{\"made_by\": \"cover\", \"for\": ");
        struct strbuf name = STRBUF_INIT;
        workspace_path_name(ws, path, ws->k, " -> ", &name);
        json_add_cstring(&j, strbuf_str(&name));
        strbuf_free(&name);
        strbuf_addstr(&j, ", \"close_off\": \"shortest\"}");
        ws->inputs[ws->ninputs - 1].origin = strbuf_detach(&j, NULL);
    } else if (gen->nunreachable && gen->unreachable[0].needed_depth == UINT32_MAX) {
        struct strbuf why = STRBUF_INIT;
        graph_why_in_no_input(gen->graph, gen->unreachable[0].path[ws->k - 1], &why);
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", strbuf_str(&why));
        strbuf_free(&why);
    } else if (gen->nunreachable) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                 "no input within depth %u contains it: it needs depth %u (:depth D)",
                 o.max_depth, gen->unreachable[0].needed_depth);
    } else {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s", gen->error ? gen->error : "no input made");
    }
    gen_free(gen);
    return ok;
}

bool workspace_gen_running(const struct workspace *ws)
{
    return ws->gen && ws->gen->phase != GEN_PHASE_DONE;
}

void workspace_gen_reset(struct workspace *ws, bool drop_inputs)
{
    if (!ws->gen)
        return;
    gen_free(ws->gen);
    ws->gen = NULL;
    if (drop_inputs && ws->ninputs) {
        bool *keep = xmalloc(ws->ninputs * sizeof *keep);
        for (size_t i = 0; i < ws->ninputs; i++)
            keep[i] = ws->inputs[i].sample || ws->inputs[i].session != ws->session;
        workspace_remove_inputs(ws, keep);
        free(keep);
    }
}

/* ---- probabilities --------------------------------------------------------- */

void workspace_probs_reset(struct workspace *ws)
{
    init_probabilities(ws);
    workspace_gen_reset(ws, false);
    touch(ws);
}

void workspace_relearn(struct workspace *ws)
{
    learn_free(&ws->learned);
    learn_init(&ws->learned, ws->graph);
    for (size_t i = 0; i < ws->ninputs; i++) {
        const struct ws_input *in = &ws->inputs[i];
        if (in->sample && in->has_tree)
            learn_add_tree(&ws->learned, &in->tree, in->ambiguous);
    }
    ws->learned_valid = true;
}

bool workspace_probs_learn(struct workspace *ws)
{
    workspace_relearn(ws);
    if (!ws->learned.samples)
        return false;
    learn_probabilities(&ws->learned, ws->probs);
    for (uint32_t n = 0; n < ws->graph->nnodes; n++) {
        enum node_kind kind = ws->graph->nodes[n].kind;
        if (kind == NODE_ALT || kind == NODE_QUANT)
            ws->prob_source[n] = learn_seen(&ws->learned, n) ? WS_PROB_LEARNED : WS_PROB_UNSEEN;
    }
    workspace_gen_reset(ws, false);
    touch(ws);
    return true;
}

void workspace_probs_invert(struct workspace *ws)
{
    probabilities_invert(ws->graph, ws->probs, ws->probs);
    for (uint32_t n = 0; n < ws->graph->nnodes; n++) {
        enum node_kind kind = ws->graph->nodes[n].kind;
        if (kind != NODE_ALT && kind != NODE_QUANT)
            continue;
        uint8_t *s = &ws->prob_source[n];
        if (*s == WS_PROB_LEARNED || *s == WS_PROB_ANNOTATED || *s == WS_PROB_EDITED)
            *s = WS_PROB_INVERTED;
        else if (*s == WS_PROB_INVERTED)
            *s = WS_PROB_LEARNED;
    }
    workspace_gen_reset(ws, false);
    touch(ws);
}

bool workspace_probs_set(struct workspace *ws, uint32_t node, uint32_t i, double p)
{
    const struct graph *g = ws->graph;
    if (node >= g->nnodes || g->nodes[node].kind != NODE_ALT || i >= g->nodes[node].nchildren ||
        !(p >= 0.0 && p <= 1.0))
        return false;
    double *v = ws->probs + g->nodes[node].first_child;
    uint32_t n = g->nodes[node].nchildren;
    double others = 0.0;
    for (uint32_t j = 0; j < n; j++)
        if (j != i)
            others += v[j];
    for (uint32_t j = 0; j < n; j++) {
        if (j == i)
            continue;
        v[j] = others > 0.0 ? v[j] * (1.0 - p) / others : (1.0 - p) / (double)(n - 1);
    }
    v[i] = p;
    ws->prob_source[node] = WS_PROB_EDITED;
    workspace_gen_reset(ws, false);
    touch(ws);
    return true;
}

/* Each rule's alt nodes in pre-order of its right-hand side (references not
 * followed): the numbering ":prob RULE N.ALT" uses. */
static void build_rule_alts(struct workspace *ws)
{
    const struct graph *g = ws->graph;
    const struct grammar *gr = ws->grammar;
    ws->rule_alts_start = xcalloc((size_t)gr->nrules + 1, sizeof *ws->rule_alts_start);
    ws->rule_alts = xmalloc(((size_t)g->nnodes + 1) * sizeof *ws->rule_alts);
    uint32_t *stack = NULL;
    size_t cap = 0, n = 0;
    for (uint32_t r = 0; r < gr->nrules; r++) {
        ws->rule_alts_start[r] = (uint32_t)n;
        uint32_t top = g->rule_node[r];
        if (top == NODE_NONE)
            continue;
        size_t len = 0;
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        stack[len++] = top;
        while (len) {
            uint32_t node = stack[--len];
            const struct graph_node *gn = &g->nodes[node];
            if (gn->kind == NODE_ALT)
                ws->rule_alts[n++] = node;
            if (gn->kind == NODE_REF)
                continue;
            stack = xgrow(stack, &cap, len + gn->nchildren, sizeof *stack);
            for (uint32_t c = gn->nchildren; c-- > 0;)
                stack[len++] = graph_children(g, node)[c];
        }
    }
    ws->rule_alts_start[gr->nrules] = (uint32_t)n;
    free(stack);
}

uint32_t workspace_rule_alt_node(const struct workspace *cws, uint32_t rule, uint32_t which)
{
    struct workspace *ws = (struct workspace *)cws; /* derived data only */
    if (rule >= ws->grammar->nrules || which == 0)
        return NODE_NONE;
    if (!ws->rule_alts)
        build_rule_alts(ws);
    uint32_t first = ws->rule_alts_start[rule], end = ws->rule_alts_start[rule + 1];
    return which <= end - first ? ws->rule_alts[first + which - 1] : NODE_NONE;
}

/* ---- grammar changes --------------------------------------------------------- */

/* The grammar changed (ws->grammar is the new one): the old graph's ids mean
 * nothing now, so the graph, probabilities, pins, k-paths and inputs start
 * over on the new one.  OLD, when not NULL, is the grammar the old graph was
 * built on, freed with it. */
static void grammar_changed(struct workspace *ws, struct grammar *old_grammar,
                            struct diag_list *diags)
{
    struct graph *old = ws->graph;
    ws->graph = graph_build(ws->grammar);
    free(ws->rule_alts);
    free(ws->rule_alts_start);
    ws->rule_alts = NULL;
    ws->rule_alts_start = NULL;
    learn_free(&ws->learned);
    learn_init(&ws->learned, ws->graph);
    ws->learned_valid = false;
    init_probabilities(ws);
    pin_set_free(&ws->pins); /* node ids changed: pins start over */
    ws->pins = (struct pin_set)PIN_SET_INIT;
    kpath_set_free(&ws->covered);
    kpath_space_free(&ws->space);
    bool *keep = xmalloc((ws->ninputs + 1) * sizeof *keep);
    for (size_t i = 0; i < ws->ninputs; i++) {
        struct ws_input *in = &ws->inputs[i];
        if (in->forest)
            forest_free(in->forest);
        in->forest = NULL;
        if (in->has_tree)
            derivation_free(&in->tree);
        in->has_tree = false;
        free(in->target);
        in->target = NULL;
        keep[i] = parse_into(ws, in, in->sample ? in->sample : "input", diags);
        if (!in->sample && in->forest) {
            forest_free(in->forest); /* generated inputs keep their tree only */
            in->forest = NULL;
        }
    }
    graph_free(old);
    if (old_grammar)
        grammar_free(old_grammar);
    uint32_t k = ws->k;
    memset(&ws->space, 0, sizeof ws->space);
    workspace_set_k(ws, k, diags);
    workspace_remove_inputs(ws, keep);
    free(keep);
    coverage_changed(ws);
    touch(ws);
}

bool workspace_dup(struct workspace *ws, const char *rule, uint32_t alternative, uint32_t depth,
                   struct diag_list *diags)
{
    struct dup_options o = {alternative, depth, 0};
    struct dup_result res;
    workspace_gen_reset(ws, false);
    if (dup_rule(ws->grammar, rule, &o, &res, diags) != DUP_OK)
        return false;
    ws->dups = xrealloc(ws->dups, (ws->ndups + 1) * sizeof *ws->dups);
    ws->dups[ws->ndups++] = (struct ws_dup){xstrdup(rule), alternative, depth};
    grammar_changed(ws, NULL, diags);
    return true;
}

bool workspace_undup(struct workspace *ws, struct diag_list *diags)
{
    if (ws->ndups == 0) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no duplication to undo");
        return false;
    }
    /* The grammar without the last duplication is the file's with all the
     * others applied again, in order: reading it again is the one way to it
     * that dup_rule's own contract gives (it changes a grammar in place). */
    char sha[SHA256_HEX_SIZE];
    struct diag_list ignore = DIAG_LIST_INIT;
    bool same = sha256_file(ws->grammar_path, sha, &ignore) &&
                strcmp(sha, ws->grammar_sha256) == 0;
    diag_list_free(&ignore);
    if (!same) {
        diag_add(diags, DIAG_ERROR, ws->grammar_path, 0, 0,
                 "changed since it was loaded: the duplication cannot be undone");
        return false;
    }
    struct grammar_options go = {.start = ws->start};
    struct grammar *g = grammar_open(ws->grammar_path, ws->format, &go, diags);
    if (!g)
        return false;
    for (size_t i = 0; i + 1 < ws->ndups; i++) {
        struct dup_options o = {ws->dups[i].alternative, ws->dups[i].depth, 0};
        struct dup_result res;
        if (dup_rule(g, ws->dups[i].rule, &o, &res, diags) != DUP_OK) {
            grammar_free(g);
            return false;
        }
    }
    workspace_gen_reset(ws, false);
    free(ws->dups[--ws->ndups].rule);
    struct grammar *old = ws->grammar;
    ws->grammar = g;
    grammar_changed(ws, old, diags);
    return true;
}

bool workspace_parse_path(const struct workspace *ws, const char *text, uint32_t **path,
                          uint32_t *len, struct diag_list *diags)
{
    /* the "→" the explorer draws between nodes reads like "->" */
    struct strbuf t = STRBUF_INIT;
    for (const char *p = text; *p; p++) {
        if (strncmp(p, "\xe2\x86\x92", 3) == 0) {
            strbuf_addstr(&t, "->");
            p += 2;
        } else {
            strbuf_addch(&t, *p);
        }
    }
    uint32_t n = 0;
    uint32_t *ids = graph_parse_path(ws->graph, strbuf_str(&t), &n, diags);
    strbuf_free(&t);
    if (!ids)
        return false;
    *path = ids;
    *len = n;
    return true;
}

/* Pins changed: the lists, the coverage in context and the generator. */
static void pins_changed(struct workspace *ws)
{
    workspace_gen_reset(ws, false);
    build_under(ws);
    kpath_set_clear(&ws->covered);
    recompute_coverage(ws);
    touch(ws);
}

bool workspace_pin(struct workspace *ws, const char *text, struct diag_list *diags)
{
    if (!pin_set_add(&ws->pins, ws->graph, text, diags))
        return false;
    pins_changed(ws);
    return true;
}

void workspace_unpin(struct workspace *ws)
{
    if (!ws->pins.len)
        return;
    pin_set_free(&ws->pins);
    ws->pins = (struct pin_set)PIN_SET_INIT;
    pins_changed(ws);
}

bool workspace_unpin_at(struct workspace *ws, size_t index)
{
    if (!pin_set_remove(&ws->pins, ws->graph, index))
        return false;
    pins_changed(ws);
    return true;
}

void workspace_path_name(const struct workspace *ws, const uint32_t *path, uint32_t k,
                         const char *arrow, struct strbuf *out)
{
    for (uint32_t i = 0; i < k; i++) {
        if (i)
            strbuf_addstr(out, arrow);
        graph_node_name(ws->graph, path[i], out);
    }
}
