/* parse_replay: Earley sets replayed by transitions, and their recording.
 *
 * A set that a per-set parse builds in a state it has met before is
 * written again from the transition recorded the first time (kept in
 * parse_states.h's trie), and its items' values come from a remembered
 * result or from the transition's values program (see "replaying sets"
 * and "values programs" below).  parse_earley.c asks for a replay and
 * records the sets it builds; parse_summary.c writes the values program
 * while it summarizes such a set, and forgets the states when it collects
 * chain sets.  Calls only parse_forest.c (parse_internal.h). */
#include "parse/parse_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/saturate.h"
#include "base/xalloc.h"
#include "parse/chain_sets.h"
#include "parse/parse_states.h"

/* ---- replaying sets (parse_kpaths) -------------------------------------------
 * Where fast_forward cannot stand for a set (a token boundary: a sequence's
 * next child, a rule's end, a quantifier's next round, whitespace that may
 * or may not be there), the set is still built the same way every time the
 * parse is in the same *state*: one leaf L pending at m and nothing beyond
 * it, the next character ch = text[m], and the stack above L's waiter x_0
 * (x_{i+1}: the one waiter of x_i's prediction) as far as the set reads it,
 * each item by its node, its dot (a quantifier's dot only as far as its
 * minimum and maximum tell rounds apart) and which of the earlier levels has
 * the same origin.  Everything the set does (items made, lookahead, leaves
 * matched, waiters advanced) follows from that and from the text: a set's
 * only other inputs are the literals longer than one character that it
 * tried, which a transition keeps as conditions.  So the first set built in
 * a state is recorded, relative to the stack, as a *transition*
 * (parse_states.h), and in the same state again it is replayed: the same
 * items are written in the same order with the same fields, the same leaves
 * pending, without the set's index, symbols, derivations or summarizing.
 * The values of the items it makes (summary, tree count) are a function of
 * the values of the stack items it advances (its inputs), remembered per
 * transition and inputs; new inputs build the set once more.  Only sets of
 * one way on are recorded: each item one derivation, each prediction one
 * waiter, each symbol one derivation, no cycle, the start item untouched.
 *
 * A transition's words: D (levels read), N (items made), the number of
 * conditions, of pending leaves and of inputs, the length of its values
 * program (0: none); then per condition (leaf, matched); per item (TR_PRED,
 * node, waiter) or (TR_ADV, TR_OLD or TR_NEW, level or item); per pending
 * leaf (offset, waiter item, leaf); per input its level; the program (see
 * prog_op).  The states form a trie, one 6-word key per level: (TAG_ROOT,
 * L, ch, level 0) or (TAG_LEVEL, the state above, 0, level d), a level
 * being its item's node, dot and origin class, give (MORE, the state's id:
 * read one more level) or (DONE, the transition's id, its words);
 * (TAG_VALUES, id, per input summary, count, infinite) the values of its
 * advanced items, from the set built or from the program. */
#define STATES_MAX_DEPTH 16
#define STATES_MAX_ITEMS 64
#define STATES_MAX_BYTES ((size_t)16 << 20)
enum { TAG_ROOT = 1, TAG_LEVEL, TAG_VALUES };
enum { STATE_MORE, STATE_DONE };
enum { TR_PRED, TR_ADV };
enum { TR_OLD, TR_NEW };
#define TR_HEAD 6

/* Forget every state and transition (and so what the caches remember). */
void states_clear(struct parser *p)
{
    parse_states_clear(p->states);
    p->ntransitions = 0;
    if (++p->states_gen == 0) { /* wrapped: no entry may look current */
        if (p->level_cache) {
            memset(p->level_cache, 0, STATES_CACHE_SLOTS * sizeof *p->level_cache);
            memset(p->values_cache, 0, VALUES_CACHE_SLOTS * sizeof *p->values_cache);
        }
        if (p->next_levels)
            memset(p->next_levels, 0, 2 * p->next_levels_cap * sizeof *p->next_levels);
        if (p->root_levels)
            for (uint32_t i = 0; i < p->g->nnodes; i++)
                if (p->root_levels[i])
                    memset(p->root_levels[i], 0, 256 * sizeof *p->root_levels[i]);
        if (p->last_values)
            memset(p->last_values, 0, p->last_values_cap * sizeof *p->last_values);
        if (p->ff_shapes)
            memset(p->ff_shapes, 0, p->ff_shapes_cap * sizeof *p->ff_shapes);
        p->states_gen = 1;
    }
}

/* The next stack item above x, or NONE. */
static uint32_t stack_next(const struct parser *p, uint32_t x)
{
    const struct forest *f = p->f;
    if (ITEM(f, x).node == f->start_node)
        return NONE;
    uint32_t l = ITEM(f, item_pred(f, x)).list;
    return l != NONE && (l & LIST_ONE) ? l & ~LIST_ONE : NONE;
}

/* The dot of an item as far as the parser tells them apart: rounds of an
 * unbounded quantifier past its minimum behave alike. */
static inline uint32_t state_dot(const struct parser *p, uint32_t node, uint32_t dot)
{
    return dot > p->dot_cap[node] ? p->dot_cap[node] : dot;
}

/* The trie key of level d of the stack xs (origins[0 .. d) of the levels
 * above filled in; origins[d] is filled here), below state `above` (or the
 * root of leaf and ch when d is 0). */
static void level_key(const struct parser *p, uint32_t key[6], const uint32_t *xs,
                      uint32_t *origins, uint32_t d, uint32_t above, uint32_t leaf, uint32_t ch)
{
    const struct forest *f = p->f;
    uint32_t x = xs[d], origin = ITEM(f, item_pred(f, x)).anchor, cls = d;
    origins[d] = origin;
    for (uint32_t i = 0; i < d; i++)
        if (origins[i] == origin) {
            cls = i;
            break;
        }
    key[0] = d ? TAG_LEVEL : TAG_ROOT;
    key[1] = d ? above : leaf;
    key[2] = d ? 0 : ch;
    key[3] = ITEM(f, x).node;
    key[4] = state_dot(p, ITEM(f, x).node, ITEM(f, x).dot);
    key[5] = cls;
}

static inline void value_key_input(const struct parser *p, uint32_t *key, uint32_t x)
{
    bool infinite = false;
    uint64_t count = p->f->counting ? counts_get(p->f->counts, x, &infinite) : 1;
    key[0] = ITEM(p->f, x).list;
    key[1] = (uint32_t)count, key[2] = (uint32_t)(count >> 32), key[3] = infinite;
}

/* a[0 .. n) == b[0 .. n): a few words, compared here rather than by a call
 * to memcmp. */
static inline bool words_equal(const uint32_t *a, const uint32_t *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* The bucket of a key in a cache of 2^bits slots: two slots, c[0] and
 * c[1].  A multiplicative mix of its words, whose top bits depend on all
 * of them. */
static uint32_t cache_bucket(const uint32_t *w, uint32_t n, unsigned bits)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t)(h >> (64 - bits)) & ~1u;
}

/* The trie's entry of a level key (level_key), or PARSE_STATES_NONE.  The
 * same few keys are looked up again and again (the same stack at every
 * member of an object): a cache of two ways per bucket remembers the keys
 * found and their entries, which stay valid until the states are cleared;
 * only a key not there hashes into the states.  (Two ways: some pairs of
 * keys share a bucket and are met by turns.) */
static uint32_t state_entry(struct parser *p, const uint32_t key[6])
{
    struct level_cache *c = &p->level_cache[cache_bucket(key, 6, STATES_CACHE_BITS)];
    for (int way = 0; way < 2; way++)
        if (c[way].gen == p->states_gen && words_equal(c[way].key, key, 6))
            return c[way].entry;
    uint32_t entry = parse_states_find(p->states, key, 6);
    p->stats.states_hashed++;
    if (entry != PARSE_STATES_NONE) {
        c[1] = c[0]; /* the newest first, the one before second */
        c[0].gen = p->states_gen, c[0].entry = entry;
        memcpy(c[0].key, key, sizeof c->key);
    }
    return entry;
}

/* The two next_level ways of state `state`, room made. */
static struct next_level *next_levels_of(struct parser *p, uint32_t state)
{
    if (state >= p->next_levels_cap) {
        size_t old = p->next_levels_cap, cap = old ? old : 64;
        while (cap <= state)
            cap *= 2;
        p->next_levels = xrealloc(p->next_levels, 2 * cap * sizeof *p->next_levels);
        memset(p->next_levels + 2 * old, 0, 2 * (cap - old) * sizeof *p->next_levels);
        p->next_levels_cap = cap;
    }
    return p->next_levels + 2 * (size_t)state;
}

/* The two next_level ways of the root level of leaf `leaf` and the ASCII
 * character ch, room made. */
static struct next_level *root_levels_of(struct parser *p, uint32_t leaf, uint32_t ch)
{
    if (!p->root_levels)
        p->root_levels = xcalloc(p->g->nnodes, sizeof *p->root_levels);
    if (!p->root_levels[leaf]) {
        p->root_levels[leaf] = xcalloc(256, sizeof **p->root_levels);
        p->root_levels_rows++;
    }
    return p->root_levels[leaf] + 2 * (size_t)ch;
}

/* The last values entry of transition `id`, room made. */
static struct values_cache *last_values_of(struct parser *p, uint32_t id)
{
    if (id >= p->last_values_cap) {
        size_t old = p->last_values_cap, cap = old ? old : 64;
        while (cap <= id)
            cap *= 2;
        p->last_values = xrealloc(p->last_values, cap * sizeof *p->last_values);
        memset(p->last_values + old, 0, (cap - old) * sizeof *p->last_values);
        p->last_values_cap = cap;
    }
    return p->last_values + id;
}

/* ---- values programs -------------------------------------------------------
 * The values of a set that a transition makes (replaying sets, above) are a
 * fixed sequence of accumulator operations on the values of its inputs and
 * on constants: what local_value (parse_summary.c) does for each of its
 * symbols and items in the order summarize_in_order takes them (each with
 * one derivation: a recorded set has one way on).  While a set being
 * recorded is summarized (prog_on), the operations are written down, so
 * that a replay with inputs never seen runs them instead of building the
 * set again.  A value is ops (PROG_INPUT i: add input i; PROG_VALUE k: add
 * value k made before; PROG_CONST set: add a set; PROG_EXTEND node) up to
 * PROG_TAKE; its tree count is the product of its inputs' and values'
 * counts, and it is infinite when one of them is.  PROG_OUT k lists the
 * values of the set's advanced items in order.  Two words per op (the ops:
 * parse_internal.h). */

void prog_op(struct parser *p, uint32_t op, uint32_t arg)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    p->prog = xgrow(p->prog, &p->prog_cap, p->nprog + 2, sizeof *p->prog);
    p->prog[p->nprog++] = op;
    p->prog[p->nprog++] = arg;
}

/* An item's value as an operand: a prediction's (or none's) is the empty
 * set, a local item's a value made before, a stack item's one of the
 * inputs (the last rec_words[6] words of the transition: their levels). */
void prog_item(struct parser *p, uint32_t item)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    if (item == NONE || ITEM(p->f, item).dot == 0) {
        prog_op(p, PROG_CONST, CHAIN_SET_EMPTY);
        return;
    }
    uint32_t id = local_item(p, item);
    if (id != NONE) {
        if (p->prog_index[id] == NONE)
            p->prog_ok = false;
        prog_op(p, PROG_VALUE, p->prog_index[id]);
        return;
    }
    uint32_t ninputs = p->rec_words[6];
    const uint32_t *inputs = p->rec_words + p->nrec_words - ninputs;
    for (uint32_t i = 0; i < ninputs; i++)
        if (p->rec_old[inputs[i]] == item) {
            prog_op(p, PROG_INPUT, i);
            return;
        }
    p->prog_ok = false;
}

void prog_symbol(struct parser *p, uint32_t sym)
{
    if (!p->prog_on || !p->prog_ok)
        return;
    if (p->prog_index[sym] == NONE)
        p->prog_ok = false;
    prog_op(p, PROG_VALUE, p->prog_index[sym]);
}

/* Local id `id` got value v, the program's next (PROG_TAKE). */
void prog_value(struct parser *p, uint32_t id, struct value v)
{
    p->prog_seen = xgrow(p->prog_seen, &p->prog_seen_cap, (size_t)p->prog_values + 1,
                         sizeof *p->prog_seen);
    p->prog_seen[p->prog_values] = v;
    p->prog_index[id] = p->prog_values++;
}

/* Run the values program prog[0 .. n) (see prog_op) of a transition on the
 * stack items xs whose levels are inputs[0 .. ninputs): the values of the
 * set's advanced items, 4 words each as in rec_finish, into out; returns
 * the number of words. */
static uint32_t run_program(struct parser *p, const uint32_t *prog, uint32_t n,
                            const uint32_t *xs, const uint32_t *inputs, uint32_t ninputs,
                            uint32_t *out)
{
    struct forest *f = p->f;
    struct chain_sets *cs = f->chains;
    struct value in[STATES_MAX_DEPTH];
    for (uint32_t i = 0; i < ninputs; i++)
        in[i] = item_value(p, xs[inputs[i]]);
    uint32_t nvalues = 0, nout = 0;
    struct value v = {CHAIN_SET_EMPTY, 1, false};
    chain_sets_acc_start(cs);
    for (uint32_t i = 0; i < n; i += 2) {
        uint32_t arg = prog[i + 1];
        const struct value *operand = NULL;
        switch (prog[i]) {
        case PROG_INPUT:
            operand = &in[arg];
            break;
        case PROG_VALUE:
            operand = &p->prog_run[arg];
            break;
        case PROG_CONST:
            chain_sets_acc_add(cs, arg);
            break;
        case PROG_EXTEND:
            chain_sets_acc_extend(cs, arg);
            break;
        case PROG_TAKE:
            v.summary = chain_sets_acc_take(cs);
            p->prog_run = xgrow(p->prog_run, &p->prog_run_cap, (size_t)nvalues + 1,
                                sizeof *p->prog_run);
            p->prog_run[nvalues++] = v;
            v = (struct value){CHAIN_SET_EMPTY, 1, false};
            chain_sets_acc_start(cs);
            break;
        case PROG_OUT_CONST:
            out[nout++] = arg, out[nout++] = 1, out[nout++] = 0, out[nout++] = 0;
            break;
        default: { /* PROG_OUT, PROG_OUT_INPUT */
            const struct value *o = prog[i] == PROG_OUT ? &p->prog_run[arg] : &in[arg];
            uint64_t count = f->counting ? o->count : 1;
            out[nout++] = o->summary;
            out[nout++] = (uint32_t)count, out[nout++] = (uint32_t)(count >> 32);
            out[nout++] = f->counting && o->infinite;
            break;
        }
        }
        if (operand) {
            chain_sets_acc_add(cs, operand->summary);
            v.count = sat_mul(v.count, operand->count);
            v.infinite = v.infinite || operand->infinite;
        }
    }
    return nout;
}

/* A condition of the token table (a sample of an ANTLR grammar): where
 * the set a transition was recorded from asked the table about a
 * constrained node (tb_may_span, tb_may_start), the transition keeps the
 * question and its answer as a condition (COND_TB | node, word), and a
 * replay asks it again: the set does what it did only if every answer is
 * the same.  The word: bit 0 the answer, bit 1 a prediction's question
 * (may the node start at its start?), bits 2-6 the start (a level whose
 * origin it is, or TB_HERE: the set's position), from bit 7 the end
 * relative to the set's position. */
#define COND_TB 0x80000000u
#define TB_HERE 31u
#define TB_END_MAX (UINT32_MAX >> 7)
_Static_assert(STATES_MAX_DEPTH <= TB_HERE, "a level's number is below TB_HERE");

/* Does the token table give condition `word` of node `node` the answer
 * it gave when recorded, in set j whose levels start at origins? */
static inline bool tb_cond_holds(const struct parser *p, uint32_t node, uint32_t word,
                                 const uint32_t *origins, uint32_t j)
{
    uint32_t ref = (word >> 2) & 31u, start = ref == TB_HERE ? j : origins[ref];
    bool answer = word & 2 ? token_bounds_may_start(p->tb, node, start)
                           : token_bounds_may_span(p->tb, node, start, j + (word >> 7));
    return answer == (word & 1);
}

/* The condition word of the question rec_tb[0 .. 4) asked in set j, whose
 * levels read are rec_old[0 .. D); false when its start is not one a
 * replay knows (the set is then not recorded). */
static bool tb_cond_word(const struct parser *p, const uint32_t *q, uint32_t j, uint32_t D,
                         uint32_t *word)
{
    uint32_t start = q[1], end = q[2], ref = NONE;
    if (start == j)
        ref = TB_HERE;
    for (uint32_t i = 0; i < D && ref == NONE; i++)
        if (ITEM(p->f, item_pred(p->f, p->rec_old[i])).anchor == start)
            ref = i;
    if (ref == NONE || (end != NONE && (end < j || end - j > TB_END_MAX)))
        return false;
    *word = (uint32_t)(q[3] != 0) | (end == NONE ? 2u : 0u) | ref << 2 |
            (end == NONE ? 0u : (end - j) << 7);
    return true;
}

/* Set j, whose one pending entry is e, by a transition: true if replayed.
 * Otherwise the set is to be built, and recorded when p->rec. */
bool replay_set(struct parser *p, uint32_t j, uint32_t e)
{
    struct forest *f = p->f;
    uint32_t key[6], xs[STATES_MAX_DEPTH], origins[STATES_MAX_DEPTH], classes[STATES_MAX_DEPTH];
    /* Per level read: its item's node, dot and prediction, for the items
     * the transition advances (read once, in the walk). */
    uint32_t xnode[STATES_MAX_DEPTH], xdot[STATES_MAX_DEPTH], xpred[STATES_MAX_DEPTH];
    uint32_t leaf = PENDING(p, e).symbol, w0 = PENDING(p, e).waiter;
    if (!p->level_cache) {
        p->level_cache = xcalloc(STATES_CACHE_SLOTS, sizeof *p->level_cache);
        p->values_cache = xcalloc(VALUES_CACHE_SLOTS, sizeof *p->values_cache);
    }
    p->rec = true, p->nrec_old = 0, p->nrec_tb = 0, p->rec_leaf = leaf, p->rec_w0 = w0;
    p->rec_components = p->stats.sets_by_components;
    uint32_t id = NONE, d = 0, len, above = NONE, done = PARSE_STATES_NONE;
    const uint32_t *t = NULL; /* the transition's words */
    uint32_t ch = text_at(f, j);
    /* level_key's fields, worked out here: a level met below its state
     * before needs only its node, dot and origin class. */
    for (uint32_t x = w0; d < STATES_MAX_DEPTH; d++) {
        xs[d] = x;
        const struct item *it = &ITEM(f, x);
        uint32_t node = it->node, pred = it->dot ? it->anchor : x;
        xnode[d] = node, xdot[d] = it->dot, xpred[d] = pred;
        const struct item *pit = &ITEM(f, pred);
        /* The origin class (level_key's): origins do not increase up the
         * stack (a prediction's one waiter is an item of the prediction's
         * set, so its origin is at most that set, the origin of the level
         * below), so an equal origin is the level just below's, whose class
         * it takes; only an origin greater than it (never met) is looked
         * for among all. */
        uint32_t origin = pit->anchor, cls = d;
        origins[d] = origin;
        if (d && origin == origins[d - 1]) {
            cls = classes[d - 1];
        } else if (d && origin > origins[d - 1]) {
            for (uint32_t i = 0; i < d; i++)
                if (origins[i] == origin) {
                    cls = i;
                    break;
                }
        }
        classes[d] = cls;
        uint32_t dot = state_dot(p, node, it->dot);
        /* Below a state (d > 0): its next levels met lately first. */
        struct next_level *nl = d      ? p->next_levels + 2 * (size_t)above
                                : ch < 128 ? root_levels_of(p, leaf, ch)
                                           : NULL,
                          *hit = NULL;
        for (int way = 0; nl && way < 2 && !hit; way++)
            if (nl[way].gen == p->states_gen && nl[way].node == node && nl[way].dot == dot &&
                nl[way].cls == cls)
                hit = &nl[way];
        uint32_t entry, kind, vid;
        if (hit) {
            entry = hit->entry, kind = hit->kind, vid = hit->id;
            if (d)
                p->stats.levels_remembered++;
            else
                p->stats.roots_remembered++;
        } else {
            key[0] = d ? TAG_LEVEL : TAG_ROOT;
            key[1] = d ? above : leaf;
            key[2] = d ? 0 : ch;
            key[3] = node, key[4] = dot, key[5] = cls;
            entry = state_entry(p, key);
            if (entry == PARSE_STATES_NONE)
                return false;
            const uint32_t *v = parse_states_value(p->states, entry, &len);
            kind = v[0], vid = v[1];
            if (nl) {
                nl[1] = nl[0];
                nl[0] = (struct next_level){p->states_gen, node, dot, cls, entry, kind, vid};
            }
        }
        if (kind == STATE_DONE) {
            id = vid;
            t = parse_states_value(p->states, entry, &len) + 2;
            done = entry;
            break;
        }
        above = vid;
        /* The next stack item (stack_next). */
        if (node == f->start_node)
            return false;
        uint32_t l = pit->list;
        if (l == NONE || !(l & LIST_ONE))
            return false;
        x = l & ~LIST_ONE;
    }
    if (id == NONE || t[0] != d + 1)
        return false;
    uint32_t nitems = t[1], nconds = t[2], npend = t[3], ninputs = t[4], nprog = t[5];
    const uint32_t *cond = t + TR_HEAD, *items = cond + 2 * nconds, *pend = items + 3 * nitems;
    const uint32_t *inputs = pend + 3 * npend;
    for (uint32_t i = 0; i < nconds; i++) {
        uint32_t end;
        bool holds = cond[2 * i] & COND_TB
                         ? tb_cond_holds(p, cond[2 * i] & ~COND_TB, cond[2 * i + 1], origins, j)
                         : leaf_matches(p, cond[2 * i], j, &end) == (cond[2 * i + 1] != 0);
        if (!holds) {
            p->rec = false; /* another way than the one recorded: just build it */
            return false;
        }
    }
    uint32_t vkey[2 + 4 * STATES_MAX_DEPTH];
    vkey[0] = TAG_VALUES, vkey[1] = id;
    for (uint32_t i = 0; i < ninputs; i++)
        value_key_input(p, vkey + 2 + 4 * i, xs[inputs[i]]);
    uint32_t ventry = PARSE_STATES_NONE;
    struct values_cache *vc = NULL;
    struct values_cache *last = NULL;
    if (ninputs <= VALUES_CACHE_INPUTS) {
        last = last_values_of(p, id);
        if (last->gen == p->states_gen && last->ninputs == ninputs &&
            words_equal(last->inputs, vkey + 2, 4 * ninputs))
            ventry = last->entry;
    }
    if (ventry == PARSE_STATES_NONE && ninputs <= VALUES_CACHE_INPUTS) {
        vc = &p->values_cache[cache_bucket(vkey + 1, 1 + 4 * ninputs, VALUES_CACHE_BITS)];
        for (int way = 0; way < 2 && ventry == PARSE_STATES_NONE; way++)
            if (vc[way].gen == p->states_gen && vc[way].id == id && vc[way].ninputs == ninputs &&
                words_equal(vc[way].inputs, vkey + 2, 4 * ninputs))
                ventry = vc[way].entry;
    }
    uint32_t computed[4 * STATES_MAX_ITEMS];
    bool programmed = false;
    if (ventry == PARSE_STATES_NONE) {
        ventry = parse_states_find(p->states, vkey, 2 + 4 * ninputs);
        p->stats.states_hashed++;
        if (ventry == PARSE_STATES_NONE) {
            /* New inputs: the transition's program makes the values (and
             * they are remembered), or the set is built and recorded. */
            if (!nprog)
                return false;
            uint32_t nv = run_program(p, inputs + ninputs, nprog, xs, inputs, ninputs, computed);
            if (parse_states_memory(p->states) <= STATES_MAX_BYTES)
                parse_states_put(p->states, vkey, 2 + 4 * ninputs, computed, nv);
            /* The words may have moved. */
            t = parse_states_value(p->states, done, &len) + 2;
            items = t + TR_HEAD + 2 * nconds, pend = items + 3 * nitems;
            programmed = true;
        } else if (vc) {
            vc[1] = vc[0];
            vc->gen = p->states_gen, vc->id = id, vc->ninputs = ninputs, vc->entry = ventry;
            memcpy(vc->inputs, vkey + 2, 4 * ninputs * sizeof *vkey);
        }
    }
    if (last && !programmed && (last->gen != p->states_gen || last->entry != ventry)) {
        last->gen = p->states_gen, last->id = id, last->ninputs = ninputs, last->entry = ventry;
        memcpy(last->inputs, vkey + 2, 4 * ninputs * sizeof *vkey);
    }
    const uint32_t *values = programmed ? computed : parse_states_value(p->states, ventry, &len);
    p->rec = false;
    /* The pending entry is used up, as run's loop does. */
    p->pending_head[j & p->pending_mask] = NONE;
    PENDING(p, e).next = p->pending_free;
    p->pending_free = e;
    uint32_t first = (uint32_t)f->nitems;
    bool counting = f->counting;
    item_room(f);
    if (((size_t)first >> CHUNK_BITS) == ((size_t)(first + nitems - 1) >> CHUNK_BITS)) {
        /* All in the chunk of the first (nearly always): written through
         * one pointer, an old level's fields from the walk. */
        struct item *out = &ITEM(f, first);
        for (uint32_t i = 0; i < nitems; i++) {
            const uint32_t *it = items + 3 * i;
            if (it[0] == TR_PRED) {
                out[i] = (struct item){it[1], 0, j, (first + it[2]) | LIST_ONE};
                continue;
            }
            const uint32_t *v = values;
            values += 4;
            uint32_t l = it[2];
            if (it[1] == TR_OLD) {
                out[i] = (struct item){xnode[l], xdot[l] + 1, xpred[l], v[0]};
            } else {
                const struct item *w = &out[l];
                out[i] = (struct item){w->node, w->dot + 1, w->dot ? w->anchor : first + l, v[0]};
            }
            if (counting && ((v[1] != 1 || v[2]) || v[3]))
                counts_put(f->counts, first + i, (uint64_t)v[1] | (uint64_t)v[2] << 32, v[3] != 0);
        }
        f->nitems = first + nitems;
    } else {
        for (uint32_t i = 0; i < nitems; i++) {
            const uint32_t *it = items + 3 * i;
            item_room(f);
            uint32_t idx = (uint32_t)f->nitems++;
            if (it[0] == TR_PRED) {
                ITEM(f, idx) = (struct item){it[1], 0, j, (first + it[2]) | LIST_ONE};
                continue;
            }
            uint32_t w = it[1] == TR_OLD ? xs[it[2]] : first + it[2];
            const uint32_t *v = values;
            values += 4;
            ITEM(f, idx) =
                (struct item){ITEM(f, w).node, ITEM(f, w).dot + 1, item_pred(f, w), v[0]};
            uint64_t count = (uint64_t)v[1] | (uint64_t)v[2] << 32;
            if (counting && (count != 1 || v[3]))
                counts_put(f->counts, idx, count, v[3] != 0);
        }
    }
    for (uint32_t i = npend; i-- > 0;)
        push_pending(p, j + pend[3 * i], first + pend[3 * i + 1], pend[3 * i + 2]);
    p->stats.items_made += nitems;
    if (f->nitems > p->stats.items_peak)
        p->stats.items_peak = f->nitems;
    p->replayed_id = id;
    if (programmed)
        p->stats.sets_computed++;
    else
        p->stats.sets_replayed++;
    return true;
}

/* The level of stack item w among those read, or NONE. */
static uint32_t rec_level(const struct parser *p, uint32_t w)
{
    for (uint32_t i = 0; i < p->nrec_old; i++)
        if (p->rec_old[i] == w)
            return i;
    return NONE;
}

static void rec_word(struct parser *p, uint32_t w)
{
    p->rec_words = xgrow(p->rec_words, &p->rec_words_cap, p->nrec_words + 1, sizeof *p->rec_words);
    p->rec_words[p->nrec_words++] = w;
}

/* After set j was built (before its summaries): its transition into
 * rec_words, or p->rec off when it is not one way on. */
void rec_structure(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    uint32_t first = p->set_first_item, n = (uint32_t)(f->nitems - first);
    uint32_t D = (uint32_t)p->nrec_old;
    p->rec = false;
    p->prog_ok = false;
    if (p->accept_stamp == j + 1 || n == 0 || n > STATES_MAX_ITEMS || D == 0 ||
        D > STATES_MAX_DEPTH || p->rec_old[0] != p->rec_w0)
        return;
    for (uint32_t i = 0; i < D; i++) {
        if (i + 1 < D && stack_next(p, p->rec_old[i]) != p->rec_old[i + 1])
            return;
        if (ITEM(f, p->rec_old[i]).node == f->start_node)
            return;
    }
    for (uint32_t s = 0; s < f->nsymbols; s++) {
        uint32_t dv = SYMBOL(f, s).derivs;
        if (dv != NONE && !(dv & LIST_ONE))
            return;
    }
    p->nrec_words = 0;
    rec_word(p, STATE_DONE), rec_word(p, NONE); /* the id: given by rec_finish */
    rec_word(p, D), rec_word(p, n), rec_word(p, 0), rec_word(p, 0), rec_word(p, 0),
        rec_word(p, 0);
    if (p->expected_set == j)
        for (size_t i = 0; i < p->nexpected; i++) {
            uint32_t leaf = p->expected[i], end;
            if (p->g->nodes[leaf].kind == NODE_LIT && p->lit_len[leaf] > 1) {
                rec_word(p, leaf), rec_word(p, leaf_matches(p, leaf, j, &end));
                p->rec_words[4]++;
            }
        }
    for (size_t i = 0; i < p->nrec_tb; i += 4) {
        uint32_t word;
        if (!tb_cond_word(p, p->rec_tb + i, j, D, &word))
            return;
        bool asked = false; /* the same question asked again: once is enough */
        for (uint32_t c = 0; c < p->rec_words[4] && !asked; c++)
            asked = p->rec_words[2 + TR_HEAD + 2 * c] == (COND_TB | p->rec_tb[i]) &&
                    p->rec_words[2 + TR_HEAD + 2 * c + 1] == word;
        if (asked)
            continue;
        rec_word(p, COND_TB | p->rec_tb[i]), rec_word(p, word);
        p->rec_words[4]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        struct item it = ITEM(f, first + i);
        if (it.dot == 0) {
            if (it.anchor != j || it.list == NONE || !(it.list & LIST_ONE) ||
                (it.list & ~LIST_ONE) < first)
                return;
            rec_word(p, TR_PRED), rec_word(p, it.node), rec_word(p, (it.list & ~LIST_ONE) - first);
            continue;
        }
        uint32_t pk = it.list;
        if (pk == NONE || PACKED(f, pk).next != NONE)
            return;
        uint32_t w = PACKED(f, pk).left != NONE ? PACKED(f, pk).left : it.anchor;
        if (ITEM(f, w).node != it.node || ITEM(f, w).dot + 1 != it.dot ||
            item_pred(f, w) != it.anchor)
            return;
        rec_word(p, TR_ADV);
        if (w >= first) {
            rec_word(p, TR_NEW), rec_word(p, w - first);
            continue;
        }
        uint32_t level = rec_level(p, w);
        if (level == NONE)
            return;
        rec_word(p, TR_OLD), rec_word(p, level);
    }
    /* Nothing was pending past j when the set began: every entry is its. */
    for (uint32_t off = 1; off <= p->pending_mask; off++)
        for (uint32_t e = p->pending_head[(j + off) & p->pending_mask]; e != NONE;
             e = PENDING(p, e).next) {
            if (PENDING(p, e).waiter < first)
                return;
            rec_word(p, off), rec_word(p, PENDING(p, e).waiter - first),
                rec_word(p, PENDING(p, e).symbol);
            p->rec_words[5]++;
        }
    if (p->pending_head[j & p->pending_mask] != NONE)
        return;
    for (uint32_t i = 0; i < D; i++) {
        bool input = false;
        for (uint32_t k = 0; k < n && !input; k++) {
            const uint32_t *it = p->rec_words + 2 + TR_HEAD + 2 * p->rec_words[4] + 3 * k;
            input = it[0] == TR_ADV && it[1] == TR_OLD && it[2] == i &&
                    ITEM(f, p->rec_old[i]).dot > 0;
        }
        if (input)
            rec_word(p, i), p->rec_words[6]++;
    }
    p->rec = true;
}

/* The values program just recorded (p->prog, the values it made in
 * p->prog_seen), appended to rec_words with what does not depend on the
 * inputs worked out: a value made only of constants, extensions and such
 * values (a leaf's summary, its marks) is the set it was when recorded
 * (ids stay valid until the states are cleared, which every collection of
 * the chain sets does), added as PROG_CONST or output as PROG_OUT_CONST;
 * adding the empty set is left out; and a value that is one input or one
 * value and nothing else is that operand (a take of one set is the set,
 * its count the operand's), so it makes no value of its own. */
static void prog_fold(struct parser *p)
{
    enum { F_CONST, F_INPUT, F_VALUE };
    uint32_t nvalues = p->prog_values, made = 0;
    struct { uint32_t kind, arg; } *as = xmalloc(((size_t)nvalues + 1) * sizeof *as);
    size_t start = 0, k = 0;
    for (size_t i = 0; i < p->nprog; i += 2) {
        uint32_t op = p->prog[i], arg = p->prog[i + 1];
        if (op == PROG_OUT) {
            rec_word(p, as[arg].kind == F_CONST   ? PROG_OUT_CONST
                        : as[arg].kind == F_INPUT ? PROG_OUT_INPUT
                                                  : PROG_OUT);
            rec_word(p, as[arg].arg);
            continue;
        }
        if (op != PROG_TAKE)
            continue;
        /* Value k: the ops from start to i. */
        bool constant = p->prog_seen[k].count == 1 && !p->prog_seen[k].infinite;
        uint32_t operands = 0, others = 0, last_kind = F_CONST, last_arg = CHAIN_SET_EMPTY;
        for (size_t o = start; o < i; o += 2) {
            uint32_t oop = p->prog[o], oarg = p->prog[o + 1];
            if (oop == PROG_INPUT)
                constant = false, operands++, last_kind = F_INPUT, last_arg = oarg;
            else if (oop == PROG_VALUE && as[oarg].kind != F_CONST)
                constant = false, operands++, last_kind = as[oarg].kind, last_arg = as[oarg].arg;
            else if (oop == PROG_EXTEND)
                others++;
            else if ((oop == PROG_CONST ? oarg : as[oarg].arg) != CHAIN_SET_EMPTY)
                others++;
        }
        if (constant) {
            as[k].kind = F_CONST, as[k].arg = p->prog_seen[k].summary;
        } else if (operands == 1 && others == 0) {
            as[k].kind = last_kind, as[k].arg = last_arg;
        } else {
            for (size_t o = start; o < i; o += 2) {
                uint32_t oop = p->prog[o], oarg = p->prog[o + 1];
                if (oop == PROG_VALUE) {
                    oop = as[oarg].kind == F_CONST   ? PROG_CONST
                          : as[oarg].kind == F_INPUT ? PROG_INPUT
                                                     : PROG_VALUE;
                    oarg = as[oarg].arg;
                }
                if (oop == PROG_CONST && oarg == CHAIN_SET_EMPTY)
                    continue;
                rec_word(p, oop), rec_word(p, oarg);
            }
            rec_word(p, PROG_TAKE), rec_word(p, 0);
            as[k].kind = F_VALUE, as[k].arg = made++;
        }
        k++;
        start = i + 2;
    }
    free(as);
}

/* After set j's summaries: the transition and the values of its items. */
void rec_finish(struct parser *p, uint32_t j)
{
    struct forest *f = p->f;
    p->rec = false;
    if (p->stats.sets_by_components != p->rec_components)
        return;
    /* The values program after the inputs (none if one could not be made). */
    size_t inputs_at = p->nrec_words - p->rec_words[6];
    if (p->prog_ok) {
        size_t at = p->nrec_words;
        prog_fold(p);
        p->rec_words[7] = (uint32_t)(p->nrec_words - at);
    }
    if (parse_states_memory(p->states) > STATES_MAX_BYTES)
        states_clear(p);
    const uint32_t *t = p->rec_words;
    uint32_t D = t[2], n = t[3], len;
    uint32_t key[6], origins[STATES_MAX_DEPTH], above = NONE;
    uint32_t keys[STATES_MAX_DEPTH][6];
    bool known[STATES_MAX_DEPTH];
    for (uint32_t d = 0; d < D; d++) {
        level_key(p, key, p->rec_old, origins, d, above, p->rec_leaf, text_at(f, j));
        memcpy(keys[d], key, sizeof key);
        const uint32_t *v = parse_states_get(p->states, key, 6, &len);
        known[d] = v != NULL;
        if (!v)
            above = NONE; /* a new state: numbered below */
        else if ((v[0] == STATE_DONE) != (d + 1 == D))
            return; /* read further or less in another way (another literal matched) */
        else
            above = v[1];
        if (!v) {
            /* New states from here down: number them now. */
            for (uint32_t e = d; e < D; e++) {
                if (e > d) {
                    level_key(p, key, p->rec_old, origins, e, above, p->rec_leaf, text_at(f, j));
                    memcpy(keys[e], key, sizeof key);
                    known[e] = false;
                }
                uint32_t value[2] = {e + 1 == D ? STATE_DONE : STATE_MORE, p->ntransitions++};
                above = value[1];
                next_levels_of(p, above); /* room: replay_set indexes it directly */
                if (e + 1 < D) {
                    parse_states_put(p->states, keys[e], 6, value, 2);
                    continue;
                }
                /* The transition: its id and words. */
                p->rec_words[0] = STATE_DONE, p->rec_words[1] = above;
                parse_states_put(p->states, keys[e], 6, p->rec_words, (uint32_t)p->nrec_words);
                p->stats.transitions++;
            }
            break;
        }
    }
    uint32_t id = above;
    if (known[D - 1]) {
        const uint32_t *old = parse_states_get(p->states, keys[D - 1], 6, &len);
        if (!old || len != p->nrec_words ||
            memcmp(old + 2, t + 2, (len - 2) * sizeof *t) != 0)
            return;
    }
    t = p->rec_words; /* not moved: rec_words is the parser's */
    uint32_t ninputs = t[6];
    const uint32_t *inputs = t + inputs_at;
    uint32_t vkey[2 + 4 * STATES_MAX_DEPTH];
    vkey[0] = TAG_VALUES, vkey[1] = id;
    for (uint32_t i = 0; i < ninputs; i++)
        value_key_input(p, vkey + 2 + 4 * i, p->rec_old[inputs[i]]);
    uint32_t values[4 * STATES_MAX_ITEMS], nv = 0;
    uint32_t first = p->set_first_item;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t item = first + i;
        if (ITEM(f, item).dot == 0)
            continue;
        value_key_input(p, values + nv, item);
        nv += 4;
    }
    parse_states_put(p->states, vkey, 2 + 4 * ninputs, values, nv);
}
