/* bonsai: growing a concise corpus along a lattice of bounds (after Bonsai
 * fuzzing, Vikram et al., ICSE 2021), one lattice point per step.
 *
 * The bounds are the depth of a derivation tree (reference nodes on its
 * longest root-to-leaf path), the repetitions of every quantifier (Bonsai's
 * "items") and the size of the input in bytes.  Points are visited from
 * (1, 1, smallest size) upwards in order of the sum of their coordinates
 * (ties: depth, then repetitions, then size), so every point comes after all
 * the points below it.  At each point two generators run within its bounds
 * (gen.h): the k-path strategy (shortest close-off), whose agenda starts with
 * every K-path the corpus already covers marked as covered, so it only aims
 * at what is new, and the random strategy (`random_count` inputs, seeded from
 * the run's seed).  Their inputs are considered together, shortest first
 * (ties: in the order made), and one is kept only when it stays within the
 * point's bounds and adds coverage: some j-path, for any j from 1 to K, that
 * no kept input covers.  An input's j-paths are those of its text, parsed
 * (input_kpaths.h): every derivation tree of an ambiguous text counts, as in
 * kpath coverage, not only the tree the generator built.
 *
 * Seeds: the corpus of the points below (every coordinate at most this
 * point's) seeds the next, as in Bonsai: besides the two generators, each
 * point makes `mutations` mutants, each a kept input of a point below (chosen
 * at random) with one subtree under a reference replaced by another instance
 * of the same rule, taken at random from this point's random inputs and the
 * seeds (subtree splicing: the mutant's decisions are the seed's with one
 * contiguous block of them, its subtree's, swapped for the donor's).  Mutants
 * are candidates like the others, so they stay within the point's bounds.
 *
 * Behaviour features: a point can be taken in two halves.  bonsai_begin_point
 * makes the candidates (shortest first; `fits` says which can be kept at all,
 * those whose text no earlier point considered); the caller runs those it
 * wants and gives each its features (bonsai_set_features: ids of the caller's
 * choosing, e.g. a results file's feature indices); bonsai_end_point keeps a
 * candidate when it adds a j-path or a feature no kept input has.  bonsai_step
 * is the two halves without features.
 *
 * Features only (`features_only`, with features): an input is kept only for
 * the behaviour features it brings, as coverage-guided fuzzing keeps them,
 * and also when it is shorter than every kept input that reaches one of its
 * features, so that for each feature the shortest candidate reaching it is
 * kept.  Its k-paths still steer generation: the k-path strategy aims at
 * what no candidate run so far covers (`explored`), not the corpus.
 *
 * Pruning: bonsai_prune, after the last point, drops inputs made redundant by
 * others, the longest first (ties: the later kept), so of two inputs that
 * cover the same the shorter stays.  An input is redundant when every item it
 * covers (its features, and its j-paths unless features_only) is covered by
 * another input still in the corpus.  Coverage (features, and the j-paths
 * unless features_only) is the same after it.
 *
 * Ownership: a bonsai borrows the graph and owns its spaces, sets and the
 * kept inputs. */
#ifndef KPATH_BONSAI_H
#define KPATH_BONSAI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/derivation.h"
#include "graph/graph.h"
#include "graph/kpath.h"
#include "base/rng.h"

#define BONSAI_DEFAULT_MAX_DEPTH 10u
#define BONSAI_DEFAULT_MAX_REPETITIONS 3u
#define BONSAI_DEFAULT_MAX_BYTES 256u
#define BONSAI_DEFAULT_RANDOM_COUNT 10u
#define BONSAI_DEFAULT_MUTATIONS 10u
#define BONSAI_SMALLEST_BYTES 16u /* the size axis doubles from here */

struct bonsai_options {
    uint32_t k;
    uint32_t max_depth;       /* the depth axis: 1 .. max_depth */
    uint32_t max_repetitions; /* the repetitions axis: 1 .. max_repetitions */
    uint32_t max_bytes;       /* the size axis: 16, 32, ... doubling, then max_bytes */
    uint32_t random_count;    /* random inputs per point (0: the k-path strategy only) */
    uint32_t mutations;       /* mutants of seeds per point (0: no seeds) */
    uint64_t seed;
    bool features_only;       /* keep inputs for behaviour features only (see above) */
};

struct bonsai_point {
    uint32_t depth, repetitions, max_bytes;
    uint32_t size_level;      /* 1-based place of max_bytes on the size axis */
    uint32_t generated;       /* inputs both generators made */
    uint32_t kept;            /* of them, kept */
    uint64_t kept_bytes;
    uint32_t mutants;         /* of the generated, mutants of seeds */
    uint64_t *covered;        /* owned; per j = 1..k: the corpus's j-paths after it */
    uint64_t features;        /* behaviour features the corpus reaches after it */
};

enum bonsai_origin { BONSAI_KPATH, BONSAI_RANDOM, BONSAI_MUTANT };
const char *bonsai_origin_name(enum bonsai_origin o); /* "kpath", "random", "mutant" */

/* A candidate of the point being visited (between begin and end). */
struct bonsai_candidate {
    struct derivation tree;        /* owned */
    char *text;               /* owned, NUL-terminated (may hold NUL bytes: see len) */
    size_t len;
    uint32_t depth;
    enum bonsai_origin origin;
    bool fits;                /* within the point's bounds and new text: can be kept */
    uint32_t *features;       /* owned; set by bonsai_set_features */
    uint32_t nfeatures;
};

struct bonsai_input {
    struct derivation tree;        /* owned */
    char *text;               /* owned (may hold NUL bytes: see len) */
    size_t len;
    uint32_t point;           /* index into points */
    enum bonsai_origin origin;
    uint32_t depth;
    uint64_t new_paths;       /* j-paths (all j) it added, as parsed */
    uint32_t new_features;    /* behaviour features it added */
    uint32_t *features;       /* owned; the features it reaches */
    uint32_t nfeatures;
};

struct bonsai_text; /* uthash set of texts considered, private */

struct bonsai {
    const struct graph *graph;       /* borrowed */
    struct bonsai_options opts;
    struct kpath_space *spaces;      /* owned; j = 1..k */
    struct kpath_set *covered;       /* owned; per j, the corpus's j-paths */
    struct kpath_set *explored;      /* owned; per j, the j-paths of every candidate run */
    struct kpath_set *scratch;       /* owned; per j, the input being considered */
    struct kpath_set **scratch_ptrs; /* owned; pointers to them */
    struct rng rng;
    struct bonsai_point *points;     /* owned; in visiting order */
    uint32_t npoints, next;
    struct bonsai_input *inputs;     /* owned */
    size_t ninputs, inputs_cap;
    uint64_t total_bytes;
    struct bonsai_candidate *cands;  /* owned; the point being visited */
    size_t ncands;
    bool in_point;                   /* between begin and end */
    bool *feature_seen;              /* owned; by feature id */
    uint32_t feature_slots;
    uint64_t features;               /* behaviour features the corpus reaches */
    size_t *shortest;                /* owned; by feature id: the shortest kept input's length */
    size_t pruned;                   /* inputs bonsai_prune dropped */
    uint64_t pruned_bytes;
    struct bonsai_text *seen_texts;  /* owned */
    char *error;                     /* owned; set when a step failed */
};

/* What the lattice's depth leaves out of reach: of the K-paths the corpus
 * does not cover (`uncovered`; `examined` of them looked at, at most the
 * limit given, in rank order), how many no tree within max_depth holds
 * (`out_of_reach`), the depth the deepest of those needs (`needed_depth`),
 * and how many no tree at all holds (`in_no_tree`).  As kpath cover says it
 * for its own depth limit. */
struct bonsai_reach {
    uint64_t uncovered, examined, out_of_reach, in_no_tree;
    uint32_t needed_depth;
};
/* False with *error (malloc'd) when the generator that measures depths
 * cannot be made. */
bool bonsai_out_of_reach(const struct bonsai *b, uint64_t limit, struct bonsai_reach *out,
                         char **error);

void bonsai_options_default(struct bonsai_options *o);
/* NULL with *error (malloc'd) when the options cannot work. */
struct bonsai *bonsai_new(const struct graph *g, const struct bonsai_options *o, char **error);
void bonsai_free(struct bonsai *b);
/* Visit the next lattice point; false when every point was visited (or a
 * generator failed: see b->error). */
bool bonsai_step(struct bonsai *b);
/* The first half of a step: the next point's candidates in b->cands.  False
 * when no point is left or on error (b->error). */
bool bonsai_begin_point(struct bonsai *b);
/* Candidate i's behaviour features (copied; each id at most once). */
void bonsai_set_features(struct bonsai *b, size_t i, const uint32_t *ids, uint32_t n);
/* The second half: keep what adds coverage, free the candidates.  False on
 * error (b->error). */
bool bonsai_end_point(struct bonsai *b);
/* Drop the inputs others make redundant, longest first (see above); recounts
 * the corpus's coverage.  False on error (b->error). */
bool bonsai_prune(struct bonsai *b);

#endif
