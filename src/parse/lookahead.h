/* lookahead: FIRST and FOLLOW sets of the grammar graph's nodes, over single
 * characters (code points), for the parser's one character of lookahead.
 *
 * Per node: the ASCII characters (a 128-bit set) that can start an instance
 * of it and whether a character >= 128 can; the same for what can come right
 * after an instance anywhere in any derivation (a superset of what follows it
 * in one parse), and whether the input can end after it.  The virtual start
 * node (id graph->nnodes) has all-empty sets.  Computed once per parse by
 * worklists (each set only grows), never recursing.
 *
 * Ownership: the tables are owned by the struct lookahead; they borrow nothing
 * after lookahead_new returns. */
#ifndef KPATH_LOOKAHEAD_H
#define KPATH_LOOKAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"

struct lookahead {
    uint64_t (*first)[2];  /* per node (nnodes + 1): ASCII characters that can start it */
    bool *first_high;      /* per node: a character >= 128 can start it */
    uint64_t (*follow)[2]; /* per node: ASCII characters that can follow it */
    bool *follow_high;     /* per node: a character >= 128 can follow it */
    bool *follow_end;      /* per node: the input can end after it */
};

void lookahead_init(struct lookahead *la, const struct graph *g);
void lookahead_free(struct lookahead *la);

/* Is cp in the character set (bits, high)? */
static inline bool lookahead_has(const uint64_t bits[2], bool high, uint32_t cp)
{
    return cp < 128 ? (bits[cp >> 6] >> (cp & 63)) & 1 : high;
}

#endif
