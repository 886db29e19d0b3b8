/* parse_det: where the Earley parser has exactly one thing to do with the
 * next character (the determinism analysis behind parse_kpaths' fast path).
 *
 * A unit chain is a downward path N_1 -> N_2 -> ... -> N_k -> L of the
 * grammar graph through reference and alternation nodes (the parser's "unit"
 * nodes, which complete as soon as their one child does; k may be 0) to a
 * leaf L that matches exactly one character.  The chain of (c, ch) is the one
 * an Earley set with one character of lookahead ch is left with when an item
 * waiting on node c predicts it: the predictions of the parser (parse_earley.c's
 * predict) from c, where a node that cannot start with ch (not nullable, ch
 * not in its FIRST) is not predicted and a leaf that does not match ch is a
 * dead end.  (c, ch) is *deterministic* when exactly one chain survives: each
 * node on it is a reference or an alternation that is not nullable and can
 * start with ch, an alternation has exactly one child that is not pruned, no
 * node occurs twice, and the leaf is a class matching ch or a one-character
 * literal equal to ch.  Anything else (two survivors, a sequence or a
 * quantifier on the way, a nullable node, a longer literal starting with ch,
 * no survivor at all) is not, and the parser builds its Earley set.
 *
 * Per deterministic chain it also keeps what the parser asks for each step:
 * the characters that every node of the chain can be followed by (its nodes
 * complete when the next character comes, and lookahead drops a completion
 * that the character cannot follow).
 *
 * Chains are interned: equal chains have equal ids (0, 1, ...), which stay
 * valid until parse_det_free; answers for ASCII characters are memoized per
 * node, so a step costs a lookup.  Ownership: the struct parse_det owns its
 * chains and memos and borrows the graph and the lookahead tables, which must
 * outlive it. */
#ifndef KPATH_PARSE_DET_H
#define KPATH_PARSE_DET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "parse/lookahead.h"

#define PARSE_DET_NONE UINT32_MAX
#define PARSE_DET_MAX_CHAIN 64 /* unit nodes on a chain; longer ones are not taken */

/* The struct is here only so that the three queries below, asked at every
 * character the fast path stands for, are inline; only parse_det.c writes
 * it. */
struct parse_det_chain_rec {
    uint32_t first, k, leaf; /* nodes[first .. first + k), then the leaf */
    uint32_t next;           /* the next chain with the same top node, or NONE */
    uint64_t follow[2];      /* what can follow every unit node of it */
    bool follow_high;
};

#define PARSE_DET_UNKNOWN (PARSE_DET_NONE - 1)

struct parse_det {
    const struct graph *g;
    const struct lookahead *la;
    struct parse_det_chain_rec *chains;
    uint32_t nchains;
    size_t chains_cap;
    uint32_t *nodes; /* the chains' unit nodes, one after the other */
    size_t nnodes, nodes_cap;
    uint32_t **memo;          /* per node: NULL, or per ASCII character a chain, NONE or UNKNOWN */
    uint32_t *high_ch, *high; /* per node: the last character >= 128 asked, and its answer */
    uint32_t *by_top;         /* per node: the first chain starting at it, or NONE */
    size_t memo_rows;
    const bool *barred;       /* NULL, or per node: no chain holds it (parse_det_bar) */
};

struct parse_det *parse_det_new(const struct graph *g, const struct lookahead *la);
void parse_det_free(struct parse_det *d);
/* No chain will hold a node with barred[node] set (borrowed; before the
 * first query): the nodes a sample's tokens constrain (token_bounds.h),
 * which the fast path, standing for sets without building them, would not
 * check. */
void parse_det_bar(struct parse_det *d, const bool *barred);
/* The chain of (c, ch) when it is deterministic, else PARSE_DET_NONE. */
uint32_t parse_det_chain_slow(struct parse_det *d, uint32_t c, uint32_t ch);
static inline uint32_t parse_det_chain(struct parse_det *d, uint32_t c, uint32_t ch)
{
    if (ch < 128 && d->memo[c] && d->memo[c][ch] != PARSE_DET_UNKNOWN)
        return d->memo[c][ch];
    return parse_det_chain_slow(d, c, ch);
}
/* Chain `id`: its k unit nodes N_1 .. N_k (top first) and its leaf. */
static inline const uint32_t *parse_det_nodes(const struct parse_det *d, uint32_t id, uint32_t *k,
                                              uint32_t *leaf)
{
    *k = d->chains[id].k;
    *leaf = d->chains[id].leaf;
    return d->nodes + d->chains[id].first;
}
/* Can ch follow every unit node of chain `id` (so that they all complete
 * when ch is next)?  The leaf needs no check: the parser advances a leaf's
 * waiter without looking ahead. */
static inline bool parse_det_followed_by(const struct parse_det *d, uint32_t id, uint32_t ch)
{
    return lookahead_has(d->chains[id].follow, d->chains[id].follow_high, ch);
}
/* How many chains were found (ids are below this). */
uint32_t parse_det_count(const struct parse_det *d);
/* Bytes held. */
size_t parse_det_memory(const struct parse_det *d);

#endif
