#include "suite/reduce.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/xalloc.h"

/* Key: k, then the k node ids (k = 0: the feature index). */
struct reduce_item_entry {
    UT_hash_handle hh;
    uint32_t id;
    uint32_t keylen; /* in uint32_t */
    uint32_t key[];
};

void reduce_init(struct reduce *r, uint32_t max_k)
{
    memset(r, 0, sizeof *r);
    r->max_k = max_k;
}

void reduce_free(struct reduce *r)
{
    struct reduce_item_entry *e, *tmp;
    HASH_ITER(hh, r->index, e, tmp) {
        HASH_DEL(r->index, e);
        free(e);
    }
    for (uint32_t i = 0; i < r->ninputs; i++) {
        free(r->inputs[i].name);
        free(r->inputs[i].items);
    }
    free(r->inputs);
    free(r->items);
    free(r->path_ids);
    memset(r, 0, sizeof *r);
}

static uint32_t intern(struct reduce *r, uint32_t k, const uint32_t *ids, uint32_t feature)
{
    uint32_t n = k ? k + 1 : 2;
    uint32_t key[KPATH_MAX_K + 1]; /* 4 KB at most */
    key[0] = k;
    if (k)
        memcpy(key + 1, ids, (size_t)k * sizeof *ids);
    else
        key[1] = feature;
    struct reduce_item_entry *e;
    HASH_FIND(hh, r->index, key, n * sizeof *key, e);
    if (e)
        return e->id;
    e = xmalloc(sizeof *e + n * sizeof *key);
    e->keylen = n;
    memcpy(e->key, key, n * sizeof *key);
    e->id = r->nitems;
    HASH_ADD(hh, r->index, key, n * sizeof *key, e);
    return e->id;
}

struct collect {
    struct reduce *r;
    uint32_t k;
    uint32_t *ids;
    size_t len, cap;
};

static bool collect_path(const uint32_t *path, void *ctx)
{
    struct collect *c = ctx;
    struct reduce *r = c->r;
    uint32_t before = r->nitems;
    uint32_t id = intern(r, c->k, path, 0);
    if (id == before) { /* new: record it */
        r->items = xgrow(r->items, &r->items_cap, (size_t)r->nitems + 1, sizeof *r->items);
        r->path_ids = xgrow(r->path_ids, &r->path_ids_cap, r->npath_ids + c->k,
                            sizeof *r->path_ids);
        r->items[r->nitems++] = (struct reduce_item){c->k, (uint32_t)r->npath_ids};
        memcpy(r->path_ids + r->npath_ids, path, (size_t)c->k * sizeof *path);
        r->npath_ids += c->k;
    }
    c->ids = xgrow(c->ids, &c->cap, c->len + 1, sizeof *c->ids);
    c->ids[c->len++] = id;
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t reduce_add_input(struct reduce *r, const char *name, uint64_t bytes,
                          const struct kpath_set *const *sets, const uint32_t *features,
                          uint32_t nfeatures)
{
    struct collect c = {.r = r};
    for (uint32_t k = 1; sets && k <= r->max_k; k++) {
        if (!sets[k - 1])
            continue;
        c.k = k;
        kpath_set_foreach(sets[k - 1], collect_path, &c);
    }
    for (uint32_t i = 0; i < nfeatures; i++) {
        uint32_t before = r->nitems;
        uint32_t id = intern(r, 0, NULL, features[i]);
        if (id == before) {
            r->items = xgrow(r->items, &r->items_cap, (size_t)r->nitems + 1, sizeof *r->items);
            r->items[r->nitems++] = (struct reduce_item){0, features[i]};
        }
        c.ids = xgrow(c.ids, &c.cap, c.len + 1, sizeof *c.ids);
        c.ids[c.len++] = id;
    }
    if (c.len) /* qsort(NULL, 0) is undefined: an input may cover nothing */
        qsort(c.ids, c.len, sizeof *c.ids, cmp_u32);
    size_t m = 0; /* features may repeat */
    for (size_t i = 0; i < c.len; i++)
        if (m == 0 || c.ids[m - 1] != c.ids[i])
            c.ids[m++] = c.ids[i];
    r->inputs = xgrow(r->inputs, &r->inputs_cap, (size_t)r->ninputs + 1, sizeof *r->inputs);
    r->inputs[r->ninputs] = (struct reduce_input){xstrdup(name), bytes, c.ids, (uint32_t)m};
    return r->ninputs++;
}

static void instance_of(const struct reduce *r, struct setcover_instance *in, uint64_t **cost,
                        const uint32_t ***elements, uint32_t **nelems)
{
    *cost = xmalloc(((size_t)r->ninputs + 1) * sizeof **cost);
    *elements = xmalloc(((size_t)r->ninputs + 1) * sizeof **elements);
    *nelems = xmalloc(((size_t)r->ninputs + 1) * sizeof **nelems);
    for (uint32_t i = 0; i < r->ninputs; i++) {
        (*cost)[i] = r->inputs[i].bytes;
        (*elements)[i] = r->inputs[i].items;
        (*nelems)[i] = r->inputs[i].nitems;
    }
    *in = (struct setcover_instance){r->ninputs, r->nitems, *cost, *elements, *nelems};
}

void reduce_solve(const struct reduce *r, const struct setcover_options *o,
                  struct setcover_result *res)
{
    struct setcover_instance in;
    uint64_t *cost;
    const uint32_t **elements;
    uint32_t *nelems;
    instance_of(r, &in, &cost, &elements, &nelems);
    setcover_solve(&in, o, res);
    free(cost);
    free(elements);
    free(nelems);
}

/* How many inputs of the subset cover each item. */
static uint32_t *counts_of(const struct reduce *r, const uint32_t *subset, uint32_t n)
{
    uint32_t *counts = xcalloc((size_t)r->nitems + 1, sizeof *counts);
    uint32_t total = subset ? n : r->ninputs;
    for (uint32_t s = 0; s < total; s++) {
        const struct reduce_input *in = &r->inputs[subset ? subset[s] : s];
        for (uint32_t j = 0; j < in->nitems; j++)
            counts[in->items[j]]++;
    }
    return counts;
}

uint32_t *reduce_only(const struct reduce *r, const uint32_t *subset, uint32_t n,
                      uint32_t which, uint32_t *count)
{
    uint32_t *counts = counts_of(r, subset, n);
    const struct reduce_input *in = &r->inputs[which];
    uint32_t *only = xmalloc(((size_t)in->nitems + 1) * sizeof *only);
    uint32_t m = 0;
    for (uint32_t j = 0; j < in->nitems; j++)
        if (counts[in->items[j]] == 1)
            only[m++] = in->items[j];
    free(counts);
    *count = m;
    return only;
}

void reduce_coverage(const struct reduce *r, const uint32_t *subset, uint32_t n,
                     uint64_t *per_kind)
{
    uint32_t *counts = counts_of(r, subset, n);
    memset(per_kind, 0, ((size_t)r->max_k + 1) * sizeof *per_kind);
    for (uint32_t i = 0; i < r->nitems; i++)
        if (counts[i])
            per_kind[r->items[i].k]++;
    free(counts);
}
