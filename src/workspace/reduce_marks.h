/* reduce_marks: `kpath reduce` over a workspace's inputs, for the TUI's
 * "mark the inputs that add coverage" key: the inputs a reduce keeps (the
 * fewest, then the fewest bytes, that cover every j-path, j = 1 .. K, the
 * inputs cover; each text parsed as kpath reduce parses it) become the
 * marked ones, every other input is unmarked, so an export keeps only them.
 * The CLI form of the same is `kpath reduce -k K GRAMMAR INPUTS...`.
 *
 * Ownership: nothing is kept; the workspace's marks are changed in place. */
#ifndef KPATH_REDUCE_MARKS_H
#define KPATH_REDUCE_MARKS_H

#include <stddef.h>
#include <stdint.h>

#include "algo/setcover.h"
#include "workspace/workspace.h"

struct reduce_marks_report {
    size_t inputs, marked, unparsed; /* unparsed inputs stay unmarked */
    uint64_t bytes, marked_bytes;
    uint64_t *covered;               /* owned; per j = 1..k: j-paths kept */
    uint32_t k;
    bool optimal;                    /* setcover proved it */
};

/* Mark what a reduce of ws's inputs keeps for k-paths 1..k. */
void reduce_marks(struct workspace *ws, uint32_t k, struct reduce_marks_report *rep);
void reduce_marks_report_free(struct reduce_marks_report *rep);

#endif
