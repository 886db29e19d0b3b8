#include "algo/decision_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

bool dt_row_has(const struct dt_data *d, uint32_t row, uint32_t col)
{
    uint32_t lo = d->row_start[row], hi = d->row_start[row + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->cols[mid] == col)
            return true;
        if (d->cols[mid] < col)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

const char *dt_criterion_name(enum dt_criterion c)
{
    return c == DT_ENTROPY ? "entropy" : "gini";
}

bool dt_criterion_parse(const char *name, enum dt_criterion *out)
{
    if (strcmp(name, "gini") == 0)
        *out = DT_GINI;
    else if (strcmp(name, "entropy") == 0)
        *out = DT_ENTROPY;
    else
        return false;
    return true;
}

/* Impurity of a node with pos and neg rows. */
static double impurity(enum dt_criterion c, uint32_t pos, uint32_t neg)
{
    double n = (double)pos + (double)neg;
    if (n == 0 || pos == 0 || neg == 0)
        return 0;
    double p = pos / n, q = neg / n;
    if (c == DT_ENTROPY)
        return -(p * log2(p) + q * log2(q));
    return 1 - p * p - q * q;
}

static uint32_t add_node(struct decision_tree *t, uint32_t npos, uint32_t nneg, uint32_t depth)
{
    if (t->nnodes == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
    }
    t->nodes[t->nnodes] = (struct dt_node){.feature = DT_LEAF, .absent = DT_LEAF,
                                           .present = DT_LEAF, .npos = npos, .nneg = nneg,
                                           .depth = depth};
    return t->nnodes++;
}

/* A node waiting to be split, with its rows at work[begin..end) and every
 * training row at the node at full[fbegin..fend). */
struct pending {
    uint32_t node, begin, end, fbegin, fend;
};

/* Move the rows of a[begin..end) that have column col to its end; returns
 * where they start. */
static uint32_t partition(const struct dt_data *d, uint32_t *a, uint32_t begin, uint32_t end,
                          uint32_t col)
{
    uint32_t lo = begin, hi = end;
    while (lo < hi) {
        if (dt_row_has(d, a[lo], col)) {
            uint32_t tmp = a[lo];
            a[lo] = a[--hi];
            a[hi] = tmp;
        } else {
            lo++;
        }
    }
    return lo;
}

/* Counting per column over every training row at a node, once a tie needs it. */
struct full_counts {
    uint32_t *all, *pos, *touched, ntouched;
    uint32_t size, npos;
    bool ready;
};

static void full_count(struct full_counts *fc, const struct dt_data *d, const bool *labels,
                       const uint32_t *full, uint32_t begin, uint32_t end)
{
    fc->size = end - begin;
    fc->npos = 0;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t row = full[i];
        fc->npos += labels[row];
        for (uint32_t j = d->row_start[row]; j < d->row_start[row + 1]; j++) {
            uint32_t f = d->cols[j];
            if (fc->all[f]++ == 0)
                fc->touched[fc->ntouched++] = f;
            fc->pos[f] += labels[row];
        }
    }
    fc->ready = true;
}

static void full_reset(struct full_counts *fc)
{
    for (uint32_t i = 0; i < fc->ntouched; i++)
        fc->all[fc->touched[i]] = fc->pos[fc->touched[i]] = 0;
    fc->ntouched = 0;
    fc->ready = false;
}

/* The better precision of the split's two sides on every training row. */
static double full_precision(const struct full_counts *fc, uint32_t f)
{
    uint32_t in = fc->all[f], in_pos = fc->pos[f];
    uint32_t out = fc->size - in, out_pos = fc->npos - in_pos;
    double a = in ? (double)in_pos / in : 0, b = out ? (double)out_pos / out : 0;
    return a > b ? a : b;
}

/* Is column f, of the same gain as `best`, the better split? */
static bool better_tie(const struct full_counts *fc, const struct dt_tiebreak *tb, uint32_t f,
                       uint32_t best)
{
    double pf = full_precision(fc, f), pb = full_precision(fc, best);
    if (pf > pb + 1e-12)
        return true;
    if (pf < pb - 1e-12)
        return false;
    /* The more specific: present in fewer of the rows. */
    if (fc->all[f] != fc->all[best])
        return fc->all[f] < fc->all[best];
    if (tb && tb->rank && tb->rank[f] != tb->rank[best])
        return tb->rank[f] < tb->rank[best];
    return f < best;
}

void decision_tree_learn(struct decision_tree *t, const struct dt_data *d, const bool *labels,
                         const uint32_t *rows, uint32_t n, const struct dt_params *p)
{
    decision_tree_learn_tb(t, d, labels, rows, n, p, NULL);
}

void decision_tree_learn_tb(struct decision_tree *t, const struct dt_data *d, const bool *labels,
                            const uint32_t *rows, uint32_t n, const struct dt_params *p,
                            const struct dt_tiebreak *tb)
{
    memset(t, 0, sizeof *t);
    uint32_t *work = xcalloc(n ? n : 1, sizeof *work);
    memcpy(work, rows, (size_t)n * sizeof *work);
    const uint32_t *full_rows = tb && tb->rows ? tb->rows : rows;
    uint32_t nfull = tb && tb->rows ? tb->n : n;
    uint32_t *full = xcalloc(nfull ? nfull : 1, sizeof *full);
    memcpy(full, full_rows, (size_t)nfull * sizeof *full);
    struct full_counts fc = {0};
    size_t ncols1 = d->ncols ? d->ncols : 1;
    fc.all = xcalloc(ncols1, sizeof *fc.all);
    fc.pos = xcalloc(ncols1, sizeof *fc.pos);
    fc.touched = xcalloc(ncols1, sizeof *fc.touched);
    uint32_t npos = 0;
    for (uint32_t i = 0; i < n; i++)
        npos += labels[rows[i]];
    add_node(t, npos, n - npos, 0);

    /* Per feature: rows at the node that have it, by label; `touched` lists
     * the features with a count, so resetting costs what counting did. */
    uint32_t *cnt_pos = xcalloc(d->ncols ? d->ncols : 1, sizeof *cnt_pos);
    uint32_t *cnt_all = xcalloc(d->ncols ? d->ncols : 1, sizeof *cnt_all);
    uint32_t *touched = xcalloc(d->ncols ? d->ncols : 1, sizeof *touched);
    uint32_t min_split = p->min_samples_split < 2 ? 2 : p->min_samples_split;

    struct pending *stack = xcalloc(64, sizeof *stack);
    size_t nstack = 0, stack_cap = 64;
    stack[nstack++] = (struct pending){0, 0, n, 0, nfull};
    while (nstack) {
        struct pending cur = stack[--nstack];
        struct dt_node *node = &t->nodes[cur.node];
        uint32_t size = cur.end - cur.begin, pos = node->npos, neg = node->nneg;
        if (node->depth >= p->max_depth || size < min_split || pos == 0 || neg == 0)
            continue;
        uint32_t ntouched = 0;
        for (uint32_t i = cur.begin; i < cur.end; i++) {
            uint32_t row = work[i];
            bool label = labels[row];
            for (uint32_t j = d->row_start[row]; j < d->row_start[row + 1]; j++) {
                uint32_t f = d->cols[j];
                if (cnt_all[f]++ == 0)
                    touched[ntouched++] = f;
                cnt_pos[f] += label;
            }
        }
        double parent = impurity(p->criterion, pos, neg);
        double best_gain = 0;
        uint32_t best = DT_LEAF;
        for (uint32_t i = 0; i < ntouched; i++) {
            uint32_t f = touched[i];
            uint32_t in = cnt_all[f], in_pos = cnt_pos[f];
            if (in == size)
                continue;
            uint32_t out_pos = pos - in_pos, out_neg = (size - in) - out_pos;
            double after = ((double)in * impurity(p->criterion, in_pos, in - in_pos) +
                            (double)(size - in) * impurity(p->criterion, out_pos, out_neg)) /
                           size;
            double gain = parent - after;
            if (gain <= 1e-12)
                continue;
            bool take = best == DT_LEAF || gain > best_gain + 1e-12;
            if (!take && gain >= best_gain - 1e-12) {
                /* Equal gains (up to rounding): what every training row says. */
                if (!fc.ready)
                    full_count(&fc, d, labels, full, cur.fbegin, cur.fend);
                take = better_tie(&fc, tb, f, best);
            }
            if (take) {
                best = f;
                best_gain = gain;
            }
        }
        full_reset(&fc);
        for (uint32_t i = 0; i < ntouched; i++)
            cnt_all[touched[i]] = cnt_pos[touched[i]] = 0;
        if (best == DT_LEAF)
            continue;
        /* Partition the rows: absent first, then present. */
        uint32_t lo = partition(d, work, cur.begin, cur.end, best);
        uint32_t flo = partition(d, full, cur.fbegin, cur.fend, best);
        uint32_t absent_pos = 0, present_pos = 0;
        for (uint32_t i = cur.begin; i < lo; i++)
            absent_pos += labels[work[i]];
        for (uint32_t i = lo; i < cur.end; i++)
            present_pos += labels[work[i]];
        uint32_t depth = node->depth + 1;
        uint32_t a = add_node(t, absent_pos, (lo - cur.begin) - absent_pos, depth);
        uint32_t b = add_node(t, present_pos, (cur.end - lo) - present_pos, depth);
        node = &t->nodes[cur.node]; /* add_node may have moved the array */
        node->feature = best;
        node->absent = a;
        node->present = b;
        if (nstack + 2 > stack_cap) {
            stack_cap *= 2;
            stack = xrealloc(stack, stack_cap * sizeof *stack);
        }
        stack[nstack++] = (struct pending){b, lo, cur.end, flo, cur.fend};
        stack[nstack++] = (struct pending){a, cur.begin, lo, cur.fbegin, flo};
    }
    free(stack);
    free(full);
    free(fc.all);
    free(fc.pos);
    free(fc.touched);
    free(cnt_pos);
    free(cnt_all);
    free(touched);
    free(work);
}

void decision_tree_free(struct decision_tree *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

bool decision_tree_predict(const struct decision_tree *t, const struct dt_data *d, uint32_t row)
{
    uint32_t i = 0;
    while (t->nodes[i].feature != DT_LEAF)
        i = dt_row_has(d, row, t->nodes[i].feature) ? t->nodes[i].present : t->nodes[i].absent;
    return dt_node_predicts(&t->nodes[i]);
}

bool decision_tree_predict_depth(const struct decision_tree *t, const struct dt_data *d,
                                 uint32_t row, uint32_t depth)
{
    uint32_t i = 0;
    while (t->nodes[i].feature != DT_LEAF && t->nodes[i].depth < depth)
        i = dt_row_has(d, row, t->nodes[i].feature) ? t->nodes[i].present : t->nodes[i].absent;
    return dt_node_predicts(&t->nodes[i]);
}

size_t decision_tree_rules(const struct decision_tree *t, struct dt_rule **rules)
{
    *rules = NULL;
    size_t n = 0, cap = 0;
    if (!t->nnodes)
        return 0;
    /* Depth-first with an explicit stack; the path to the current node is
     * path[0..depth), so a rule is a copy of it. */
    uint32_t max_depth = 0;
    for (uint32_t i = 0; i < t->nnodes; i++)
        if (t->nodes[i].depth > max_depth)
            max_depth = t->nodes[i].depth;
    struct dt_condition *path = xcalloc((size_t)max_depth + 1, sizeof *path);
    uint32_t *stack = xcalloc((size_t)t->nnodes, sizeof *stack);
    struct dt_condition *via = xcalloc((size_t)t->nnodes, sizeof *via);
    size_t nstack = 0;
    stack[nstack++] = 0;
    while (nstack) {
        uint32_t i = stack[--nstack];
        const struct dt_node *node = &t->nodes[i];
        if (node->depth)
            path[node->depth - 1] = via[i];
        if (node->feature == DT_LEAF) {
            if (!dt_node_predicts(node))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 8;
                *rules = xrealloc(*rules, cap * sizeof **rules);
            }
            struct dt_rule *r = &(*rules)[n++];
            r->nconds = node->depth;
            r->conds = xcalloc(node->depth ? node->depth : 1, sizeof *r->conds);
            memcpy(r->conds, path, node->depth * sizeof *r->conds);
            r->leaf = i;
            continue;
        }
        via[node->present] = (struct dt_condition){node->feature, true};
        via[node->absent] = (struct dt_condition){node->feature, false};
        stack[nstack++] = node->present;
        stack[nstack++] = node->absent;
    }
    free(path);
    free(stack);
    free(via);
    return n;
}

void dt_rules_free(struct dt_rule *rules, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(rules[i].conds);
    free(rules);
}

bool dt_rule_matches(const struct dt_rule *r, const struct dt_data *d, uint32_t row)
{
    for (uint32_t i = 0; i < r->nconds; i++)
        if (dt_row_has(d, row, r->conds[i].feature) != r->conds[i].present)
            return false;
    return true;
}

uint32_t *dt_balanced_sample(const bool *labels, const uint32_t *rows, uint32_t n,
                             struct rng *rng, uint32_t *out_n)
{
    uint32_t npos = 0;
    for (uint32_t i = 0; i < n; i++)
        npos += labels[rows[i]];
    uint32_t nneg = n - npos;
    bool major = npos > nneg; /* the label of the larger class */
    uint32_t keep = npos < nneg ? npos : nneg, nmajor = major ? npos : nneg;
    /* Positions (in rows) of the larger class; a partial Fisher-Yates shuffle
     * picks `keep` of them, which are then marked. */
    uint32_t *pos_of_major = xcalloc(nmajor ? nmajor : 1, sizeof *pos_of_major);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (labels[rows[i]] == major)
            pos_of_major[m++] = i;
    for (uint32_t i = 0; i < keep; i++) {
        uint32_t j = i + (uint32_t)rng_below(rng, nmajor - i);
        uint32_t tmp = pos_of_major[i];
        pos_of_major[i] = pos_of_major[j];
        pos_of_major[j] = tmp;
    }
    bool *take = xcalloc(n ? n : 1, sizeof *take);
    for (uint32_t i = 0; i < keep; i++)
        take[pos_of_major[i]] = true;
    uint32_t *out = xcalloc(2 * (size_t)keep + 1, sizeof *out);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (labels[rows[i]] != major || take[i])
            out[k++] = rows[i];
    free(take);
    free(pos_of_major);
    *out_n = k;
    return out;
}

double dt_accuracy(const struct dt_confusion *c)
{
    uint64_t n = c->tp + c->fp + c->tn + c->fn;
    return n ? (double)(c->tp + c->tn) / (double)n : NAN;
}

double dt_precision(const struct dt_confusion *c)
{
    return c->tp + c->fp ? (double)c->tp / (double)(c->tp + c->fp) : NAN;
}

double dt_recall(const struct dt_confusion *c)
{
    return c->tp + c->fn ? (double)c->tp / (double)(c->tp + c->fn) : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double dt_median(double *v, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            v[m++] = v[i];
    if (!m)
        return NAN;
    qsort(v, m, sizeof *v, cmp_double);
    return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}
