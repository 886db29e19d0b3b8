/* oracle_check: what a program (the oracle) says about a grammar's k-paths.
 *
 * The oracle ran every input once (a campaign, campaign.h); an input is
 * *valid* when its run exited with one of the accepted exit codes (a signal,
 * a timeout or a start failure is never valid).  From the records, in order
 * of input size then path, each input is parsed (input_kpaths) for its
 * k-paths, k = 1 .. K, and:
 *  - per k, the k-paths every input of which was rejected (no valid input
 *    contains them: the grammar over-approximates there), each with the
 *    smallest rejected input containing it (first in that order) and how
 *    many rejected inputs contain it;
 *  - per rule, the inputs whose derivation uses it (one of the nodes of its
 *    right-hand side is among the input's 1-paths) and how many were valid;
 *  - per k, the k-paths covered and those covered by some valid input.
 * Inputs that cannot be read or parsed are counted and warned about, not
 * measured.  Soundness (the share of valid inputs) is the caller's: it knows
 * which inputs form which suite.
 *
 * Ownership: a report owns its arrays and the k-paths in them; it borrows
 * the records' input paths, so the results must outlive it. */
#ifndef KPATH_ORACLE_CHECK_H
#define KPATH_ORACLE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/graph.h"
#include "parse/parse.h"
#include "run/results.h"

/* Exit codes 0..255 that mean "valid". */
struct oracle_exits {
    bool ok[256];
};

/* Parse "0", "0,1,3": false when an item is not a code 0..255. */
bool oracle_exits_parse(const char *text, struct oracle_exits *out);
/* Is a run with this outcome ("exit:N", ...) valid? */
bool oracle_valid(const char *outcome, const struct oracle_exits *exits);

struct oracle_rejected_path {
    uint32_t *path;          /* owned; k ids */
    const char *smallest;    /* borrowed: the smallest rejected input with it */
    uint64_t smallest_size;
    size_t rejected;         /* rejected inputs that contain it */
};

struct oracle_k {
    uint32_t k;
    uint64_t total;          /* k-paths of the grammar; UINT64_MAX when saturated */
    uint64_t covered;        /* by the measured inputs */
    uint64_t accepted;       /* by the valid ones */
    struct oracle_rejected_path *rejected; /* in lexicographic order of ids */
    size_t nrejected;
};

struct oracle_rule {
    uint32_t rule;           /* index in the grammar */
    size_t inputs;           /* measured inputs that use it */
    size_t valid;
};

struct oracle_report {
    size_t inputs, valid;    /* records, and those valid */
    size_t measured;         /* parsed */
    struct oracle_k *ks;     /* K of them */
    uint32_t K;
    struct oracle_rule *rules; /* rules reachable in the graph, in grammar order */
    size_t nrules;
};

void oracle_check_compute(const struct results *r, const struct graph *g, uint32_t K,
                          const struct parse_options *po, const struct oracle_exits *exits,
                          struct oracle_report *out, struct diag_list *diags);
void oracle_report_free(struct oracle_report *rep);

#endif
