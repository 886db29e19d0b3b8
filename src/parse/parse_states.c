#include "parse/parse_states.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define EMPTY UINT64_MAX
/* A slot: the entry's index and, above it, the high half of its key's hash,
 * so that a probe past another key rarely touches the entries. */
#define SLOT(h, e) (((h) >> 32) << 32 | (e))
#define SLOT_ENTRY(v) ((uint32_t)(v))

static uint64_t hash_words(const uint32_t *w, uint32_t n)
{
    /* Keys are short (6 to 20 words): a multiply per word, one final mix. */
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h + w[i]) * UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 32;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ (h >> 29);
}

struct parse_states *parse_states_new(void)
{
    struct parse_states *s = xcalloc(1, sizeof *s);
    s->nslots = 256;
    s->slots = xmalloc(s->nslots * sizeof *s->slots);
    memset(s->slots, 0xff, s->nslots * sizeof *s->slots);
    return s;
}

void parse_states_free(struct parse_states *s)
{
    if (!s)
        return;
    free(s->slots);
    free(s->entries);
    free(s->words);
    free(s);
}

/* The slot of the key: its entry's, or the empty one where it would go. */
static size_t find_slot(const struct parse_states *s, uint64_t h, const uint32_t *key, uint32_t n)
{
    size_t mask = s->nslots - 1;
    uint64_t tag = h >> 32 << 32;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint64_t v = s->slots[i];
        if (v == EMPTY)
            return i;
        if ((v >> 32 << 32) != tag)
            continue;
        const struct parse_states_entry *en = &s->entries[SLOT_ENTRY(v)];
        if (en->hash == h && en->n == n) {
            const uint32_t *k = s->words + en->at;
            uint32_t j = 0;
            while (j < n && k[j] == key[j])
                j++;
            if (j == n)
                return i;
        }
    }
}

const uint32_t *parse_states_get(const struct parse_states *s, const uint32_t *key, uint32_t n,
                                 uint32_t *len)
{
    uint64_t v = s->slots[find_slot(s, hash_words(key, n), key, n)];
    if (v == EMPTY)
        return NULL;
    uint32_t e = SLOT_ENTRY(v);
    *len = s->entries[e].len;
    return s->words + s->entries[e].at + n;
}

uint32_t parse_states_find(const struct parse_states *s, const uint32_t *key, uint32_t n)
{
    uint64_t v = s->slots[find_slot(s, hash_words(key, n), key, n)];
    return v == EMPTY ? PARSE_STATES_NONE : SLOT_ENTRY(v);
}

static void grow_slots(struct parse_states *s)
{
    free(s->slots);
    s->nslots *= 2;
    s->slots = xmalloc(s->nslots * sizeof *s->slots);
    memset(s->slots, 0xff, s->nslots * sizeof *s->slots);
    size_t mask = s->nslots - 1;
    for (size_t e = 0; e < s->nentries; e++) {
        size_t i = (size_t)s->entries[e].hash & mask;
        while (s->slots[i] != EMPTY)
            i = (i + 1) & mask;
        s->slots[i] = SLOT(s->entries[e].hash, (uint64_t)e);
    }
}

void parse_states_put(struct parse_states *s, const uint32_t *key, uint32_t n,
                      const uint32_t *value, uint32_t len)
{
    if (2 * (s->nentries + 1) > s->nslots)
        grow_slots(s);
    uint64_t h = hash_words(key, n);
    size_t slot = find_slot(s, h, key, n);
    uint32_t e = s->slots[slot] == EMPTY ? UINT32_MAX : SLOT_ENTRY(s->slots[slot]);
    if (e != UINT32_MAX && s->entries[e].len == len) { /* the same key again: overwrite */
        memcpy(s->words + s->entries[e].at + n, value, len * sizeof *value);
        return;
    }
    s->words = xgrow(s->words, &s->words_cap, s->nwords + n + len, sizeof *s->words);
    memcpy(s->words + s->nwords, key, n * sizeof *key);
    memcpy(s->words + s->nwords + n, value, len * sizeof *value);
    struct parse_states_entry en = {h, (uint32_t)s->nwords, n, len};
    s->nwords += n + len;
    if (e != UINT32_MAX) {
        s->entries[e] = en;
        return;
    }
    s->entries = xgrow(s->entries, &s->entries_cap, s->nentries + 1, sizeof *s->entries);
    s->entries[s->nentries] = en;
    s->slots[slot] = SLOT(h, (uint64_t)s->nentries);
    s->nentries++;
}

void parse_states_clear(struct parse_states *s)
{
    memset(s->slots, 0xff, s->nslots * sizeof *s->slots);
    s->nentries = 0;
    s->nwords = 0;
}

size_t parse_states_count(const struct parse_states *s)
{
    return s->nentries;
}

size_t parse_states_memory(const struct parse_states *s)
{
    return sizeof *s + s->nslots * sizeof *s->slots + s->entries_cap * sizeof *s->entries +
           s->words_cap * sizeof *s->words;
}
