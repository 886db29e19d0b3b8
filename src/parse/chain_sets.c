#include "parse/chain_sets.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

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

/* Sets hold entries by their member number: entries are numbered densely in
 * the order they are first met (a grammar's summaries use few distinct
 * entries: JSON's 2-paths and expansions are a few hundred), so a set is
 * either the sorted list of its members' numbers or a bitset over them,
 * whichever is smaller (the bitset when it has no more 32-bit words, up to
 * its last member, than the set has members).  The choice depends only on
 * the members, so equal sets are stored the same way and interning stays a
 * comparison of words.  SET_BITS in a set's length says it is a bitset (the
 * length counts words). */
#define SET_BITS 0x80000000u
#define SET_WORDS(lenflag) ((lenflag) & ~SET_BITS)

/* A memo: 64-bit keys to 32-bit values, open addressing.  A slot holds its
 * key's two halves and its value side by side (12 bytes), so that a probe
 * reads one place: the memos are large and read at random, and a key and
 * its value in two arrays were two cache misses. */
struct memo_slot {
    uint32_t lo, hi, value;
};
struct memo {
    struct memo_slot *slots;
    size_t n, cap;
};

static inline uint64_t slot_key(const struct memo_slot *s)
{
    return (uint64_t)s->hi << 32 | s->lo;
}

/* The memos of unions and extensions are caches: a fixed number of slots
 * (a power of 2), one place for each key, where a new result takes the
 * place of the one there.  A result forgotten is only made again (and found
 * interned), so sets and ids are what an exact memo would give; the caches
 * never grow or rehash, and their 144 KiB, not a table growing with every
 * set, are what chain_sets_memory counts for them: the parser
 * collects the sets when their memory doubles, and every set made again
 * after a collection costs a union or an extension again. */
#define UNION_SLOTS_LOG2 13
#define EXTENSION_SLOTS_LOG2 12
/* The chains an extension makes (a node on top of a chain), cached the
 * same way: (node, chain + 1) or (node, 0) for [node] to the chain's id,
 * instead of hashing and comparing the chain's nodes in the chains' table
 * (chains are never collected, so an entry stays true). */
#define CHAIN_SLOTS_LOG2 10
struct memo_cache {
    struct memo_slot *slots;
    unsigned shift; /* 64 - log2 of the number of slots */
};

struct chain_sets {
    uint32_t maxk;
    /* Chains: maxk nodes each (the first `len` used), interned. */
    uint32_t *chain_nodes, *chain_len;
    size_t nchains, chain_nodes_cap, chain_len_cap;
    uint32_t *chain_table; /* chain ids, NONE = empty */
    size_t chain_table_cap;
    /* Members: the entry of each member number, the member numbers of each
     * chain's inner and top entries (2 per chain, NONE: none yet) and of
     * each mark's label, and a bitset of the members that are top chains. */
    uint32_t *member_entry;
    size_t nmembers, member_entry_cap;
    uint32_t *chain_member;
    size_t chain_member_cap;
    struct memo mark_member;
    uint32_t *top_bits;
    size_t top_bits_cap;
    /* Sets: member numbers or bitset words (see SET_BITS), in one pool;
     * interned. */
    uint32_t *pool;
    size_t npool, pool_cap;
    size_t *set_off;
    uint32_t *set_len;
    size_t nsets, set_off_cap, set_len_cap;
    uint32_t *set_table;
    size_t set_table_cap;
    struct memo_cache unions, extensions, longer_chains;
    /* The accumulator (chain_sets_acc_*): while `lazy` is a set id, that is
     * its value and `bits` are all zero; otherwise its value is `bits`,
     * whose nonzero words are below `dense` among the first ACC_DENSE_WORDS
     * and among touched[0 .. ntouched) beyond them (repeats allowed).
     * pending_key: a memo key (of pending_memo) whose result the value is,
     * stored when the value is interned. */
    uint32_t lazy;
    uint32_t *bits;
    size_t bits_cap, dense;
    uint32_t *touched;
    size_t ntouched, touched_cap;
    struct memo_cache *pending_memo;
    uint64_t pending_key;
    uint32_t *scratch; /* a set being built */
    size_t scratch_cap;
    uint32_t *path; /* maxk + 1 nodes: a chain being built */
    uint32_t *tops; /* top members met by an extension */
    size_t tops_cap;
    /* What chain_sets_memory reports, counted again whenever an array
     * grows or is given back (recount): the parser asks after every set. */
    size_t bytes;
};

static void recount(struct chain_sets *cs);

/* xgrow, and the bytes counted again when the array grew. */
static inline void *cs_grow(struct chain_sets *cs, void *ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return ptr;
    ptr = xgrow_slow(ptr, cap, need, elem);
    recount(cs);
    return ptr;
}

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
    uint32_t lo = (uint32_t)key, hi = (uint32_t)(key >> 32);
    for (size_t i = (size_t)mix(key) & mask;; i = (i + 1) & mask) {
        const struct memo_slot *sl = &m->slots[i];
        if (sl->lo == (uint32_t)EMPTY_KEY && sl->hi == (uint32_t)EMPTY_KEY)
            return NONE;
        if (sl->lo == lo && sl->hi == hi)
            return sl->value;
    }
}

static void memo_put(struct memo *m, uint64_t key, uint32_t value)
{
    if (4 * (m->n + 1) > 3 * m->cap) {
        size_t old_cap = m->cap;
        struct memo_slot *old = m->slots;
        m->cap = old_cap ? 2 * old_cap : 256;
        m->slots = xmalloc(m->cap * sizeof *m->slots);
        for (size_t i = 0; i < m->cap; i++)
            m->slots[i] = (struct memo_slot){(uint32_t)EMPTY_KEY, (uint32_t)EMPTY_KEY, 0};
        m->n = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (slot_key(&old[i]) != EMPTY_KEY)
                memo_put(m, slot_key(&old[i]), old[i].value);
        free(old);
    }
    size_t mask = m->cap - 1;
    size_t i = (size_t)mix(key) & mask;
    while (slot_key(&m->slots[i]) != EMPTY_KEY && slot_key(&m->slots[i]) != key)
        i = (i + 1) & mask;
    if (slot_key(&m->slots[i]) == EMPTY_KEY)
        m->n++;
    m->slots[i] = (struct memo_slot){(uint32_t)key, (uint32_t)(key >> 32), value};
}

static void memo_free(struct memo *m)
{
    free(m->slots);
}

static inline size_t cache_slots(const struct memo_cache *c)
{
    return (size_t)1 << (64 - c->shift);
}

static void cache_init(struct memo_cache *c, unsigned log2)
{
    c->shift = 64 - log2;
    c->slots = xmalloc(cache_slots(c) * sizeof *c->slots);
    for (size_t i = 0; i < cache_slots(c); i++)
        c->slots[i] = (struct memo_slot){(uint32_t)EMPTY_KEY, (uint32_t)EMPTY_KEY, 0};
}

/* The place of a key: the top bits of a multiplicative hash. */
static inline struct memo_slot *cache_slot(const struct memo_cache *c, uint64_t key)
{
    return &c->slots[(key * UINT64_C(0x9e3779b97f4a7c15)) >> c->shift];
}

static inline uint32_t cache_get(const struct memo_cache *c, uint64_t key)
{
    const struct memo_slot *sl = cache_slot(c, key);
    return sl->lo == (uint32_t)key && sl->hi == (uint32_t)(key >> 32) ? sl->value : NONE;
}

static inline void cache_put(struct memo_cache *c, uint64_t key, uint32_t value)
{
    *cache_slot(c, key) = (struct memo_slot){(uint32_t)key, (uint32_t)(key >> 32), value};
}

/* An open-addressing table of ids (chains', sets'): `cap` empty slots. */
static uint32_t *new_id_table(size_t cap)
{
    uint32_t *t = xmalloc(cap * sizeof *t);
    for (size_t i = 0; i < cap; i++)
        t[i] = NONE;
    return t;
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
        cs->chain_table = new_id_table(cs->chain_table_cap);
        for (size_t id = 0; id < cs->nchains; id++)
            chain_table_insert(cs, (uint32_t)id);
        recount(cs);
    }
    size_t mask = cs->chain_table_cap - 1;
    size_t i = (size_t)hash_words(nodes, len) & mask;
    for (; cs->chain_table[i] != NONE; i = (i + 1) & mask) {
        uint32_t id = cs->chain_table[i];
        if (cs->chain_len[id] == len && memcmp(chain_at(cs, id), nodes, len * sizeof *nodes) == 0)
            return id;
    }
    cs->chain_nodes = cs_grow(cs, cs->chain_nodes, &cs->chain_nodes_cap, (cs->nchains + 1) * cs->maxk,
                            sizeof *cs->chain_nodes);
    cs->chain_len = cs_grow(cs, cs->chain_len, &cs->chain_len_cap, cs->nchains + 1, sizeof *cs->chain_len);
    size_t old_cap = cs->chain_member_cap;
    cs->chain_member = cs_grow(cs, cs->chain_member, &cs->chain_member_cap, 2 * (cs->nchains + 1),
                             sizeof *cs->chain_member);
    for (size_t m = old_cap; m < cs->chain_member_cap; m++)
        cs->chain_member[m] = NONE;
    memcpy(cs->chain_nodes + cs->nchains * cs->maxk, nodes, len * sizeof *nodes);
    cs->chain_len[cs->nchains] = len;
    cs->chain_table[i] = (uint32_t)cs->nchains;
    return (uint32_t)cs->nchains++;
}

/* ---- members ---------------------------------------------------------------- */

static uint32_t new_member(struct chain_sets *cs, uint32_t entry)
{
    uint32_t m = (uint32_t)cs->nmembers++;
    cs->member_entry = cs_grow(cs, cs->member_entry, &cs->member_entry_cap, cs->nmembers,
                             sizeof *cs->member_entry);
    cs->member_entry[m] = entry;
    if (ENTRY_KIND(entry) == ENTRY_TOP) {
        size_t old_cap = cs->top_bits_cap;
        cs->top_bits = cs_grow(cs, cs->top_bits, &cs->top_bits_cap, (m >> 5) + 1, sizeof *cs->top_bits);
        memset(cs->top_bits + old_cap, 0, (cs->top_bits_cap - old_cap) * sizeof *cs->top_bits);
        cs->top_bits[m >> 5] |= UINT32_C(1) << (m & 31);
    }
    return m;
}

/* The member number of chain `chain` as an inner (kind ENTRY_INNER) or top
 * (ENTRY_TOP) chain. */
static uint32_t chain_member(struct chain_sets *cs, uint32_t chain, uint32_t kind)
{
    uint32_t *m = &cs->chain_member[2 * (size_t)chain + kind];
    if (*m == NONE)
        *m = new_member(cs, ENTRY(chain, kind));
    return *m;
}

/* ---- sets ------------------------------------------------------------------- */

static uint64_t hash_set(const uint32_t *w, uint32_t lenflag)
{
    return hash_words(w, SET_WORDS(lenflag)) ^ (lenflag & SET_BITS);
}

static void set_table_insert(struct chain_sets *cs, uint32_t id)
{
    size_t mask = cs->set_table_cap - 1;
    size_t i = (size_t)hash_set(cs->pool + cs->set_off[id], cs->set_len[id]) & mask;
    while (cs->set_table[i] != NONE)
        i = (i + 1) & mask;
    cs->set_table[i] = id;
}

/* The id of the set stored as the words w (see SET_BITS: lenflag is their
 * number, with SET_BITS for a bitset); the form must be the canonical one. */
static uint32_t intern_set(struct chain_sets *cs, const uint32_t *w, uint32_t lenflag)
{
    if (4 * (cs->nsets + 1) > 3 * cs->set_table_cap) {
        free(cs->set_table);
        cs->set_table_cap = cs->set_table_cap ? 2 * cs->set_table_cap : 256;
        cs->set_table = new_id_table(cs->set_table_cap);
        for (size_t id = 0; id < cs->nsets; id++)
            set_table_insert(cs, (uint32_t)id);
        recount(cs);
    }
    size_t n = SET_WORDS(lenflag);
    size_t mask = cs->set_table_cap - 1;
    size_t i = (size_t)hash_set(w, lenflag) & mask;
    for (; cs->set_table[i] != NONE; i = (i + 1) & mask) {
        uint32_t id = cs->set_table[i];
        if (cs->set_len[id] == lenflag && memcmp(cs->pool + cs->set_off[id], w, n * sizeof *w) == 0)
            return id;
    }
    cs->pool = cs_grow(cs, cs->pool, &cs->pool_cap, cs->npool + n + 1, sizeof *cs->pool);
    if (n) /* the empty set has no words (w may be NULL) */
        memcpy(cs->pool + cs->npool, w, n * sizeof *w);
    cs->set_off = cs_grow(cs, cs->set_off, &cs->set_off_cap, cs->nsets + 1, sizeof *cs->set_off);
    cs->set_len = cs_grow(cs, cs->set_len, &cs->set_len_cap, cs->nsets + 1, sizeof *cs->set_len);
    cs->set_off[cs->nsets] = cs->npool;
    cs->set_len[cs->nsets] = lenflag;
    cs->npool += n;
    cs->set_table[i] = (uint32_t)cs->nsets;
    return (uint32_t)cs->nsets++;
}

/* The members of a set, in increasing order: for (m = first; m != NONE; m = next). */
struct members {
    const uint32_t *w;
    size_t n, i;
    bool bits;
    uint32_t word; /* bits: what is left of w[i] */
};

static struct members members_of(const struct chain_sets *cs, uint32_t set)
{
    struct members it = {cs->pool + cs->set_off[set], SET_WORDS(cs->set_len[set]), 0,
                         (cs->set_len[set] & SET_BITS) != 0, 0};
    if (it.bits && it.n)
        it.word = it.w[0];
    return it;
}

static uint32_t members_next(struct members *it)
{
    if (!it->bits)
        return it->i < it->n ? it->w[it->i++] : NONE;
    while (!it->word) {
        if (++it->i >= it->n)
            return NONE;
        it->word = it->w[it->i];
    }
    uint32_t m = (uint32_t)(it->i * 32 + (size_t)__builtin_ctz(it->word));
    it->word &= it->word - 1;
    return m;
}

struct chain_sets *chain_sets_new(uint32_t maxk)
{
    struct chain_sets *cs = xcalloc(1, sizeof *cs);
    cs->maxk = maxk ? maxk : 1;
    cs->path = xmalloc((cs->maxk + 1) * sizeof *cs->path);
    cache_init(&cs->unions, UNION_SLOTS_LOG2);
    cache_init(&cs->extensions, EXTENSION_SLOTS_LOG2);
    cache_init(&cs->longer_chains, CHAIN_SLOTS_LOG2);
    uint32_t empty = intern_set(cs, NULL, 0);
    (void)empty; /* CHAIN_SET_EMPTY */
    cs->lazy = CHAIN_SET_EMPTY;
    cs->pending_key = EMPTY_KEY;
    recount(cs);
    return cs;
}

void chain_sets_free(struct chain_sets *cs)
{
    if (!cs)
        return;
    free(cs->chain_nodes);
    free(cs->chain_len);
    free(cs->chain_table);
    free(cs->member_entry);
    free(cs->chain_member);
    memo_free(&cs->mark_member);
    free(cs->top_bits);
    free(cs->pool);
    free(cs->set_off);
    free(cs->set_len);
    free(cs->set_table);
    free(cs->unions.slots);
    free(cs->extensions.slots);
    free(cs->longer_chains.slots);
    free(cs->bits);
    free(cs->touched);
    free(cs->scratch);
    free(cs->path);
    free(cs->tops);
    free(cs);
}

/* ---- the accumulator -------------------------------------------------------- */

/* The accumulator's first words are taken as a whole, up to the highest one
 * written (`dense`): clearing, counting and scanning them is a loop over a
 * few words, where keeping a list of the words touched (and sorting it) cost
 * more: a grammar's sets mostly use its first members (JSON's, -k 2: about
 * 250 members, 8 words).  Words beyond, of grammars with many members, are
 * listed as they are touched, so a sparse set costs what it holds. */
#define ACC_DENSE_WORDS 64

static __attribute__((noinline)) void acc_bits_grow(struct chain_sets *cs, size_t words)
{
    size_t old_cap = cs->bits_cap;
    cs->bits = cs_grow(cs, cs->bits, &cs->bits_cap, words, sizeof *cs->bits);
    memset(cs->bits + old_cap, 0, (cs->bits_cap - old_cap) * sizeof *cs->bits);
}

/* Asked for every member a list-form set adds (an ambiguous grammar's sets
 * are small lists): inline, the growth apart. */
static inline void acc_bits_room(struct chain_sets *cs, size_t words)
{
    if (__builtin_expect(words > cs->bits_cap, 0))
        acc_bits_grow(cs, words);
}

static void acc_set_bit(struct chain_sets *cs, uint32_t m)
{
    size_t w = m >> 5;
    acc_bits_room(cs, w + 1);
    if (w < ACC_DENSE_WORDS) {
        if (w >= cs->dense)
            cs->dense = w + 1;
    } else if (!cs->bits[w]) {
        cs->touched = cs_grow(cs, cs->touched, &cs->touched_cap, cs->ntouched + 1, sizeof *cs->touched);
        cs->touched[cs->ntouched++] = (uint32_t)w;
    }
    cs->bits[w] |= UINT32_C(1) << (m & 31);
}

/* bits |= the members of `set`. */
static void acc_or(struct chain_sets *cs, uint32_t set)
{
    const uint32_t *w = cs->pool + cs->set_off[set];
    size_t n = SET_WORDS(cs->set_len[set]);
    if (!(cs->set_len[set] & SET_BITS)) {
        for (size_t i = 0; i < n; i++)
            acc_set_bit(cs, w[i]);
        return;
    }
    acc_bits_room(cs, n);
    size_t dense = n < ACC_DENSE_WORDS ? n : ACC_DENSE_WORDS;
    for (size_t i = 0; i < dense; i++)
        cs->bits[i] |= w[i];
    if (dense > cs->dense)
        cs->dense = dense;
    for (size_t i = dense; i < n; i++) {
        if (!w[i])
            continue;
        if (!cs->bits[i]) {
            cs->touched = cs_grow(cs, cs->touched, &cs->touched_cap, cs->ntouched + 1,
                                sizeof *cs->touched);
            cs->touched[cs->ntouched++] = (uint32_t)i;
        }
        cs->bits[i] |= w[i];
    }
}

static void acc_materialize(struct chain_sets *cs)
{
    if (cs->lazy == NONE)
        return;
    uint32_t set = cs->lazy;
    cs->lazy = NONE;
    acc_or(cs, set);
}

static void acc_clear_bits(struct chain_sets *cs)
{
    if (cs->dense)
        memset(cs->bits, 0, cs->dense * sizeof *cs->bits);
    cs->dense = 0;
    for (size_t i = 0; i < cs->ntouched; i++)
        cs->bits[cs->touched[i]] = 0;
    cs->ntouched = 0;
}

void chain_sets_acc_start(struct chain_sets *cs)
{
    if (cs->dense || cs->ntouched) /* (usually clear: take clears it) */
        acc_clear_bits(cs);
    cs->lazy = CHAIN_SET_EMPTY;
    cs->pending_key = EMPTY_KEY;
}

/* The rest of chain_sets_acc_add, apart so that the common cases (nothing
 * to do, a first set) cost no more than their tests. */
static void acc_add_slow(struct chain_sets *cs, uint32_t set)
{
    if (cs->lazy == NONE) {
        acc_or(cs, set);
        cs->pending_key = EMPTY_KEY;
        return;
    }
    uint32_t a = cs->lazy < set ? cs->lazy : set, b = cs->lazy < set ? set : cs->lazy;
    uint64_t key = (uint64_t)a << 32 | b;
    uint32_t known = cache_get(&cs->unions, key);
    if (known != NONE) {
        cs->lazy = known;
        return;
    }
    acc_materialize(cs);
    acc_or(cs, set);
    cs->pending_memo = &cs->unions, cs->pending_key = key;
}

void chain_sets_acc_add(struct chain_sets *cs, uint32_t set)
{
    if (set == CHAIN_SET_EMPTY || cs->lazy == set)
        return;
    if (cs->lazy == CHAIN_SET_EMPTY) {
        cs->lazy = set;
        return;
    }
    acc_add_slow(cs, set);
}

/* The id of the chain node, chain's nodes ([node] when chain is NONE). */
static uint32_t longer_chain(struct chain_sets *cs, uint32_t node, uint32_t chain)
{
    uint64_t key = (uint64_t)node << 32 | (uint32_t)(chain + 1);
    uint32_t id = cache_get(&cs->longer_chains, key);
    if (id != NONE)
        return id;
    uint32_t *path = cs->path, len = 0;
    path[0] = node;
    if (chain != NONE) {
        len = cs->chain_len[chain];
        memcpy(path + 1, chain_at(cs, chain), len * sizeof *path);
    }
    id = intern_chain(cs, path, len + 1);
    cache_put(&cs->longer_chains, key, id);
    return id;
}

void chain_sets_acc_extend(struct chain_sets *cs, uint32_t node)
{
    if (cs->lazy != NONE) {
        uint64_t key = (uint64_t)node << 32 | cs->lazy;
        uint32_t known = cache_get(&cs->extensions, key);
        if (known != NONE) {
            cs->lazy = known;
            return;
        }
        acc_materialize(cs);
        cs->pending_memo = &cs->extensions, cs->pending_key = key;
    } else {
        cs->pending_key = EMPTY_KEY;
    }
    /* The top chains below give way to node on top of each; inner chains
     * and marks stay; [node] is new (inner, and top when longer chains
     * count). */
    size_t ntops = 0;
    size_t ntouched = cs->ntouched, dense = cs->dense;
    for (size_t t = 0; t < dense + ntouched; t++) {
        size_t w = t < dense ? t : cs->touched[t - dense];
        if (w >= cs->top_bits_cap)
            continue;
        uint32_t tops = cs->bits[w] & cs->top_bits[w];
        cs->bits[w] &= ~tops; /* the word may become 0 and be touched again: repeats are fine */
        for (; tops; tops &= tops - 1) {
            cs->tops = cs_grow(cs, cs->tops, &cs->tops_cap, ntops + 1, sizeof *cs->tops);
            cs->tops[ntops++] = (uint32_t)(w * 32 + (size_t)__builtin_ctz(tops));
        }
    }
    uint32_t maxk = cs->maxk;
    uint32_t single = longer_chain(cs, node, NONE);
    acc_set_bit(cs, chain_member(cs, single, ENTRY_INNER));
    if (maxk > 1)
        acc_set_bit(cs, chain_member(cs, single, ENTRY_TOP));
    for (size_t i = 0; i < ntops; i++) {
        uint32_t chain = ENTRY_VALUE(cs->member_entry[cs->tops[i]]);
        uint32_t len = cs->chain_len[chain];
        uint32_t longer = longer_chain(cs, node, chain); /* len + 1 <= maxk */
        acc_set_bit(cs, chain_member(cs, longer, ENTRY_INNER));
        if (len + 1 < maxk)
            acc_set_bit(cs, chain_member(cs, longer, ENTRY_TOP));
    }
}

/* Bits set in x: inline, where __builtin_popcount without -mpopcnt is a
 * call into libgcc (1.4% of the instructions of a JSON coverage run). */
static inline uint32_t popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The rest of chain_sets_acc_take: the value is in the bits. */
static __attribute__((noinline)) uint32_t acc_take_bits(struct chain_sets *cs)
{
    /* The touched words in order, each once, zero words left out (all of
     * them beyond the dense words). */
    size_t dense = cs->dense;
    size_t nt = cs->ntouched;
    if (nt > 1) {
        if (nt <= 16) {
            for (size_t i = 1; i < nt; i++)
                for (size_t j = i; j > 0 && cs->touched[j - 1] > cs->touched[j]; j--) {
                    uint32_t t = cs->touched[j];
                    cs->touched[j] = cs->touched[j - 1], cs->touched[j - 1] = t;
                }
        } else {
            qsort(cs->touched, nt, sizeof *cs->touched, compare_u32);
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < nt; i++) {
        uint32_t w = cs->touched[i];
        if (!cs->bits[w] || (kept && cs->touched[kept - 1] == w))
            continue;
        cs->touched[kept++] = w;
    }
    cs->ntouched = kept;
    size_t nwords = dense;
    if (kept)
        nwords = (size_t)cs->touched[kept - 1] + 1;
    else
        while (nwords && !cs->bits[nwords - 1])
            nwords--;
    /* The members, counted only as far as needed to choose the bitset (as
     * many as its words: the common case stops within a word or two). */
    size_t count = 0;
    for (size_t i = 0; i < dense && count < nwords; i++)
        count += popcount32(cs->bits[i]);
    for (size_t i = 0; i < kept && count < nwords; i++)
        count += popcount32(cs->bits[cs->touched[i]]);
    uint32_t id = CHAIN_SET_EMPTY;
    if (count) {
        cs->scratch = cs_grow(cs, cs->scratch, &cs->scratch_cap, count > nwords ? count : nwords,
                            sizeof *cs->scratch);
        uint32_t lenflag;
        if (nwords <= count) {
            memcpy(cs->scratch, cs->bits, nwords * sizeof *cs->bits);
            lenflag = (uint32_t)nwords | SET_BITS;
        } else {
            size_t n = 0;
            for (size_t i = 0; i < dense; i++)
                for (uint32_t b = cs->bits[i]; b; b &= b - 1)
                    cs->scratch[n++] = (uint32_t)i * 32 + (uint32_t)__builtin_ctz(b);
            for (size_t i = 0; i < kept; i++)
                for (uint32_t b = cs->bits[cs->touched[i]]; b; b &= b - 1)
                    cs->scratch[n++] = cs->touched[i] * 32 + (uint32_t)__builtin_ctz(b);
            lenflag = (uint32_t)n;
        }
        id = intern_set(cs, cs->scratch, lenflag);
    }
    if (cs->pending_key != EMPTY_KEY)
        cache_put(cs->pending_memo, cs->pending_key, id);
    acc_clear_bits(cs);
    cs->lazy = id;
    cs->pending_key = EMPTY_KEY;
    return id;
}

uint32_t chain_sets_acc_take(struct chain_sets *cs)
{
    return cs->lazy != NONE ? cs->lazy : acc_take_bits(cs);
}

uint64_t chain_sets_add_kpaths(const struct chain_sets *cs, uint32_t set,
                               struct kpath_set *const *sets, size_t nsets)
{
    uint64_t added = 0;
    struct members it = members_of(cs, set);
    for (uint32_t m; (m = members_next(&it)) != NONE;) {
        uint32_t entry = cs->member_entry[m];
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
    uint32_t m = memo_get(&cs->mark_member, label);
    if (m == NONE) {
        m = new_member(cs, ENTRY(label, ENTRY_MARK));
        memo_put(&cs->mark_member, label, m);
        recount(cs);
    }
    /* One member: a bitset when it fits in one word (see SET_BITS). */
    if (m < 32) {
        uint32_t word = UINT32_C(1) << m;
        return intern_set(cs, &word, 1 | SET_BITS);
    }
    return intern_set(cs, &m, 1);
}

void chain_sets_each_mark(const struct chain_sets *cs, uint32_t set,
                          void (*each)(uint32_t label, void *context), void *context)
{
    uint32_t *labels = NULL;
    size_t n = 0, cap = 0;
    struct members it = members_of(cs, set);
    for (uint32_t m; (m = members_next(&it)) != NONE;) {
        uint32_t entry = cs->member_entry[m];
        if (ENTRY_KIND(entry) != ENTRY_MARK)
            continue;
        labels = xgrow(labels, &cap, n + 1, sizeof *labels);
        labels[n++] = ENTRY_VALUE(entry);
    }
    if (n)
        qsort(labels, n, sizeof *labels, compare_u32);
    for (size_t i = 0; i < n; i++)
        each(labels[i], context);
    free(labels);
}

/* ---- collecting ------------------------------------------------------------ */

/* A cache with only the entries whose sets are all kept, renumbered by
 * `moved` (NONE: collected).  The high half of a key is a set too when
 * high_is_set (unions), a graph node otherwise (extensions). */
static void cache_keep(struct memo_cache *c, const uint32_t *moved, bool high_is_set)
{
    struct memo_cache old = *c;
    cache_init(c, 64 - old.shift);
    for (size_t i = 0; i < cache_slots(&old); i++) {
        if (slot_key(&old.slots[i]) == EMPTY_KEY)
            continue;
        uint32_t high = old.slots[i].hi, low = moved[old.slots[i].lo];
        uint32_t value = moved[old.slots[i].value];
        if (high_is_set)
            high = moved[high];
        if (high == NONE || low == NONE || value == NONE)
            continue;
        /* Renumbering keeps the order of ids, so a union's key stays a <= b. */
        cache_put(c, (uint64_t)high << 32 | low, value);
    }
    free(old.slots);
}

void chain_sets_collect(struct chain_sets *cs, uint32_t *ids, size_t n)
{
    uint32_t *moved = xmalloc((cs->nsets + 1) * sizeof *moved);
    for (size_t id = 0; id < cs->nsets; id++)
        moved[id] = NONE;
    moved[CHAIN_SET_EMPTY] = CHAIN_SET_EMPTY;
    for (size_t i = 0; i < n; i++)
        moved[ids[i]] = 0; /* kept; numbered below */
    /* Slide the kept sets down in order: ids, offsets and words. */
    size_t kept = 0, npool = 0;
    for (size_t id = 0; id < cs->nsets; id++) {
        if (moved[id] == NONE)
            continue;
        size_t len = SET_WORDS(cs->set_len[id]);
        memmove(cs->pool + npool, cs->pool + cs->set_off[id], len * sizeof *cs->pool);
        cs->set_off[kept] = npool;
        cs->set_len[kept] = cs->set_len[id];
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
    cs->set_table = new_id_table(cs->set_table_cap);
    for (size_t id = 0; id < kept; id++)
        set_table_insert(cs, (uint32_t)id);
    cache_keep(&cs->unions, moved, true);
    cache_keep(&cs->extensions, moved, false);
    for (size_t i = 0; i < n; i++)
        ids[i] = moved[ids[i]];
    free(moved);
    chain_sets_acc_start(cs); /* its set may be gone */
    recount(cs);
}

size_t chain_sets_memory(const struct chain_sets *cs)
{
    return cs->bytes;
}

static void recount(struct chain_sets *cs)
{
    cs->bytes = cs->chain_nodes_cap * sizeof *cs->chain_nodes + cs->chain_len_cap * sizeof *cs->chain_len +
           cs->chain_table_cap * sizeof *cs->chain_table +
           cs->member_entry_cap * sizeof *cs->member_entry +
           cs->chain_member_cap * sizeof *cs->chain_member +
           cs->mark_member.cap * sizeof *cs->mark_member.slots +
           cs->top_bits_cap * sizeof *cs->top_bits + cs->pool_cap * sizeof *cs->pool +
           cs->set_off_cap * sizeof *cs->set_off + cs->set_len_cap * sizeof *cs->set_len +
           cs->set_table_cap * sizeof *cs->set_table +
           cache_slots(&cs->unions) * sizeof *cs->unions.slots +
           cache_slots(&cs->extensions) * sizeof *cs->extensions.slots +
           cache_slots(&cs->longer_chains) * sizeof *cs->longer_chains.slots +
           cs->bits_cap * sizeof *cs->bits + cs->touched_cap * sizeof *cs->touched +
           cs->scratch_cap * sizeof *cs->scratch + cs->tops_cap * sizeof *cs->tops +
           (cs->maxk + 1) * sizeof *cs->path;
}
