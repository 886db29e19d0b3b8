/* oracle_check: see oracle_check.h. */
#include "run/oracle_check.h"

#include <stdlib.h>
#include <string.h>

#include "parse/input_kpaths.h"
#include "graph/kpath.h"
#include "base/number.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* uthash allocates through our wrapper, which aborts instead of failing. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <uthash.h>

bool oracle_exits_parse(const char *text, struct oracle_exits *out)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char item[8];
        uint32_t code;
        if (n == 0 || n >= sizeof item)
            return false;
        memcpy(item, p, n);
        item[n] = '\0';
        if (!number_parse_u32(item, &code) || code > 255)
            return false;
        out->ok[code] = true;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

bool oracle_valid(const char *outcome, const struct oracle_exits *exits)
{
    uint32_t code;
    return strncmp(outcome, "exit:", 5) == 0 && number_parse_u32(outcome + 5, &code) &&
           code <= 255 && exits->ok[code];
}

/* A k-path seen in a rejected input, by its ids. */
struct seen {
    uint32_t *path;
    const struct run_record *smallest;
    size_t rejected;
    UT_hash_handle hh;
};

struct per_k {
    struct kpath_space space;
    struct kpath_set one, covered, accepted;
    struct seen *seen; /* uthash */
    const struct run_record *rec;
    bool valid;
};

static bool note_path(const uint32_t *path, void *ctx)
{
    struct per_k *pk = ctx;
    kpath_set_add(&pk->covered, path);
    if (pk->valid) {
        kpath_set_add(&pk->accepted, path);
        return true;
    }
    size_t bytes = pk->space.k * sizeof *path;
    struct seen *s;
    HASH_FIND(hh, pk->seen, path, bytes, s);
    if (!s) {
        s = xcalloc(1, sizeof *s);
        s->path = xmalloc(bytes);
        memcpy(s->path, path, bytes);
        s->smallest = pk->rec; /* inputs come smallest first */
        HASH_ADD_KEYPTR(hh, pk->seen, s->path, bytes, s);
    }
    s->rejected++;
    return true;
}

static const struct results *sorting;

static int by_size_then_path(const void *a, const void *b)
{
    const struct run_record *x = &sorting->records[*(const size_t *)a];
    const struct run_record *y = &sorting->records[*(const size_t *)b];
    if (x->input_size != y->input_size)
        return x->input_size < y->input_size ? -1 : 1;
    return strcmp(x->input, y->input);
}

static uint32_t sort_k;

static int by_path(const void *a, const void *b)
{
    const struct oracle_rejected_path *x = a, *y = b;
    for (uint32_t i = 0; i < sort_k; i++)
        if (x->path[i] != y->path[i])
            return x->path[i] < y->path[i] ? -1 : 1;
    return 0;
}

void oracle_check_compute(const struct results *r, const struct graph *g, uint32_t K,
                          const struct parse_options *po, const struct oracle_exits *exits,
                          struct oracle_report *out, struct diag_list *diags)
{
    memset(out, 0, sizeof *out);
    out->K = K;
    out->inputs = r->nrecords;
    const struct grammar *gr = g->grammar;
    /* Rules with a node in the graph (reachable ones), in grammar order. */
    uint32_t *slot = xcalloc(gr->nrules + 1, sizeof *slot);
    out->rules = xcalloc(gr->nrules + 1, sizeof *out->rules);
    for (uint32_t i = 0; i < gr->nrules; i++) {
        slot[i] = UINT32_MAX;
        if (g->rule_node[i] != NODE_NONE) {
            slot[i] = (uint32_t)out->nrules;
            out->rules[out->nrules++].rule = i;
        }
    }
    struct per_k *pks = xcalloc(K, sizeof *pks);
    struct kpath_set **ptrs = xcalloc(K, sizeof *ptrs);
    for (uint32_t j = 0; j < K; j++) {
        kpath_space_init(&pks[j].space, g, j + 1);
        kpath_set_init(&pks[j].one, &pks[j].space);
        kpath_set_init(&pks[j].covered, &pks[j].space);
        kpath_set_init(&pks[j].accepted, &pks[j].space);
        ptrs[j] = &pks[j].one;
    }
    size_t *order = xcalloc(r->nrecords + 1, sizeof *order);
    for (size_t i = 0; i < r->nrecords; i++)
        order[i] = i;
    sorting = r;
    qsort(order, r->nrecords, sizeof *order, by_size_then_path);
    sorting = NULL;
    bool *used = xcalloc(gr->nrules + 1, sizeof *used);
    struct strbuf text = STRBUF_INIT;
    for (size_t o = 0; o < r->nrecords; o++) {
        const struct run_record *rec = &r->records[order[o]];
        bool valid = oracle_valid(rec->outcome, exits);
        out->valid += valid;
        struct diag_list local = DIAG_LIST_INIT;
        for (uint32_t j = 0; j < K; j++)
            kpath_set_clear(&pks[j].one);
        bool ok = input_kpaths_as_ran(g, rec->input, rec->input_sha256, po, ptrs, K, &text,
                                      &local);
        if (!ok) {
            for (size_t d = 0; d < local.len; d++)
                diag_add(diags, DIAG_WARNING, local.items[d].file, local.items[d].line,
                         local.items[d].col, "%s (not measured)", local.items[d].message);
            diag_list_free(&local);
            continue;
        }
        diag_list_free(&local);
        out->measured++;
        for (uint32_t j = 0; j < K; j++) {
            pks[j].rec = rec;
            pks[j].valid = valid;
            kpath_set_foreach(&pks[j].one, note_path, &pks[j]);
        }
        /* The rules it uses: those of its 1-paths' nodes. */
        memset(used, 0, gr->nrules * sizeof *used);
        for (uint32_t s = 0; s < g->nsymbolic; s++) {
            uint32_t id = g->symbolic[s];
            if (kpath_set_contains(&pks[0].one, &id))
                used[g->nodes[id].rule] = true;
        }
        for (uint32_t i = 0; i < gr->nrules; i++)
            if (used[i] && slot[i] != UINT32_MAX) {
                out->rules[slot[i]].inputs++;
                out->rules[slot[i]].valid += valid;
            }
    }
    strbuf_free(&text);
    free(used);
    free(order);
    free(slot);

    out->ks = xcalloc(K, sizeof *out->ks);
    for (uint32_t j = 0; j < K; j++) {
        struct per_k *pk = &pks[j];
        struct oracle_k *row = &out->ks[j];
        row->k = j + 1;
        row->total = pk->space.total;
        row->covered = pk->covered.size;
        row->accepted = pk->accepted.size;
        struct seen *s, *tmp;
        row->rejected = xcalloc(HASH_COUNT(pk->seen) + 1, sizeof *row->rejected);
        HASH_ITER(hh, pk->seen, s, tmp) {
            HASH_DEL(pk->seen, s);
            if (kpath_set_contains(&pk->accepted, s->path)) {
                free(s->path);
            } else {
                struct oracle_rejected_path *rp = &row->rejected[row->nrejected++];
                rp->path = s->path;
                rp->smallest = s->smallest->input;
                rp->smallest_size = s->smallest->input_size;
                rp->rejected = s->rejected;
            }
            free(s);
        }
        sort_k = j + 1;
        qsort(row->rejected, row->nrejected, sizeof *row->rejected, by_path);
        kpath_set_free(&pk->one);
        kpath_set_free(&pk->covered);
        kpath_set_free(&pk->accepted);
        kpath_space_free(&pk->space);
    }
    free(ptrs);
    free(pks);
}

void oracle_report_free(struct oracle_report *rep)
{
    for (uint32_t j = 0; rep->ks && j < rep->K; j++) {
        for (size_t i = 0; i < rep->ks[j].nrejected; i++)
            free(rep->ks[j].rejected[i].path);
        free(rep->ks[j].rejected);
    }
    free(rep->ks);
    free(rep->rules);
    memset(rep, 0, sizeof *rep);
}
