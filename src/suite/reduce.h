/* reduce: what each input of a suite covers, as items of one universe, and
 * the smallest subset of the inputs that keeps every item (setcover.h).
 *
 * Items are k-paths for every k from 1 to K (an input's kpath sets, as
 * input_kpaths.h or derivation_add_kpaths fill them) and behaviour features
 * (indices into a results file's feature table, results.h).  Each distinct
 * item gets one id, the first time an input brings it; each input keeps the
 * sorted ids of its items, so "what only this input covers" and "what this
 * subset covers" are merges of small sorted lists.  This is the selection
 * logic behind `kpath reduce`; the TUI's "mark the inputs that add coverage"
 * is meant to call the same functions.
 *
 * Ownership: a reduce owns its inputs' names and item lists, the items and
 * the node ids of their k-paths. */
#ifndef KPATH_REDUCE_H
#define KPATH_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/kpath.h"
#include "algo/setcover.h"

struct reduce_item {
    uint32_t k;   /* path length; 0 for a behaviour feature */
    uint32_t ref; /* k-path: offset of its k node ids in path_ids; feature: its index */
};

struct reduce_input {
    char *name;      /* owned: where the input came from */
    uint64_t bytes;
    uint32_t *items; /* owned: sorted item ids */
    uint32_t nitems;
};

struct reduce_item_entry; /* uthash, private */

struct reduce {
    uint32_t max_k;
    struct reduce_item *items;
    uint32_t nitems;
    size_t items_cap;
    uint32_t *path_ids;
    size_t npath_ids, path_ids_cap;
    struct reduce_input *inputs;
    uint32_t ninputs;
    size_t inputs_cap;
    struct reduce_item_entry *index;
};

void reduce_init(struct reduce *r, uint32_t max_k);
void reduce_free(struct reduce *r);
/* Add an input: sets[j-1] holds its j-paths for j = 1 .. max_k (NULL when
 * none), features[0..nfeatures) its behaviour features.  Returns its index. */
uint32_t reduce_add_input(struct reduce *r, const char *name, uint64_t bytes,
                          const struct kpath_set *const *sets, const uint32_t *features,
                          uint32_t nfeatures);
/* The node ids of a k-path item. */
static inline const uint32_t *reduce_item_path(const struct reduce *r, uint32_t item)
{
    return r->path_ids + r->items[item].ref;
}
/* Choose the subset (setcover_solve over the inputs, cost = bytes). */
void reduce_solve(const struct reduce *r, const struct setcover_options *o,
                  struct setcover_result *res);
/* The items of input `which` that no other input of subset[0..n) covers
 * (subset NULL: among all inputs), into a malloc'd array; *count says how many. */
uint32_t *reduce_only(const struct reduce *r, const uint32_t *subset, uint32_t n,
                      uint32_t which, uint32_t *count);
/* Items covered by subset[0..n) (NULL: all inputs), per kind: per_kind[0]
 * features, per_kind[k] k-paths (max_k + 1 entries). */
void reduce_coverage(const struct reduce *r, const uint32_t *subset, uint32_t n,
                     uint64_t *per_kind);

#endif
