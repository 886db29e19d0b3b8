/* suite_min: the suite `kpath cover` gives by default: no more inputs and
 * no more bytes than the greedy close-off's suite, and of such suites the
 * fewest inputs, then the fewest bytes, that this pass finds (then, with
 * packing bounded, lists split into their parts for no more bytes: see
 * below).
 *
 * Greedy (close-off) decides slot by slot and so packs many k-paths into one
 * tree: the fewest inputs of the close-offs, but not always the fewest bytes
 * (expr, k = 2: 8 inputs of 334 bytes).  suite_min_run is the final pass
 * after a greedy run that drops redundant inputs (drop_redundant): it makes
 * more candidate inputs with the same options and seed, the whole suites of
 * the shortest close-off (the smallest input for each target left) and of
 * the random close-off, nothing dropped, and the tight candidates (for
 * each greedy input, a greedy run targeting only the k-paths no other
 * greedy input holds: a replacement with fewer bytes, often; skipped above
 * 2^20 greedy inputs x graph nodes), and solves the set cover
 * (setcover_solve: fewest inputs, then fewest bytes, from greedy's suite as
 * the initial cover) twice: over greedy's, the shortest suite's and the
 * tight inputs, and over those and the random suite's.  Each cover is then
 * shrunk (suite_shrink.h: smaller trees, every k-path still held) and
 * covered again (inputs an edit made redundant go).  Each has no more
 * inputs than greedy's, nor more bytes with as many; the first never has
 * more bytes either (the shortest inputs only replace greedy's by smaller
 * ones, and shrinking only removes bytes).  The result is the one with
 * fewer inputs, then fewer bytes, of those with no more bytes than greedy's
 * suite: so the pass never trades bytes for inputs.  Why not plain
 * lexicographic order: the random suite holds long inputs that cover much
 * at once, and it would trade heavily (before the shrinking: arith, k = 1:
 * 5 inputs of 18 bytes for 1 of 176; expr, k = 3: 40 of 838 bytes for 27 of
 * 1216).  Coverage: the covers keep greedy's k-paths, the shrinking every
 * k-path its cover holds (chosen inputs may hold more than greedy's: they
 * count as covered).  With packing bounded (pack_size, the default), an
 * input that is a list of parts is then split into them where that costs no
 * bytes (suite_split.h), so the suite may have more inputs than greedy's,
 * never more bytes.  `optimal`: setcover proved the cover, before the
 * shrinking, minimal among its candidates; otherwise it is the best found.
 *
 * Deterministic: the extra runs use the generator's seed, the choice
 * depends only on the candidates, and the shrinking makes no random choice.
 * Bounded: the extra runs make at most one input per target each and cost
 * about what the greedy run costs; setcover is near-linear in the
 * candidates' k-path lists (lazy greedy); each shrinking stops at
 * SUITE_SHRINK_BUDGET work; above SUITE_MIN_MAX_KPATHS k-paths the pass
 * switches itself off (outcome SUITE_MIN_TOO_BIG: the suite stays
 * greedy's), since it holds three suites at once.
 *
 * Ownership: suite_min_run replaces gen->inputs with copies of the chosen
 * candidates (the generator owns them; each kept input's new_paths are
 * recounted in the new order). */
#ifndef KPATH_SUITE_MIN_H
#define KPATH_SUITE_MIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/gen.h"
#include "suite/suite_shrink.h"

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
    size_t candidates;         /* inputs the chosen cover was chosen from */
    bool optimal;              /* setcover proved it minimal among them */
    uint64_t kpaths;           /* k-paths of the grammar (gen->space.total) */
    struct suite_shrink_stats shrink; /* the chosen suite's shrinking */
    struct suite_shrink_stats grafts; /* its grafts (kept: inputs grafted) */
    size_t split;              /* inputs split into their parts (suite_split.h) */
    size_t unsplit_inputs;     /* the suite's inputs before that */
};

/* Whether the pass applies to this generator: kpath strategy, greedy
 * close-off, drop_redundant, not recurrent, finished without error, and
 * not a run whose every input stays as made (gen_keeps_inputs: -n 1, a
 * --target space too big to count redundancy): a caller may have handed
 * those on already, and the pass would change them. */
bool suite_min_applies(const struct generator *gen);

/* Run the pass when it applies (else outcome OFF, nothing changes). */
void suite_min_run(struct generator *gen, struct suite_min_report *rep);

#endif
