#include "chain_sets.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define NONE UINT32_MAX
#define EMPTY_KEY UINT64_MAX

/* An entry of a set is value << 2 | kind: an inner chain, a top chain (the
 * value is a chain id) or a mark (the value is the caller's label).  Chain
 * ids stay below 2^30: so many chains would take more than 4 GiB. */
#define ENTRY_INNER 0u
#define ENTRY_TOP 1u
#define ENTRY_MARK 2u
#define ENTRY(value, kind) ((uint32_t)(value) << 2 | (kind))
#define ENTRY_KIND(entry) ((entry) & 3u)
#define ENTRY_VALUE(entry) ((entry) >> 2)

/* A memo: 64-bit keys to 32-bit values, open addressing. */
struct memo {
    uint64_t *keys;
    uint32_t *values;
    size_t n, cap;
};

struct chain_sets {
    uint32_t maxk;
    /* Chains: maxk nodes each (the first `len` used), interned. */
    uint32_t *chain_nodes, *chain_len;
    size_t nchains, chain_nodes_cap, chain_len_cap;
    uint32_t *chain_table; /* chain ids, NONE = empty */
    size_t chain_table_cap;
    /* Sets: sorted entries (see ENTRY_*), in one pool; interned. */
    uint32_t *pool;
    size_t npool, pool_cap;
    size_t *set_off;
    uint32_t *set_len;
    size_t nsets, set_off_cap, set_len_cap;
    uint32_t *set_table;
    size_t set_table_cap;
    struct memo unions, extensions;
    uint32_t *scratch; /* a set being built */
    size_t scratch_cap;
};

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ (h >> 33);
}

static uint64_t hash_words(const uint32_t *w, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ w[i]) * UINT64_C(0x100000001b3);
    return mix(h);
}

/* ---- memos ------------------------------------------------------------------ */

static uint32_t memo_get(const struct memo *m, uint64_t key)
{
    if (!m->cap)
        return NONE;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)mix(key) & mask; m->keys[i] != EMPTY_KEY; i = (i + 1) & mask)
        if (m->keys[i] == key)
            return m->values[i];
    return NONE;
}

static void memo_put(struct memo *m, uint64_t key, uint32_t value)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t old_cap = m->cap;
        uint64_t *old_keys = m->keys;
        uint32_t *old_values = m->values;
        m->cap = old_cap ? 2 * old_cap : 256;
        m->keys = xmalloc(m->cap * sizeof *m->keys);
        m->values = xmalloc(m->cap * sizeof *m->values);
        for (size_t i = 0; i < m->cap; i++)
            m->keys[i] = EMPTY_KEY;
        m->n = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old_keys[i] != EMPTY_KEY)
                memo_put(m, old_keys[i], old_values[i]);
        free(old_keys);
        free(old_values);
    }
    size_t mask = m->cap - 1;
    size_t i = (size_t)mix(key) & mask;
    while (m->keys[i] != EMPTY_KEY && m->keys[i] != key)
        i = (i + 1) & mask;
    if (m->keys[i] == EMPTY_KEY)
        m->n++;
    m->keys[i] = key;
    m->values[i] = value;
}

static void memo_free(struct memo *m)
{
    free(m->keys);
    free(m->values);
}

/* ---- chains ----------------------------------------------------------------- */

static const uint32_t *chain_at(const struct chain_sets *cs, uint32_t id)
{
    return cs->chain_nodes + (size_t)id * cs->maxk;
}

static void chain_table_insert(struct chain_sets *cs, uint32_t id)
{
    size_t mask = cs->chain_table_cap - 1;
    size_t i = (size_t)hash_words(chain_at(cs, id), cs->chain_len[id]) & mask;
    while (cs->chain_table[i] != NONE)
        i = (i + 1) & mask;
    cs->chain_table[i] = id;
}

static uint32_t intern_chain(struct chain_sets *cs, const uint32_t *nodes, uint32_t len)
{
    if (2 * (cs->nchains + 1) > cs->chain_table_cap) {
        free(cs->chain_table);
        cs->chain_table_cap = cs->chain_table_cap ? 2 * cs->chain_table_cap : 256;
        cs->chain_table = xmalloc(cs->chain_table_cap * sizeof *cs->chain_table);
        for (size_t i = 0; i < cs->chain_table_cap; i++)
            cs->chain_table[i] = NONE;
        for (size_t id = 0; id < cs->nchains; id++)
            chain_table_insert(cs, (uint32_t)id);
    }
    size_t mask = cs->chain_table_cap - 1;
    size_t i = (size_t)hash_words(nodes, len) & mask;
    for (; cs->chain_table[i] != NONE; i = (i + 1) & mask) {
        uint32_t id = cs->chain_table[i];
        if (cs->chain_len[id] == len && memcmp(chain_at(cs, id), nodes, len * sizeof *nodes) == 0)
            return id;
    }
    cs->chain_nodes = xgrow(cs->chain_nodes, &cs->chain_nodes_cap, (cs->nchains + 1) * cs->maxk,
                            sizeof *cs->chain_nodes);
    cs->chain_len = xgrow(cs->chain_len, &cs->chain_len_cap, cs->nchains + 1, sizeof *cs->chain_len);
    memcpy(cs->chain_nodes + cs->nchains * cs->maxk, nodes, len * sizeof *nodes);
    cs->chain_len[cs->nchains] = len;
    cs->chain_table[i] = (uint32_t)cs->nchains;
    return (uint32_t)cs->nchains++;
}

/* ---- sets ------------------------------------------------------------------- */

static void set_table_insert(struct chain_sets *cs, uint32_t id)
{
    size_t mask = cs->set_table_cap - 1;
    size_t i = (size_t)hash_words(cs->pool + cs->set_off[id], cs->set_len[id]) & mask;
    while (cs->set_table[i] != NONE)
        i = (i + 1) & mask;
    cs->set_table[i] = id;
}

/* The id of the set of the n sorted, distinct entries e. */
static uint32_t intern_set(struct chain_sets *cs, const uint32_t *e, size_t n)
{
    if (2 * (cs->nsets + 1) > cs->set_table_cap) {
        free(cs->set_table);
        cs->set_table_cap = cs->set_table_cap ? 2 * cs->set_table_cap : 256;
        cs->set_table = xmalloc(cs->set_table_cap * sizeof *cs->set_table);
        for (size_t i = 0; i < cs->set_table_cap; i++)
            cs->set_table[i] = NONE;
        for (size_t id = 0; id < cs->nsets; id++)
            set_table_insert(cs, (uint32_t)id);
    }
    size_t mask = cs->set_table_cap - 1;
    size_t i = (size_t)hash_words(e, n) & mask;
    for (; cs->set_table[i] != NONE; i = (i + 1) & mask) {
        uint32_t id = cs->set_table[i];
        if (cs->set_len[id] == n && memcmp(cs->pool + cs->set_off[id], e, n * sizeof *e) == 0)
            return id;
    }
    cs->pool = xgrow(cs->pool, &cs->pool_cap, cs->npool + n + 1, sizeof *cs->pool);
    if (n) /* the empty set has no entries (e may be NULL) */
        memcpy(cs->pool + cs->npool, e, n * sizeof *e);
    cs->set_off = xgrow(cs->set_off, &cs->set_off_cap, cs->nsets + 1, sizeof *cs->set_off);
    cs->set_len = xgrow(cs->set_len, &cs->set_len_cap, cs->nsets + 1, sizeof *cs->set_len);
    cs->set_off[cs->nsets] = cs->npool;
    cs->set_len[cs->nsets] = (uint32_t)n;
    cs->npool += n;
    cs->set_table[i] = (uint32_t)cs->nsets;
    return (uint32_t)cs->nsets++;
}

struct chain_sets *chain_sets_new(uint32_t maxk)
{
    struct chain_sets *cs = xcalloc(1, sizeof *cs);
    cs->maxk = maxk ? maxk : 1;
    uint32_t empty = intern_set(cs, NULL, 0);
    (void)empty; /* CHAIN_SET_EMPTY */
    return cs;
}

void chain_sets_free(struct chain_sets *cs)
{
    if (!cs)
        return;
    free(cs->chain_nodes);
    free(cs->chain_len);
    free(cs->chain_table);
    free(cs->pool);
    free(cs->set_off);
    free(cs->set_len);
    free(cs->set_table);
    memo_free(&cs->unions);
    memo_free(&cs->extensions);
    free(cs->scratch);
    free(cs);
}

uint32_t chain_sets_union(struct chain_sets *cs, uint32_t a, uint32_t b)
{
    if (a == b || b == CHAIN_SET_EMPTY)
        return a;
    if (a == CHAIN_SET_EMPTY)
        return b;
    if (a > b) {
        uint32_t t = a;
        a = b, b = t;
    }
    uint64_t key = (uint64_t)a << 32 | b;
    uint32_t known = memo_get(&cs->unions, key);
    if (known != NONE)
        return known;
    size_t na = cs->set_len[a], nb = cs->set_len[b];
    cs->scratch = xgrow(cs->scratch, &cs->scratch_cap, na + nb + 1, sizeof *cs->scratch);
    /* Read the pool through offsets: interning may move it, but not before the merge ends. */
    const uint32_t *x = cs->pool + cs->set_off[a], *y = cs->pool + cs->set_off[b];
    size_t i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        if (x[i] < y[j])
            cs->scratch[n++] = x[i++];
        else if (y[j] < x[i])
            cs->scratch[n++] = y[j++];
        else
            cs->scratch[n++] = x[i++], j++;
    }
    while (i < na)
        cs->scratch[n++] = x[i++];
    while (j < nb)
        cs->scratch[n++] = y[j++];
    uint32_t id = intern_set(cs, cs->scratch, n);
    memo_put(&cs->unions, key, id);
    return id;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t chain_sets_extend(struct chain_sets *cs, uint32_t node, uint32_t below)
{
    uint64_t key = (uint64_t)node << 32 | below;
    uint32_t known = memo_get(&cs->extensions, key);
    if (known != NONE)
        return known;
    uint32_t maxk = cs->maxk;
    size_t nb = cs->set_len[below];
    /* The inner chains and marks of below stay, in their order; the new
     * entries ([node], and node on top of each top chain: few) are sorted on
     * their own and merged in, rather than sorting everything again. */
    uint32_t *kept = xmalloc((nb + 1) * sizeof *kept);
    uint32_t *added = xmalloc((2 * nb + 2) * sizeof *added);
    uint32_t *out = xmalloc((3 * nb + 3) * sizeof *out);
    uint32_t *path = xmalloc((maxk + 1) * sizeof *path);
    size_t nkept = 0, nadded = 0;
    path[0] = node;
    added[nadded++] = ENTRY(intern_chain(cs, path, 1), ENTRY_INNER); /* [node] */
    if (maxk > 1)
        added[nadded++] = ENTRY(intern_chain(cs, path, 1), ENTRY_TOP);
    for (size_t i = 0; i < nb; i++) {
        uint32_t entry = cs->pool[cs->set_off[below] + i];
        if (ENTRY_KIND(entry) != ENTRY_TOP) {
            kept[nkept++] = entry; /* inner chains and marks stay */
            continue;
        }
        uint32_t chain = ENTRY_VALUE(entry);
        uint32_t len = cs->chain_len[chain];
        memcpy(path + 1, chain_at(cs, chain), len * sizeof *path);
        uint32_t longer = intern_chain(cs, path, len + 1); /* len + 1 <= maxk */
        added[nadded++] = ENTRY(longer, ENTRY_INNER);
        if (len + 1 < maxk)
            added[nadded++] = ENTRY(longer, ENTRY_TOP);
    }
    qsort(added, nadded, sizeof *added, compare_u32);
    size_t distinct = 0, i = 0, j = 0;
    while (i < nkept || j < nadded) {
        uint32_t next = j == nadded || (i < nkept && kept[i] < added[j]) ? kept[i++] : added[j++];
        if (!distinct || out[distinct - 1] != next)
            out[distinct++] = next;
    }
    free(kept);
    free(added);
    uint32_t id = intern_set(cs, out, distinct);
    free(out);
    free(path);
    memo_put(&cs->extensions, key, id);
    return id;
}

uint64_t chain_sets_add_kpaths(const struct chain_sets *cs, uint32_t set,
                               struct kpath_set *const *sets, size_t nsets)
{
    uint64_t added = 0;
    for (size_t i = 0; i < cs->set_len[set]; i++) {
        uint32_t entry = cs->pool[cs->set_off[set] + i];
        if (ENTRY_KIND(entry) != ENTRY_INNER)
            continue;
        uint32_t chain = ENTRY_VALUE(entry), len = cs->chain_len[chain];
        for (size_t s = 0; s < nsets; s++)
            if (sets[s]->sp->k == len)
                added += kpath_set_add(sets[s], chain_at(cs, chain));
    }
    return added;
}

uint32_t chain_sets_mark(struct chain_sets *cs, uint32_t label)
{
    uint32_t entry = ENTRY(label, ENTRY_MARK);
    return intern_set(cs, &entry, 1);
}

void chain_sets_each_mark(const struct chain_sets *cs, uint32_t set,
                          void (*each)(uint32_t label, void *context), void *context)
{
    for (size_t i = 0; i < cs->set_len[set]; i++) {
        uint32_t entry = cs->pool[cs->set_off[set] + i];
        if (ENTRY_KIND(entry) == ENTRY_MARK)
            each(ENTRY_VALUE(entry), context);
    }
}

/* ---- collecting ------------------------------------------------------------ */

/* A memo with only the entries whose sets are all kept, renumbered by
 * `moved` (NONE: collected).  The high half of a key is a set too when
 * high_is_set (unions), a graph node otherwise (extensions). */
static void memo_keep(struct memo *m, const uint32_t *moved, bool high_is_set)
{
    struct memo old = *m;
    *m = (struct memo){0};
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i] == EMPTY_KEY)
            continue;
        uint32_t high = (uint32_t)(old.keys[i] >> 32), low = moved[(uint32_t)old.keys[i]];
        uint32_t value = moved[old.values[i]];
        if (high_is_set)
            high = moved[high];
        if (high == NONE || low == NONE || value == NONE)
            continue;
        /* Renumbering keeps the order of ids, so a union's key stays a <= b. */
        memo_put(m, (uint64_t)high << 32 | low, value);
    }
    memo_free(&old);
}

void chain_sets_collect(struct chain_sets *cs, uint32_t *ids, size_t n)
{
    uint32_t *moved = xmalloc((cs->nsets + 1) * sizeof *moved);
    for (size_t id = 0; id < cs->nsets; id++)
        moved[id] = NONE;
    moved[CHAIN_SET_EMPTY] = CHAIN_SET_EMPTY;
    for (size_t i = 0; i < n; i++)
        moved[ids[i]] = 0; /* kept; numbered below */
    /* Slide the kept sets down in order: ids, offsets and entries. */
    size_t kept = 0, npool = 0;
    for (size_t id = 0; id < cs->nsets; id++) {
        if (moved[id] == NONE)
            continue;
        size_t len = cs->set_len[id];
        memmove(cs->pool + npool, cs->pool + cs->set_off[id], len * sizeof *cs->pool);
        cs->set_off[kept] = npool;
        cs->set_len[kept] = (uint32_t)len;
        npool += len;
        moved[id] = (uint32_t)kept++;
    }
    cs->nsets = kept;
    cs->npool = npool;
    /* Give the room back, keeping some to grow into. */
    cs->pool_cap = 2 * npool + 1024;
    cs->pool = xrealloc(cs->pool, cs->pool_cap * sizeof *cs->pool);
    cs->set_off_cap = cs->set_len_cap = 2 * kept + 64;
    cs->set_off = xrealloc(cs->set_off, cs->set_off_cap * sizeof *cs->set_off);
    cs->set_len = xrealloc(cs->set_len, cs->set_len_cap * sizeof *cs->set_len);
    free(cs->set_table);
    cs->set_table_cap = 256;
    while (cs->set_table_cap < 4 * kept)
        cs->set_table_cap *= 2;
    cs->set_table = xmalloc(cs->set_table_cap * sizeof *cs->set_table);
    for (size_t i = 0; i < cs->set_table_cap; i++)
        cs->set_table[i] = NONE;
    for (size_t id = 0; id < kept; id++)
        set_table_insert(cs, (uint32_t)id);
    memo_keep(&cs->unions, moved, true);
    memo_keep(&cs->extensions, moved, false);
    for (size_t i = 0; i < n; i++)
        ids[i] = moved[ids[i]];
    free(moved);
}

size_t chain_sets_memory(const struct chain_sets *cs)
{
    return cs->chain_nodes_cap * sizeof *cs->chain_nodes + cs->chain_len_cap * sizeof *cs->chain_len +
           cs->chain_table_cap * sizeof *cs->chain_table + cs->pool_cap * sizeof *cs->pool +
           cs->set_off_cap * sizeof *cs->set_off + cs->set_len_cap * sizeof *cs->set_len +
           cs->set_table_cap * sizeof *cs->set_table +
           cs->unions.cap * (sizeof *cs->unions.keys + sizeof *cs->unions.values) +
           cs->extensions.cap * (sizeof *cs->extensions.keys + sizeof *cs->extensions.values) +
           cs->scratch_cap * sizeof *cs->scratch;
}
