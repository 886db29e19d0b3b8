#include "run/run_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/input_kpaths.h"
#include "graph/kpath.h"
#include "base/rng.h"
#include "base/sha256.h"
#include "base/xalloc.h"

double run_report_pearson(const double *x, const double *y, size_t n)
{
    if (n < 2)
        return NAN;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx == 0 || syy == 0)
        return NAN;
    return sxy / sqrt(sxx * syy);
}

static int compare_classes(const void *a, const void *b)
{
    const struct run_report_class *x = a, *y = b;
    bool ok_x = strcmp(x->outcome, "exit:0") == 0, ok_y = strcmp(y->outcome, "exit:0") == 0;
    if (ok_x != ok_y)
        return ok_x ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->outcome, y->outcome);
}

void run_report_outcomes(const struct results *r, struct run_report *out)
{
    memset(out, 0, sizeof *out);
    out->runs = r->nrecords;
    out->features = r->nfeatures;
    out->classes = xcalloc(r->nrecords + 1, sizeof *out->classes);
    for (size_t i = 0; i < r->nrecords; i++) {
        const struct run_record *rec = &r->records[i];
        struct run_report_class *cl = NULL;
        for (size_t j = 0; j < out->nclasses && !cl; j++)
            if (strcmp(out->classes[j].outcome, rec->outcome) == 0)
                cl = &out->classes[j];
        if (!cl) {
            cl = &out->classes[out->nclasses++];
            cl->outcome = rec->outcome;
            cl->smallest = rec->input;
            cl->smallest_size = rec->input_size;
        } else if (rec->input_size < cl->smallest_size ||
                   (rec->input_size == cl->smallest_size && strcmp(rec->input, cl->smallest) < 0)) {
            cl->smallest = rec->input;
            cl->smallest_size = rec->input_size;
        }
        cl->count++;
    }
    qsort(out->classes, out->nclasses, sizeof *out->classes, compare_classes);
}

/* The k-paths of one input for one k, as paths (k node ids each): small
 * however large the grammar's space is. */
struct path_list {
    uint32_t *ids; /* n * k */
    size_t n, cap;
    uint32_t k;
};

static bool collect_path(const uint32_t *path, void *ctx)
{
    struct path_list *l = ctx;
    l->ids = xgrow(l->ids, &l->cap, (l->n + 1) * l->k, sizeof *l->ids);
    memcpy(l->ids + l->n * l->k, path, l->k * sizeof *path);
    l->n++;
    return true;
}

static size_t new_paths(const struct path_list *l, const struct kpath_set *have)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += !kpath_set_contains(have, l->ids + i * l->k);
    return n;
}

/* Distinct features of the runs chosen[0..n). */
static size_t features_of(const struct results *r, const size_t *records, const size_t *chosen,
                          size_t n, uint8_t *seen)
{
    memset(seen, 0, r->nfeatures + 1);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct run_record *rec = &r->records[records[chosen[i]]];
        for (uint32_t f = 0; f < rec->nfeatures; f++)
            if (!seen[rec->features[f]]) {
                seen[rec->features[f]] = 1;
                count++;
            }
    }
    return count;
}

/* A max-heap of (gain bound, input) for the lazy greedy choice: an input's
 * gain only shrinks as the suite grows, so a bound that still beats every
 * other bound once recomputed is the best choice.  Ties go to the earlier
 * input, which makes the suite deterministic. */
struct gain {
    size_t bound, input;
};

static bool gain_before(struct gain a, struct gain b)
{
    return a.bound > b.bound || (a.bound == b.bound && a.input < b.input);
}

static void heap_push(struct gain *h, size_t *n, struct gain g)
{
    size_t i = (*n)++;
    for (; i && gain_before(g, h[(i - 1) / 2]); i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = g;
}

static struct gain heap_pop(struct gain *h, size_t *n)
{
    struct gain top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && gain_before(h[c + 1], h[c]))
            c++;
        if (!gain_before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = last;
    return top;
}

/* Greedy k-path suite over lists[0..n): indices into chosen, how many. */
static size_t greedy_suite(const struct path_list *lists, size_t n, const struct kpath_space *sp,
                           uint64_t target, size_t *chosen)
{
    struct gain *heap = xcalloc(n + 1, sizeof *heap);
    size_t nheap = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        if (lists[i].n)
            heap_push(heap, &nheap, (struct gain){lists[i].n, i});
    struct kpath_set have;
    kpath_set_init(&have, sp);
    while (have.size < target && nheap) {
        struct gain top = heap_pop(heap, &nheap);
        top.bound = new_paths(&lists[top.input], &have);
        if (!top.bound)
            continue;
        if (nheap && gain_before(heap[0], top)) {
            heap_push(heap, &nheap, top);
            continue;
        }
        chosen[m++] = top.input;
        const struct path_list *l = &lists[top.input];
        for (size_t i = 0; i < l->n; i++)
            kpath_set_add(&have, l->ids + i * l->k);
    }
    kpath_set_free(&have);
    free(heap);
    return m;
}

/* The report's state between steps: phase 1 measures one input per unit
 * (in path order), phase 2 does one k per unit. */
struct run_report_job {
    const struct results *r;
    const struct graph *g;
    uint32_t K;
    struct parse_options po;
    uint64_t seed;
    struct run_report *out;
    struct kpath_space *spaces;
    struct kpath_set *totals, *one, **ptrs;
    size_t *records;          /* per measured input: its record */
    struct path_list *lists;  /* per measured input and k: its k-paths */
    size_t *order;            /* records in input path order */
    size_t next;              /* phase 1: the next of order */
    uint32_t next_k;          /* phase 2: the next k - 1 */
    size_t n;                 /* measured so far */
    struct strbuf text;
};

struct run_report_job *run_report_begin(const struct results *r, const struct graph *g,
                                        uint32_t K, const struct parse_options *po,
                                        uint64_t seed, struct run_report *out)
{
    struct run_report_job *j = xcalloc(1, sizeof *j);
    j->r = r;
    j->g = g;
    j->K = K;
    j->po = *po;
    j->seed = seed;
    j->out = out;
    run_report_outcomes(r, out);
    out->K = K;
    out->ks = xcalloc(K, sizeof *out->ks);
    j->spaces = xcalloc(K, sizeof *j->spaces);
    j->totals = xcalloc(K, sizeof *j->totals);
    j->one = xcalloc(K, sizeof *j->one);
    j->ptrs = xcalloc(K, sizeof *j->ptrs);
    for (uint32_t k = 0; k < K; k++) {
        kpath_space_init(&j->spaces[k], g, k + 1);
        kpath_set_init(&j->totals[k], &j->spaces[k]);
        out->ks[k].k = k + 1;
        out->ks[k].total = j->spaces[k].saturated ? UINT64_MAX : j->spaces[k].total;
        out->ks[k].correlation = NAN;
    }
    j->records = xcalloc(r->nrecords + 1, sizeof *j->records);
    j->lists = xcalloc((r->nrecords + 1) * (size_t)K, sizeof *j->lists);
    /* In input path order: the suite and the random draws then do not
     * depend on the order in which parallel runs ended (nor on merging). */
    j->order = results_input_order(r);
    return j;
}

/* Phase 1: the k-paths of the input of record i (or a warning). */
static void measure_input(struct run_report_job *j, size_t i, struct diag_list *diags)
{
    const struct run_record *rec = &j->r->records[i];
    uint32_t K = j->K;
    struct diag_list local = DIAG_LIST_INIT;
    for (uint32_t k = 0; k < K; k++) {
        kpath_set_init(&j->one[k], &j->spaces[k]);
        j->ptrs[k] = &j->one[k];
    }
    bool ok = input_kpaths_as_ran(j->g, rec->input, rec->input_sha256, &j->po, j->ptrs, K,
                                  &j->text, &local);
    if (!ok) {
        for (size_t d = 0; d < local.len; d++)
            diag_add(diags, DIAG_WARNING, local.items[d].file, local.items[d].line,
                     local.items[d].col, "%s (not in the k-path report)", local.items[d].message);
        diag_list_free(&local);
        for (uint32_t k = 0; k < K; k++)
            kpath_set_free(&j->one[k]);
        j->out->not_measured++;
        return;
    }
    diag_list_free(&local);
    for (uint32_t k = 0; k < K; k++) {
        struct path_list *l = &j->lists[j->n * K + k];
        l->k = k + 1;
        kpath_set_foreach(&j->one[k], collect_path, l);
        kpath_set_union(&j->totals[k], &j->one[k]);
        kpath_set_free(&j->one[k]);
    }
    j->records[j->n++] = i;
}

/* Phase 2: the row of one k. */
static void report_k(struct run_report_job *j, uint32_t k)
{
    const struct results *r = j->r;
    size_t n = j->n;
    double *x = xcalloc(n + 1, sizeof *x), *y = xcalloc(n + 1, sizeof *y);
    size_t *chosen = xcalloc(n + 1, sizeof *chosen);
    uint8_t *seen = xcalloc((size_t)r->nfeatures + 1, 1);
    struct path_list *column = xcalloc(n + 1, sizeof *column);
    struct rng rng;
    struct run_report_k *row = &j->out->ks[k];
    row->covered = j->totals[k].size;
    for (size_t i = 0; i < n; i++) {
        column[i] = j->lists[i * j->K + k];
        x[i] = (double)column[i].n;
        y[i] = (double)r->records[j->records[i]].nfeatures;
    }
    row->correlation = run_report_pearson(x, y, n);
    size_t m = greedy_suite(column, n, &j->spaces[k], j->totals[k].size, chosen);
    row->suite_size = m;
    row->suite_features = features_of(r, j->records, chosen, m, seen);
    /* As many inputs at random: a partial Fisher-Yates shuffle per draw. */
    rng_seed(&rng, j->seed + k);
    double sum = 0;
    for (int d = 0; d < RUN_REPORT_DRAWS && m; d++) {
        for (size_t i = 0; i < n; i++)
            chosen[i] = i;
        for (size_t i = 0; i < m; i++) {
            size_t pick = i + (size_t)rng_below(&rng, n - i);
            size_t t = chosen[i];
            chosen[i] = chosen[pick];
            chosen[pick] = t;
        }
        sum += (double)features_of(r, j->records, chosen, m, seen);
    }
    row->random_features = m ? sum / RUN_REPORT_DRAWS : 0;
    free(x);
    free(y);
    free(chosen);
    free(seen);
    free(column);
}

bool run_report_step(struct run_report_job *j, size_t max_units, struct diag_list *diags)
{
    for (size_t u = 0; u < max_units; u++) {
        if (j->next < j->r->nrecords) {
            measure_input(j, j->order[j->next++], diags);
            if (j->next == j->r->nrecords)
                j->out->measured = j->n;
        } else if (j->next_k < j->K) {
            j->out->measured = j->n;
            report_k(j, j->next_k++);
        } else {
            j->out->measured = j->n;
            return false;
        }
    }
    return j->next < j->r->nrecords || j->next_k < j->K;
}

void run_report_progress(const struct run_report_job *j, size_t *done, size_t *total)
{
    *done = j->next + j->next_k;
    *total = j->r->nrecords + j->K;
}

void run_report_job_free(struct run_report_job *j)
{
    if (!j)
        return;
    strbuf_free(&j->text);
    free(j->order);
    for (size_t i = 0; i < j->n * j->K; i++)
        free(j->lists[i].ids);
    free(j->lists);
    free(j->records);
    free(j->ptrs);
    free(j->one);
    for (uint32_t k = 0; k < j->K; k++) {
        kpath_set_free(&j->totals[k]);
        kpath_space_free(&j->spaces[k]);
    }
    free(j->totals);
    free(j->spaces);
    free(j);
}

void run_report_compute(const struct results *r, const struct graph *g, uint32_t K,
                        const struct parse_options *po, uint64_t seed, struct run_report *out,
                        struct diag_list *diags)
{
    struct run_report_job *j = run_report_begin(r, g, K, po, seed, out);
    while (run_report_step(j, SIZE_MAX, diags))
        ;
    run_report_job_free(j);
}

void run_report_free(struct run_report *rep)
{
    free(rep->classes);
    free(rep->ks);
    memset(rep, 0, sizeof *rep);
}
