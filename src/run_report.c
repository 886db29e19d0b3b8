#include "run_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kpath.h"
#include "rng.h"
#include "samples.h"
#include "sha256.h"
#include "xalloc.h"

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

/* Counting the k-paths of one set that another lacks. */
struct new_count {
    const struct kpath_set *have;
    uint64_t n;
};

static bool count_new(const uint32_t *path, void *ctx)
{
    struct new_count *nc = ctx;
    nc->n += !kpath_set_contains(nc->have, path);
    return true;
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

void run_report_compute(const struct results *r, const struct graph *g, uint32_t K,
                        const struct parse_options *po, uint64_t seed, struct run_report *out,
                        struct diag_list *diags)
{
    run_report_outcomes(r, out);
    out->K = K;
    out->ks = xcalloc(K, sizeof *out->ks);
    struct kpath_space *spaces = xcalloc(K, sizeof *spaces);
    struct kpath_set *totals = xcalloc(K, sizeof *totals);
    for (uint32_t j = 0; j < K; j++) {
        kpath_space_init(&spaces[j], g, j + 1);
        kpath_set_init(&totals[j], &spaces[j]);
        out->ks[j].k = j + 1;
        out->ks[j].total = spaces[j].saturated ? UINT64_MAX : spaces[j].total;
    }
    /* Per measured input: its record and one k-path set per k. */
    size_t *records = xcalloc(r->nrecords + 1, sizeof *records);
    struct kpath_set *sets = xcalloc((r->nrecords + 1) * (size_t)K, sizeof *sets);
    struct kpath_set **ptrs = xcalloc(K, sizeof *ptrs);
    struct strbuf text = STRBUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < r->nrecords; i++) {
        const struct run_record *rec = &r->records[i];
        struct diag_list local = DIAG_LIST_INIT;
        struct forest *f = NULL;
        if (samples_read(rec->input, po->max_input_size, &text, &local)) {
            char hex[SHA256_HEX_SIZE];
            sha256_hex(text.data ? text.data : "", text.len, hex);
            if (strcmp(hex, rec->input_sha256) != 0)
                diag_add(&local, DIAG_ERROR, rec->input, 0, 0, "changed since it ran");
            else
                f = parse_text(g, rec->input, text.data ? text.data : "", text.len, po, &local);
        }
        if (!f) {
            for (size_t d = 0; d < local.len; d++)
                diag_add(diags, DIAG_WARNING, local.items[d].file, local.items[d].line,
                         local.items[d].col, "%s (not in the k-path report)",
                         local.items[d].message);
            diag_list_free(&local);
            out->not_measured++;
            continue;
        }
        diag_list_free(&local);
        for (uint32_t j = 0; j < K; j++) {
            kpath_set_init(&sets[n * K + j], &spaces[j]);
            ptrs[j] = &sets[n * K + j];
        }
        forest_add_kpaths_many(f, ptrs, K);
        forest_free(f);
        for (uint32_t j = 0; j < K; j++)
            kpath_set_union(&totals[j], &sets[n * K + j]);
        records[n++] = i;
    }
    strbuf_free(&text);
    out->measured = n;

    double *x = xcalloc(n + 1, sizeof *x), *y = xcalloc(n + 1, sizeof *y);
    size_t *chosen = xcalloc(n + 1, sizeof *chosen);
    uint8_t *seen = xcalloc((size_t)r->nfeatures + 1, 1);
    bool *taken = xcalloc(n + 1, sizeof *taken);
    struct rng rng;
    for (uint32_t j = 0; j < K; j++) {
        struct run_report_k *row = &out->ks[j];
        row->covered = totals[j].size;
        for (size_t i = 0; i < n; i++) {
            x[i] = (double)sets[i * K + j].size;
            y[i] = (double)r->records[records[i]].nfeatures;
        }
        row->correlation = run_report_pearson(x, y, n);
        /* The greedy suite. */
        struct kpath_set have;
        kpath_set_init(&have, &spaces[j]);
        memset(taken, 0, n + 1);
        size_t m = 0;
        while (have.size < totals[j].size) {
            size_t best = n;
            uint64_t best_new = 0;
            for (size_t i = 0; i < n; i++) {
                if (taken[i])
                    continue;
                struct new_count nc = {.have = &have};
                kpath_set_foreach(&sets[i * K + j], count_new, &nc);
                if (nc.n > best_new) {
                    best_new = nc.n;
                    best = i;
                }
            }
            if (best == n)
                break;
            taken[best] = true;
            chosen[m++] = best;
            kpath_set_union(&have, &sets[best * K + j]);
        }
        kpath_set_free(&have);
        row->suite_size = m;
        row->suite_features = features_of(r, records, chosen, m, seen);
        /* As many inputs at random: a partial Fisher-Yates shuffle per draw. */
        rng_seed(&rng, seed + j);
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
            sum += (double)features_of(r, records, chosen, m, seen);
        }
        row->random_features = m ? sum / RUN_REPORT_DRAWS : 0;
    }
    free(x);
    free(y);
    free(chosen);
    free(seen);
    free(taken);
    for (size_t i = 0; i < n * K; i++)
        kpath_set_free(&sets[i]);
    free(sets);
    free(ptrs);
    free(records);
    for (uint32_t j = 0; j < K; j++) {
        kpath_set_free(&totals[j]);
        kpath_space_free(&spaces[j]);
    }
    free(totals);
    free(spaces);
}

void run_report_free(struct run_report *rep)
{
    free(rep->classes);
    free(rep->ks);
    memset(rep, 0, sizeof *rep);
}
