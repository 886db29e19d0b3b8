/* parse_states: the memory of parse_kpaths' set transitions (its states).
 *
 * parse_kpaths builds an Earley set from the one leaf pending at a position
 * and the stack of items above it.  What the set does depends only on a few
 * things: the leaf, the next character, and the nodes, dots and origins (up
 * to equality) of the few stack items the set reads.  Such a description is
 * a *state*, in the sense of the Aycock-Horspool construction: the first
 * time a state is met the set is built and recorded as a *transition* (the
 * items it makes, relative to the stack, and the leaves it leaves pending);
 * the next time the transition is replayed without building the set.  The
 * summaries and tree counts of the items a transition makes depend only on
 * those of the stack items it advances, so they are remembered per
 * (transition, inputs) too.  The recording and replaying is parse_replay.c's
 * (the parser owns the items); this module only keeps the words.
 *
 * A map from strings of 32-bit words (keys) to strings of 32-bit words
 * (values), open addressing over one arena.  Keys are compared word by word;
 * a value is valid until the next parse_states_put or parse_states_clear
 * (the arena may move).  Ownership: the struct owns its table and arena. */
#ifndef KPATH_PARSE_STATES_H
#define KPATH_PARSE_STATES_H

#include <stddef.h>
#include <stdint.h>

/* The struct is here for the inline lookup by entry number below; only
 * parse_states.c writes it.  An entry: at `at` in the arena, its key (n
 * words) then its value (len). */
struct parse_states_entry {
    uint64_t hash;
    uint32_t at, n, len;
};
struct parse_states {
    uint64_t *slots; /* per slot: the entry and its hash's high half, or empty; a power of two */
    size_t nslots;
    struct parse_states_entry *entries;
    size_t nentries, entries_cap;
    uint32_t *words;
    size_t nwords, words_cap;
};

struct parse_states *parse_states_new(void);
void parse_states_free(struct parse_states *s);
/* The value of key[0 .. n), or NULL; *len gets its length in words. */
const uint32_t *parse_states_get(const struct parse_states *s, const uint32_t *key, uint32_t n,
                                 uint32_t *len);
/* The same by entry number: the entry of key[0 .. n), or PARSE_STATES_NONE;
 * then its value.  An entry keeps its number until parse_states_clear (a
 * value replaced keeps it too), so a caller may remember the number of a
 * key it found and skip the hashing next time (parse_replay.c's caches). */
#define PARSE_STATES_NONE UINT32_MAX
uint32_t parse_states_find(const struct parse_states *s, const uint32_t *key, uint32_t n);
static inline const uint32_t *parse_states_value(const struct parse_states *s, uint32_t entry,
                                                 uint32_t *len)
{
    const struct parse_states_entry *en = &s->entries[entry];
    *len = en->len;
    return s->words + en->at + en->n;
}
/* Set the value of key[0 .. n) to value[0 .. len) (a new entry, or one
 * replacing an earlier value of the same key). */
void parse_states_put(struct parse_states *s, const uint32_t *key, uint32_t n,
                      const uint32_t *value, uint32_t len);
/* Forget everything (the memory stays allocated for reuse). */
void parse_states_clear(struct parse_states *s);
/* Entries held, and bytes allocated. */
size_t parse_states_count(const struct parse_states *s);
size_t parse_states_memory(const struct parse_states *s);

#endif
