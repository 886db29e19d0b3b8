#include "explain/explain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "parse/input_kpaths.h"
#include "graph/pattern.h"
#include "base/xalloc.h"

void explain_options_default(struct explain_options *o)
{
    memset(o, 0, sizeof *o);
    o->k = EXPLAIN_DEFAULT_K;
    o->tree.criterion = DT_GINI;
    o->tree.max_depth = DT_DEFAULT_MAX_DEPTH;
    o->tree.min_samples_split = 2;
    o->balance = true;
    o->balance_auto = true;
    o->depth_auto = true;
    o->folds = EXPLAIN_DEFAULT_FOLDS;
    o->seed = 1;
    o->po.max_input_size = PARSE_DEFAULT_MAX_INPUT;
    o->min_reaching = EXPLAIN_DEFAULT_MIN_REACHING;
    o->min_precision_pct = EXPLAIN_DEFAULT_MIN_PRECISION_PCT;
}

/* ---- the k-path features ---------------------------------------------------- */

/* Key: the k-path's length, then its ids. */
struct kfeature_entry {
    UT_hash_handle hh;
    uint32_t feature;
    uint32_t key[];
};

static struct kfeature_entry *find_feature(const struct kpath_features *kf, const uint32_t *path,
                                           uint32_t len, uint32_t *key)
{
    key[0] = len;
    memcpy(key + 1, path, len * sizeof *key);
    struct kfeature_entry *e = NULL;
    HASH_FIND(hh, kf->index, key, (len + 1) * sizeof *key, e);
    return e;
}

static uint32_t add_feature(struct kpath_features *kf, const uint32_t *key)
{
    uint32_t len = key[0];
    if (kf->n == kf->cap) {
        kf->cap = kf->cap ? 2 * kf->cap : 64;
        kf->len = xrealloc(kf->len, kf->cap * sizeof *kf->len);
        kf->start = xrealloc(kf->start, kf->cap * sizeof *kf->start);
    }
    kf->ids = xgrow(kf->ids, &kf->ids_cap, kf->nids + len, sizeof *kf->ids);
    memcpy(kf->ids + kf->nids, key + 1, len * sizeof *kf->ids);
    kf->len[kf->n] = len;
    kf->start[kf->n] = (uint32_t)kf->nids;
    kf->nids += len;
    struct kfeature_entry *e = xmalloc(sizeof *e + (len + 1) * sizeof *key);
    memset(e, 0, sizeof *e);
    memcpy(e->key, key, (len + 1) * sizeof *key);
    e->feature = kf->n;
    HASH_ADD(hh, kf->index, key, (len + 1) * sizeof *key, e);
    return kf->n++;
}

void kpath_features_free(struct kpath_features *kf)
{
    struct kfeature_entry *e, *tmp;
    HASH_ITER(hh, kf->index, e, tmp) {
        HASH_DEL(kf->index, e);
        free(e);
    }
    for (uint32_t j = 0; kf->spaces && j < kf->k; j++)
        kpath_space_free(&kf->spaces[j]);
    free(kf->spaces);
    free(kf->len);
    free(kf->start);
    free(kf->ids);
    memset(kf, 0, sizeof *kf);
}

void explain_inputs_free(struct explain_inputs *in)
{
    free(in->row_start);
    free(in->cols);
    free(in->record);
    free(in->rank);
    memset(in, 0, sizeof *in);
}

/* ---- reading inputs ------------------------------------------------------------- */

/* Collecting one input's features. */
struct row_builder {
    const struct kpath_features *kf;
    struct kpath_features *grow; /* NULL: look up only */
    uint32_t len;                /* of the paths being visited */
    uint32_t *key;               /* scratch, k + 1 */
    uint32_t *cols;
    size_t ncols, cap;
};

static bool collect_path(const uint32_t *path, void *ctx)
{
    struct row_builder *b = ctx;
    struct kfeature_entry *e = find_feature(b->kf, path, b->len, b->key);
    uint32_t f;
    if (e)
        f = e->feature;
    else if (b->grow)
        f = add_feature(b->grow, b->key);
    else
        return true;
    b->cols = xgrow(b->cols, &b->cap, b->ncols + 1, sizeof *b->cols);
    b->cols[b->ncols++] = f;
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The file of a record: as given, or beside the results file. */
static void resolve_input(const char *results_path, const char *input, struct strbuf *out)
{
    strbuf_reset(out);
    if (strcmp(input, "-") == 0) {
        /* A file called "-", never standard input. */
        strbuf_addstr(out, "./-");
        return;
    }
    const char *slash = strrchr(results_path, '/');
    if (input[0] != '/' && slash && access(input, F_OK) != 0) {
        strbuf_add(out, results_path, (size_t)(slash - results_path) + 1);
        strbuf_addstr(out, input);
        if (access(strbuf_str(out), F_OK) == 0)
            return;
        strbuf_reset(out);
    }
    strbuf_addstr(out, input);
}

/* Reading the inputs of a results file, some records per step. */
struct explain_reader {
    const struct kpath_features *kf;
    struct kpath_features *grow;  /* NULL: look up only */
    const struct results *r;
    const char *results_path;
    struct parse_options po;
    struct explain_inputs *in;
    struct row_builder b;
    struct kpath_set *sets, **set_ptrs;
    struct strbuf path, text;
    size_t *order;                /* records in input path order */
    size_t total, cols_cap, next;
    uint32_t rows;
};

static struct explain_reader *reader_begin(const struct kpath_features *kf,
                                           struct kpath_features *grow, const struct results *r,
                                           const char *results_path,
                                           const struct explain_options *o,
                                           struct explain_inputs *in)
{
    struct explain_reader *rd = xcalloc(1, sizeof *rd);
    rd->kf = kf;
    rd->grow = grow;
    rd->r = r;
    rd->results_path = results_path;
    rd->po = o->po;
    rd->in = in;
    /* Rows in input path order: the balanced sample, the split and so the
     * trees then do not depend on the order in which parallel runs ended. */
    rd->order = results_input_order(r);
    memset(in, 0, sizeof *in);
    in->row_start = xcalloc(r->nrecords + 1, sizeof *in->row_start);
    in->record = xcalloc(r->nrecords + 1, sizeof *in->record);
    rd->b = (struct row_builder){.kf = kf, .grow = grow, .key = xcalloc(kf->k + 1, sizeof *rd->b.key)};
    rd->sets = xcalloc(kf->k, sizeof *rd->sets);
    rd->set_ptrs = xcalloc(kf->k, sizeof *rd->set_ptrs);
    return rd;
}

/* Read record i's input into a row (or skip it with a warning: not
 * readable, changed since it ran, or not parsing). */
static void read_one(struct explain_reader *rd, size_t i, struct diag_list *diags)
{
    const struct kpath_features *kf = rd->kf;
    struct explain_inputs *in = rd->in;
    struct row_builder *b = &rd->b;
    resolve_input(rd->results_path, rd->r->records[i].input, &rd->path);
    struct diag_list pd = DIAG_LIST_INIT;
    for (uint32_t j = 0; j < kf->k; j++) {
        kpath_set_init(&rd->sets[j], &kf->spaces[j]);
        rd->set_ptrs[j] = &rd->sets[j];
    }
    /* As the runs report reads them: an input changed since it ran would
     * pair its k-paths with another input's behaviour. */
    if (!input_kpaths_as_ran(kf->graph, strbuf_str(&rd->path), rd->r->records[i].input_sha256,
                             &rd->po, rd->set_ptrs, kf->k, &rd->text, &pd)) {
        for (size_t d = 0; d < pd.len; d++)
            if (pd.items[d].severity == DIAG_ERROR)
                diag_add(diags, DIAG_WARNING, pd.items[d].file, pd.items[d].line,
                         pd.items[d].col, "%s (input skipped)", pd.items[d].message);
        diag_list_free(&pd);
        for (uint32_t j = 0; j < kf->k; j++)
            kpath_set_free(&rd->sets[j]);
        in->skipped++;
        return;
    }
    diag_list_free(&pd);
    b->ncols = 0;
    for (uint32_t j = 0; j < kf->k; j++) {
        b->len = j + 1;
        kpath_set_foreach(&rd->sets[j], collect_path, b);
        kpath_set_free(&rd->sets[j]);
    }
    qsort(b->cols, b->ncols, sizeof *b->cols, cmp_u32);
    in->cols = xgrow(in->cols, &rd->cols_cap, rd->total + b->ncols, sizeof *in->cols);
    memcpy(in->cols + rd->total, b->cols, b->ncols * sizeof *b->cols);
    rd->total += b->ncols;
    in->record[rd->rows++] = (uint32_t)i;
    in->row_start[rd->rows] = (uint32_t)rd->total;
}

bool explain_reader_step(struct explain_reader *rd, size_t max_inputs, struct diag_list *diags)
{
    for (size_t u = 0; u < max_inputs && rd->next < rd->r->nrecords; u++)
        read_one(rd, rd->order[rd->next++], diags);
    return rd->next < rd->r->nrecords;
}

void explain_reader_progress(const struct explain_reader *rd, size_t *done, size_t *total)
{
    *done = rd->next;
    *total = rd->r->nrecords;
}

void explain_reader_abort(struct explain_reader *rd)
{
    if (!rd)
        return;
    strbuf_free(&rd->path);
    strbuf_free(&rd->text);
    free(rd->order);
    free(rd->sets);
    free(rd->set_ptrs);
    free(rd->b.key);
    free(rd->b.cols);
    free(rd);
}

/* The rows read so far become the data (every record when the reader is done). */
static void reader_end(struct explain_reader *rd)
{
    struct explain_inputs *in = rd->in;
    if (!in->cols)
        in->cols = xcalloc(1, sizeof *in->cols);
    in->data = (struct dt_data){.nrows = rd->rows, .ncols = rd->kf->n,
                                .row_start = in->row_start, .cols = in->cols};
    explain_reader_abort(rd);
}

static void read_rows(const struct kpath_features *kf, struct kpath_features *grow,
                      const struct results *r, const char *results_path,
                      const struct explain_options *o, struct explain_inputs *in,
                      struct diag_list *diags)
{
    struct explain_reader *rd = reader_begin(kf, grow, r, results_path, o, in);
    while (explain_reader_step(rd, SIZE_MAX, diags))
        ;
    reader_end(rd);
}

/* Order features by length, then ids (qsort over indices). */
static const struct kpath_features *sort_kf;
static int cmp_feature(const void *a, const void *b);

/* Features x and y of sort_kf by length, then node by node by key[node]
 * (the node id itself when key is NULL). */
static int cmp_paths_by(uint32_t x, uint32_t y, const uint32_t *key)
{
    const struct kpath_features *kf = sort_kf;
    if (kf->len[x] != kf->len[y])
        return kf->len[x] < kf->len[y] ? -1 : 1;
    const uint32_t *p = kpath_feature_path(kf, x), *q = kpath_feature_path(kf, y);
    for (uint32_t i = 0; i < kf->len[x]; i++) {
        uint32_t u = key ? key[p[i]] : p[i], v = key ? key[q[i]] : q[i];
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

static int cmp_feature(const void *a, const void *b)
{
    return cmp_paths_by(*(const uint32_t *)a, *(const uint32_t *)b, NULL);
}

static void renumber(struct kpath_features *kf, struct explain_inputs *in)
{
    uint32_t *order = xcalloc(kf->n + 1, sizeof *order);
    for (uint32_t f = 0; f < kf->n; f++)
        order[f] = f;
    sort_kf = kf;
    qsort(order, kf->n, sizeof *order, cmp_feature);
    sort_kf = NULL;
    uint32_t *new_of = xcalloc(kf->n + 1, sizeof *new_of);
    uint32_t *len = xcalloc(kf->n + 1, sizeof *len), *start = xcalloc(kf->n + 1, sizeof *start);
    uint32_t *ids = xcalloc(kf->nids + 1, sizeof *ids);
    size_t nids = 0;
    for (uint32_t i = 0; i < kf->n; i++) {
        uint32_t f = order[i];
        new_of[f] = i;
        len[i] = kf->len[f];
        start[i] = (uint32_t)nids;
        memcpy(ids + nids, kpath_feature_path(kf, f), len[i] * sizeof *ids);
        nids += len[i];
    }
    struct kfeature_entry *e, *tmp;
    HASH_ITER(hh, kf->index, e, tmp) e->feature = new_of[e->feature];
    free(kf->len);
    free(kf->start);
    free(kf->ids);
    kf->len = len;
    kf->start = start;
    kf->ids = ids;
    kf->cap = kf->n;
    kf->ids_cap = nids;
    for (uint32_t row = 0; row < in->data.nrows; row++) {
        uint32_t *c = in->cols + in->row_start[row];
        uint32_t nc = in->row_start[row + 1] - in->row_start[row];
        for (uint32_t j = 0; j < nc; j++)
            c[j] = new_of[c[j]];
        qsort(c, nc, sizeof *c, cmp_u32);
    }
    free(new_of);
    free(order);
}

struct explain_reader *explain_train_begin(const struct graph *g, const struct results *r,
                                           const char *results_path,
                                           const struct explain_options *o,
                                           struct kpath_features *kf, struct explain_inputs *in)
{
    memset(kf, 0, sizeof *kf);
    kf->graph = g;
    kf->k = o->k;
    kf->spaces = xcalloc(o->k, sizeof *kf->spaces);
    for (uint32_t j = 0; j < o->k; j++)
        kpath_space_init(&kf->spaces[j], g, j + 1);
    return reader_begin(kf, kf, r, results_path, o, in);
}

/* The order of preference between splits the data cannot tell apart:
 * shorter k-paths, then k-paths whose nodes are nearer the start rule
 * (levels of the graph's breadth-first walk, node by node: the more
 * general construct), then shorter patterns, then pattern text. */
static char **rank_text;
static uint32_t *rank_level;

static int cmp_rank(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int by_level = cmp_paths_by(x, y, rank_level);
    if (by_level)
        return by_level;
    size_t lx = strlen(rank_text[x]), ly = strlen(rank_text[y]);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    int c = strcmp(rank_text[x], rank_text[y]);
    if (c)
        return c;
    return cmp_feature(a, b);
}

static void make_rank(const struct kpath_features *kf, struct explain_inputs *in)
{
    /* Breadth-first levels from the root (node 0). */
    const struct graph *g = kf->graph;
    rank_level = xcalloc((size_t)g->nnodes + 1, sizeof *rank_level);
    uint32_t *queue = xcalloc((size_t)g->nnodes + 1, sizeof *queue);
    for (uint32_t i = 0; i < g->nnodes; i++)
        rank_level[i] = UINT32_MAX;
    size_t head = 0, tail = 0;
    if (g->nnodes) {
        rank_level[0] = 0;
        queue[tail++] = 0;
    }
    while (head < tail) {
        uint32_t n = queue[head++];
        const struct graph_node *gn = &g->nodes[n];
        for (uint32_t c = 0; c < gn->nchildren; c++) {
            uint32_t child = g->children[gn->first_child + c];
            if (rank_level[child] == UINT32_MAX) {
                rank_level[child] = rank_level[n] + 1;
                queue[tail++] = child;
            }
        }
    }
    free(queue);
    rank_text = xcalloc(kf->n + 1, sizeof *rank_text);
    struct strbuf t = STRBUF_INIT;
    for (uint32_t f = 0; f < kf->n; f++) {
        strbuf_reset(&t);
        explain_render_pattern(kf, f, &t);
        rank_text[f] = xstrdup(strbuf_str(&t));
    }
    strbuf_free(&t);
    uint32_t *order = xcalloc(kf->n + 1, sizeof *order);
    for (uint32_t f = 0; f < kf->n; f++)
        order[f] = f;
    sort_kf = kf;
    qsort(order, kf->n, sizeof *order, cmp_rank);
    sort_kf = NULL;
    in->rank = xcalloc(kf->n + 1, sizeof *in->rank);
    for (uint32_t i = 0; i < kf->n; i++)
        in->rank[order[i]] = i;
    for (uint32_t f = 0; f < kf->n; f++)
        free(rank_text[f]);
    free(rank_text);
    rank_text = NULL;
    free(rank_level);
    rank_level = NULL;
    free(order);
}

void explain_train_finish(struct explain_reader *rd)
{
    struct kpath_features *kf = rd->grow;
    struct explain_inputs *in = rd->in;
    reader_end(rd);
    renumber(kf, in);
    in->data.ncols = kf->n;
    make_rank(kf, in);
}

void explain_inputs_train(const struct graph *g, const struct results *r, const char *results_path,
                          const struct explain_options *o, struct kpath_features *kf,
                          struct explain_inputs *in, struct diag_list *diags)
{
    struct explain_reader *rd = explain_train_begin(g, r, results_path, o, kf, in);
    while (explain_reader_step(rd, SIZE_MAX, diags))
        ;
    explain_train_finish(rd);
}

void explain_inputs_read(const struct kpath_features *kf, const struct results *r,
                         const char *results_path, const struct explain_options *o,
                         struct explain_inputs *in, struct diag_list *diags)
{
    read_rows(kf, NULL, r, results_path, o, in, diags);
}

bool *explain_labels(const struct explain_inputs *in, const struct results *r, const char *name)
{
    bool *labels = xcalloc(in->data.nrows + 1, sizeof *labels);
    uint32_t f = results_find_feature(r, name);
    if (f == UINT32_MAX)
        return labels;
    for (uint32_t row = 0; row < in->data.nrows; row++)
        labels[row] = results_record_has(r, &r->records[in->record[row]], f);
    return labels;
}

void explain_split(uint32_t n, double fraction, uint64_t seed, uint32_t **train,
                   uint32_t *ntrain, uint32_t **test, uint32_t *ntest)
{
    uint32_t *perm = xcalloc(n + 1, sizeof *perm);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    struct rng rng;
    rng_seed(&rng, seed);
    uint32_t nt = (uint32_t)((double)n * fraction + 0.5);
    if (nt > n)
        nt = n;
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t j = i + (uint32_t)rng_below(&rng, n - i);
        uint32_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    qsort(perm, nt, sizeof *perm, cmp_u32);
    qsort(perm + nt, n - nt, sizeof *perm, cmp_u32);
    *test = xcalloc(nt + 1, sizeof **test);
    memcpy(*test, perm, nt * sizeof *perm);
    *ntest = nt;
    *train = xcalloc(n - nt + 1, sizeof **train);
    memcpy(*train, perm + nt, (n - nt) * sizeof *perm);
    *ntrain = n - nt;
    free(perm);
}

/* ---- learning ------------------------------------------------------------------- */

/* Learn a tree on rows[0..n) (the balanced sample of them when balanced);
 * ties by the precision on every one of rows[0..n). */
static uint32_t learn_tree(struct decision_tree *t, const struct explain_inputs *in,
                           const bool *labels, const uint32_t *rows, uint32_t n, bool balanced,
                           uint32_t depth, const struct explain_options *o)
{
    uint32_t *sample = NULL, nsample = n;
    if (balanced) {
        /* Every feature draws from the same seed, so its tree does not depend
         * on which other features are explained in the same run. */
        struct rng rng;
        rng_seed(&rng, o->seed);
        sample = dt_balanced_sample(labels, rows, n, &rng, &nsample);
    }
    struct dt_params p = o->tree;
    p.max_depth = depth;
    struct dt_tiebreak tb = {rows, n, in->rank};
    decision_tree_learn_tb(t, &in->data, labels, sample ? sample : rows, nsample, &p, &tb);
    free(sample);
    return nsample;
}

/* Stratified folds of rows[0..n): positives and negatives each shuffled
 * (seeded) and dealt round-robin; fold[i] is rows[i]'s. */
static uint32_t *make_folds(const bool *labels, const uint32_t *rows, uint32_t n,
                            uint32_t folds, uint64_t seed)
{
    uint32_t *fold = xcalloc(n + 1, sizeof *fold);
    uint32_t *idx = xcalloc(n + 1, sizeof *idx);
    struct rng rng;
    rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
    for (int cls = 0; cls < 2; cls++) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++)
            if (labels[rows[i]] == (cls == 1))
                idx[m++] = i;
        for (uint32_t i = 0; i + 1 < m; i++) {
            uint32_t j = i + (uint32_t)rng_below(&rng, m - i);
            uint32_t tmp = idx[i];
            idx[i] = idx[j];
            idx[j] = tmp;
        }
        for (uint32_t i = 0; i < m; i++)
            fold[idx[i]] = i % folds;
    }
    free(idx);
    return fold;
}

void explain_learn(const struct explain_inputs *in, const bool *labels, const uint32_t *rows,
                   uint32_t n, const char *name, const struct explain_options *o,
                   struct explain_result *out)
{
    memset(out, 0, sizeof *out);
    out->name = xstrdup(name);
    out->cv_accuracy = out->cv_baseline = NAN;
    for (uint32_t i = 0; i < n; i++)
        out->npos += labels[rows[i]];
    out->nneg = n - out->npos;
    out->majority = out->npos > out->nneg;
    if (out->npos == 0 || out->nneg == 0) {
        out->kind = out->npos ? EXPLAIN_ALWAYS : EXPLAIN_NEVER;
        return;
    }
    out->kind = EXPLAIN_TRAINABLE;

    /* The candidates: balanced first (it wins ties), depths 1 .. maxd. */
    bool modes[2];
    uint32_t nmodes = 0;
    if (o->balance_auto) {
        modes[nmodes++] = true;
        modes[nmodes++] = false;
    } else {
        modes[nmodes++] = o->balance;
    }
    uint32_t maxd = o->depth_auto ? EXPLAIN_MAX_AUTO_DEPTH : o->tree.max_depth;
    uint32_t mind = o->depth_auto ? 1 : o->tree.max_depth;
    uint32_t folds = o->folds < EXPLAIN_MIN_FOLDS ? EXPLAIN_MIN_FOLDS : o->folds;
    if (folds > out->npos)
        folds = out->npos;
    if (folds > out->nneg)
        folds = out->nneg;
    out->balanced = modes[0];
    out->depth = o->depth_auto ? DT_DEFAULT_MAX_DEPTH : o->tree.max_depth;
    if (folds >= EXPLAIN_MIN_FOLDS) {
        out->folds = folds;
        uint64_t *correct = xcalloc((size_t)nmodes * (maxd + 1), sizeof *correct);
        uint64_t base_correct = 0;
        uint32_t *fold = make_folds(labels, rows, n, folds, o->seed);
        uint32_t *train = xcalloc(n + 1, sizeof *train);
        for (uint32_t k = 0; k < folds; k++) {
            uint32_t ntrain = 0, tpos = 0;
            for (uint32_t i = 0; i < n; i++)
                if (fold[i] != k) {
                    train[ntrain++] = rows[i];
                    tpos += labels[rows[i]];
                }
            bool maj = 2 * tpos > ntrain;
            for (uint32_t i = 0; i < n; i++)
                if (fold[i] == k)
                    base_correct += labels[rows[i]] == maj;
            for (uint32_t m = 0; m < nmodes; m++) {
                struct decision_tree t;
                learn_tree(&t, in, labels, train, ntrain, modes[m], maxd, o);
                for (uint32_t i = 0; i < n; i++) {
                    if (fold[i] != k)
                        continue;
                    for (uint32_t d = mind; d <= maxd; d++)
                        correct[m * (maxd + 1) + d] +=
                            decision_tree_predict_depth(&t, &in->data, rows[i], d) ==
                            labels[rows[i]];
                }
                decision_tree_free(&t);
            }
        }
        uint64_t best = 0;
        bool have = false;
        for (uint32_t d = mind; d <= maxd; d++)
            for (uint32_t m = 0; m < nmodes; m++)
                if (!have || correct[m * (maxd + 1) + d] > best) {
                    have = true;
                    best = correct[m * (maxd + 1) + d];
                    out->balanced = modes[m];
                    out->depth = d;
                }
        out->cv_accuracy = (double)best / n;
        out->cv_baseline = (double)base_correct / n;
        out->explained = best > base_correct;
        free(train);
        free(fold);
        free(correct);
    }
    out->nsample = learn_tree(&out->tree, in, labels, rows, n, out->balanced, out->depth, o);
    if (folds < EXPLAIN_MIN_FOLDS) {
        /* Too few inputs of a class for folds that each hold one out: the
         * tree on its own inputs (its rules are weak by --min-reaching). */
        uint32_t right = 0;
        for (uint32_t i = 0; i < n; i++)
            right += decision_tree_predict(&out->tree, &in->data, rows[i]) == labels[rows[i]];
        uint32_t base = out->majority ? out->npos : out->nneg;
        out->cv_accuracy = (double)right / n;
        out->cv_baseline = (double)base / n;
        out->explained = right > base;
    }
    if (!out->explained)
        return;
    struct dt_rule *rules;
    out->nrules = decision_tree_rules(&out->tree, &rules);
    out->rules = xcalloc(out->nrules + 1, sizeof *out->rules);
    for (size_t i = 0; i < out->nrules; i++) {
        struct explain_rule *er = &out->rules[i];
        er->rule = rules[i];
        for (uint32_t j = 0; j < n; j++)
            if (dt_rule_matches(&er->rule, &in->data, rows[j])) {
                er->support++;
                er->hits += labels[rows[j]];
            }
    }
    free(rules); /* the conditions moved into out->rules */
}

void explain_evaluate(struct explain_result *res, const struct explain_inputs *in,
                      const bool *labels, const uint32_t *rows, uint32_t n)
{
    memset(&res->test, 0, sizeof res->test);
    memset(&res->test_baseline, 0, sizeof res->test_baseline);
    res->tested = true;
    bool constant = res->kind == EXPLAIN_ALWAYS ||
                    (res->kind == EXPLAIN_TRAINABLE && res->majority);
    for (uint32_t i = 0; i < n; i++) {
        bool predicted = res->kind == EXPLAIN_TRAINABLE && res->explained
                             ? decision_tree_predict(&res->tree, &in->data, rows[i])
                             : constant;
        bool actual = labels[rows[i]];
        for (int b = 0; b < 2; b++) {
            struct dt_confusion *c = b ? &res->test_baseline : &res->test;
            bool p = b ? constant : predicted;
            if (p && actual)
                c->tp++;
            else if (p)
                c->fp++;
            else if (actual)
                c->fn++;
            else
                c->tn++;
        }
    }
}

void explain_render_verdict(const struct explain_result *res, uint32_t k, struct strbuf *out)
{
    const char *answer = res->majority ? "\"reached\"" : "\"not reached\"";
    const char *how = res->folds ? "cross-validated accuracy" : "accuracy on the training inputs";
    if (!res->explained) {
        strbuf_addf(out, "not explained by input structure at k <= %u: %s %.2f, no better than "
                         "%.2f for always answering %s", k, how, res->cv_accuracy,
                    res->cv_baseline, answer);
        return;
    }
    strbuf_addf(out, "%s %.2f (", how, res->cv_accuracy);
    if (res->folds)
        strbuf_addf(out, "%u folds; ", res->folds);
    else
        strbuf_addstr(out, "too few inputs to cross-validate; ");
    strbuf_addf(out, "%s, depth %u) against %.2f for always answering %s (majority baseline)",
                res->balanced ? "class-balanced" : "every input", res->depth, res->cv_baseline,
                answer);
}

void explain_result_free(struct explain_result *res)
{
    free(res->name);
    decision_tree_free(&res->tree);
    for (size_t i = 0; i < res->nrules; i++)
        free(res->rules[i].rule.conds);
    free(res->rules);
    memset(res, 0, sizeof *res);
}

/* ---- weak rules ----------------------------------------------------------------- */

static bool too_few_reaching(const struct explain_rule *er, const struct explain_options *o)
{
    return er->hits < o->min_reaching;
}

/* hits / support < pct / 100, in integers */
static bool too_imprecise(const struct explain_rule *er, const struct explain_options *o)
{
    return (uint64_t)er->hits * 100 < (uint64_t)o->min_precision_pct * er->support;
}

bool explain_rule_weak(const struct explain_rule *er, const struct explain_options *o)
{
    return too_few_reaching(er, o) || too_imprecise(er, o);
}

void explain_render_support(const struct explain_rule *er, const struct explain_options *o,
                            struct strbuf *out)
{
    strbuf_addf(out, "(%u input%s, precision ", er->support, er->support == 1 ? "" : "s");
    if (er->support)
        strbuf_addf(out, "%.2f", (double)er->hits / er->support);
    else
        strbuf_addch(out, '-');
    strbuf_addstr(out, explain_rule_weak(er, o) ? ", weak)" : ")");
}

void explain_render_weakness(const struct explain_rule *er, const char *feature,
                             const struct explain_options *o, struct strbuf *out)
{
    if (too_few_reaching(er, o))
        strbuf_addf(out, "%s%u input%s reaching %s match%s it (fewer than --min-reaching %u)",
                    er->hits ? "only " : "", er->hits, er->hits == 1 ? "" : "s", feature,
                    er->hits == 1 ? "es" : "", o->min_reaching);
    if (too_imprecise(er, o)) {
        if (too_few_reaching(er, o))
            strbuf_addstr(out, "; ");
        strbuf_addf(out, "precision %.2f (below --min-precision %u.%02u)",
                    er->support ? (double)er->hits / er->support : 0.0,
                    o->min_precision_pct / 100, o->min_precision_pct % 100);
    }
}

/* ---- rendering ------------------------------------------------------------------ */

void explain_render_condition(const struct kpath_features *kf, const struct dt_condition *c,
                              struct strbuf *out)
{
    strbuf_addstr(out, c->present ? "contains  " : "lacks  ");
    explain_render_pattern(kf, c->feature, out);
}

void explain_render_pattern(const struct kpath_features *kf, uint32_t feature, struct strbuf *out)
{
    pattern_render(kf->graph, kpath_feature_path(kf, feature), kf->len[feature], NULL, out, NULL);
}

void explain_render_rule(const struct kpath_features *kf, const struct dt_rule *r,
                         struct strbuf *out)
{
    if (!r->nconds)
        strbuf_addstr(out, "always");
    for (uint32_t i = 0; i < r->nconds; i++) {
        if (i)
            strbuf_addstr(out, "  and  ");
        explain_render_condition(kf, &r->conds[i], out);
    }
}

void explain_render_path(const struct kpath_features *kf, uint32_t feature, struct strbuf *out)
{
    const uint32_t *p = kpath_feature_path(kf, feature);
    for (uint32_t i = 0; i < kf->len[feature]; i++) {
        if (i)
            strbuf_addstr(out, " -> ");
        graph_node_name(kf->graph, p[i], out);
    }
}
