/* suite_min: the suite `kpath cover` gives by default, the fewest inputs
 * kpath can make at the coverage the greedy close-off reached, and among
 * suites of that many inputs the fewest bytes in total.
 *
 * Greedy (close-off) decides slot by slot and so packs many k-paths into one
 * tree: the fewest inputs, but not always the fewest bytes (expr, k = 2:
 * 8 inputs of 334 bytes).  suite_min_run is the final pass after a greedy
 * run that drops redundant inputs (gen_options.drop_redundant): it makes
 * more candidate inputs with the same options and seed, the whole suites of
 * the shortest close-off (the smallest input for each target left, each
 * closed with the shortest subtrees) and of the random close-off, nothing
 * dropped, and solves the set cover over the union of them and the greedy
 * suite (setcover_solve): each candidate costs its bytes and covers the
 * counted k-paths it holds that the greedy suite covers; the objective is
 * lexicographic, fewest inputs, then fewest bytes; the greedy suite is the
 * initial cover.  So the result never has more inputs than greedy's suite,
 * nor more bytes with as many, and keeps exactly its coverage (the chosen
 * inputs may hold more k-paths; they count as covered).  The result is
 * minimal among these candidates when setcover says `optimal`; otherwise it
 * is the best its heuristics found.
 *
 * Deterministic: the extra runs use the generator's seed, and the choice
 * depends only on the candidates.  Bounded: the extra runs make at most one
 * input per k-path each, and the pass switches itself off (the suite stays
 * greedy's, outcome SUITE_MIN_TOO_BIG) above SUITE_MIN_MAX_KPATHS k-paths,
 * where setcover's greedy step (inputs x candidates' k-paths) would be
 * quadratic in the grammar.
 *
 * Ownership: suite_min_run replaces gen->inputs (the generator keeps owning
 * them; each kept input's new_paths are recounted in the new order). */
#ifndef KPATH_SUITE_MIN_H
#define KPATH_SUITE_MIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/* Above this many k-paths (of length k, in the grammar) the pass is off. */
#define SUITE_MIN_MAX_KPATHS 100000u

enum suite_min_outcome {
    SUITE_MIN_OFF,      /* not asked for, or not a finished greedy run that drops */
    SUITE_MIN_TOO_BIG,  /* switched itself off: more than SUITE_MIN_MAX_KPATHS */
    SUITE_MIN_DONE,
};

struct suite_min_report {
    enum suite_min_outcome outcome;
    size_t before_inputs;      /* greedy's suite */
    uint64_t before_bytes;
    size_t after_inputs;       /* the suite now in the generator */
    uint64_t after_bytes;
    size_t candidates;         /* inputs the cover was chosen from */
    bool optimal;              /* setcover proved it minimal among them */
    uint64_t kpaths;           /* k-paths of the grammar (gen->space.total) */
};

/* Whether the pass applies to this generator: kpath strategy, greedy
 * close-off, drop_redundant, not recurrent, finished without error. */
bool suite_min_applies(const struct generator *gen);

/* Run the pass when it applies (else outcome OFF, nothing changes). */
void suite_min_run(struct generator *gen, struct suite_min_report *rep);

#endif
