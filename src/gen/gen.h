/* gen: input generators, one derivation decision at a time.
 *
 * Strategies:
 *  - GEN_KPATH: the k-path algorithm.  The agenda is every k-path; each tree
 *    takes the next target from it, walks from the root towards the target's
 *    nodes one slot at a time (along the smallest way, see below), hands
 *    the tree to a close-off strategy
 *    once the whole target is in it, and removes every k-path the finished tree
 *    contains from the agenda.  Runs until the agenda is empty or `count`
 *    inputs were made (count 0: no limit).
 *  - GEN_RANDOM: uniform choices among the alternatives that still fit under
 *    the depth limit and the size budget, repetitions uniform within bounds;
 *    with nothing that fits, the smallest choice (see the size budget).
 *    GEN_COVERAGE: the same, but chooses by deep foresight, as fuzzingbook's
 *    GrammarCoverageFuzzer does: the alternatives with the most expansions
 *    (see expansion.h) not used by any tree yet, at the smallest lookahead
 *    depth (in references) where any alternative has one; random among ties.  GEN_PROB: alternatives
 *    drawn by probability (0 is never drawn unless nothing else closes).
 *    These make `count` inputs; their trees stay within --max-depth whenever
 *    the grammar allows it.
 *
 * Close-off strategies (kpath only), for the slots still open once the target
 * is in the tree: GEN_CLOSE_SHORTEST fills each with a smallest complete
 * subtree (terse inputs); GEN_CLOSE_RANDOM chooses uniformly among the
 * alternatives whose smallest subtree fits under the depth limit and repeats
 * quantified items a random number of times within bounds; GEN_CLOSE_GREEDY
 * takes the alternative that adds the most k-paths not covered yet (then one
 * that can still lead to one, then the shortest) and repeats quantified items
 * up to the cap while they can lead to new k-paths: fewer, longer inputs.
 *
 * The smallest way.  The walk to a target's first node follows the smallest
 * context of that node: the tree with the fewest characters, then the fewest
 * tree nodes (graph.h's min_weight), around an instance of it, found once
 * for the whole graph (one Dijkstra search from the root), so planning a
 * target costs the length of its way.  With pins the way goes through a
 * pin: the smallest context of its first node, its chain, and the smallest
 * way from its last node down to the target (the same search seeded there,
 * once per pin); of the pins and of each leg's smallest or shallowest way,
 * the lightest tree within --max-depth.  When every such tree is deeper
 * than --max-depth, the walk takes the way that needs the least
 * depth instead: the derivation distance, from a slot, is the fewest
 * reference nodes on the way to the next target node and below every
 * sibling that has to be closed on the way (depth as everywhere: reference
 * nodes on the longest root-to-leaf path).  A target that no tree within
 * --max-depth can contain is reported with the depth it needs.  So the
 * smallest input containing a target is the smallest one within the depth
 * limit whenever the smallest overall fits (and a shallow one otherwise).
 * Exactly the smallest within the limit, wherever (limit + 1) x graph nodes
 * stays within size_table.h's bound: once planned, a way that is not
 * provably the smallest (its tree within the limit is heavier than the
 * smallest overall, or there are pins) is checked against size_table's
 * exact search, which replaces it when lighter, and the shortest close-off
 * takes the smallest subtree within the depth left (gen_smallest_exact).
 *
 * The size budget (--max-size, in tree nodes) is one mechanism for every
 * strategy: the generator keeps the fewest nodes the tree will have once
 * every open slot is closed in the smallest way, and a free choice (random,
 * coverage and prob alternatives, repetitions, random and greedy close-off)
 * may only take what keeps that within the budget; with nothing left, it
 * takes the smallest alternative and the fewest repetitions.  So a tree
 * exceeds the budget only where the depth limit forces it.  A grammar whose
 * smallest input exceeds the budget (or the depth limit) is refused by
 * gen_new, naming the rule (the depth it needs);
 * a k-path whose smallest tree exceeds it is reported unreachable with the
 * size it needs.  Nothing is allocated for a repetition bound before it is
 * chosen, and choices never exceed the budget.
 *
 * The step API: gen_step fills exactly one open slot (one derivation_expand) or, at
 * the start of a tree, picks the target; after each step the caller reads
 * gen->last (what was done and why) and gen->events.  Running to the end is
 * stepping until gen_step returns false; nothing depends on being run in one
 * go, so stepping gives exactly the suite a single run gives.
 *
 * Ownership: the generator borrows the graph (and the probabilities, when
 * given) and owns everything else, including the finished inputs. */
#ifndef KPATH_GEN_H
#define KPATH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/derivation.h"
#include "graph/kpath.h"
#include "graph/pin.h"
#include "base/diag.h"
#include "base/rng.h"

enum gen_strategy { GEN_KPATH, GEN_RANDOM, GEN_COVERAGE, GEN_PROB };
enum gen_closeoff { GEN_CLOSE_SHORTEST, GEN_CLOSE_RANDOM, GEN_CLOSE_GREEDY };

#define GEN_DEFAULT_K 2u
#define GEN_DEFAULT_MAX_DEPTH 16u
#define GEN_DEFAULT_MAX_REPETITIONS 3u
#define GEN_DEFAULT_MAX_SIZE 2000u
#define GEN_DEFAULT_SEED 1u
#define GEN_DEFAULT_COUNT 10u /* inputs, for strategies other than kpath */
/* Greedy close-off's packing bound of kpath gen/cover and the explorer's
 * generator, in tree nodes (docs/suites.md: the suite that reaches most of
 * five programs, make bench, behaviour).  gen_options_default leaves
 * pack_size 0 (unbounded); the front ends set this.  Judged per input (the
 * explorer's :compare after B) the bound costs what it saves a program;
 * per byte, as the bench judges suites, it does not (docs/suites.md). */
#define GEN_DEFAULT_PACK_SIZE 60u
/* The largest agenda the k-path strategy holds (ranks, 8 bytes each): a
 * k whose k-paths are more is refused (gen_new). */
#define GEN_MAX_AGENDA (UINT64_C(1) << 26)

struct gen_options {
    enum gen_strategy strategy;
    enum gen_closeoff closeoff;     /* kpath strategy only */
    uint32_t k;                     /* k-path length (agenda and reports) */
    uint32_t max_depth;             /* reference nodes on a root-to-leaf path */
    /* How the user sets max_depth where they are, for refusals that tell
     * them to raise it: NULL is the command line's "--max-depth"; the
     * explorer's workspace names its ":depth". */
    const char *depth_setting;
    uint32_t max_repetitions;       /* cap for *, + and {n,} */
    uint32_t max_size;              /* tree nodes; the size budget of every strategy */
    /* Greedy close-off: packs k-paths into a tree only while it stays,
     * closed in the smallest way, within this many tree nodes (then it
     * closes like shortest); 0 = up to max_size.  A tree is larger only
     * where the way to its target alone needs more.  Why: an error early
     * in a long input masks what comes after it in a program (make bench,
     * behaviour).  kpath gen/cover: GEN_DEFAULT_PACK_SIZE. */
    uint32_t pack_size;
    uint64_t seed;
    uint32_t count;                 /* inputs to make; 0 = kpath until done */
    /* A probability table (see learn.h): alternative i of alt node n at
     * probabilities[first_child of n + i], and a quantifier's probability of
     * one more repetition at its edge (negative: uniform repetitions).
     * NULL: the grammar's weights. */
    const double *probabilities;
    /* Pinned contexts (see pin.h), or NULL: the agenda is then the k-paths
     * under the pins, every tree reaches its target through a pin (the way
     * passes along the pin's nodes and goes on below its last node), and only
     * k-paths in a pinned context count as covered. */
    const struct pin_set *pins;
    /* When set (k ids), the agenda is this one k-path: the smallest input
     * containing it (with shortest close-off): fewest characters, then tree
     * nodes, within the depth limit. */
    const uint32_t *only_path;
    /* When set (ntargets k-paths, k ids each), the agenda is these k-paths
     * only: subset targeting, the k-path paper's Section 4.4.1.  Duplicates
     * count once; with drop_redundant, an input is redundant when the other
     * inputs hold every target it holds.  only_path is the one-path case. */
    const uint32_t *targets;
    size_t ntargets;
    /* kpath strategy, the recurrent mode: once the agenda is done, start it
     * over (every reachable k-path a target again, in a new random order)
     * with random close-off, round after round, until `count` inputs (count
     * 0: forever; the caller stops stepping).  Never drops inputs.  A round
     * that makes no input ends generation. */
    bool recurrent;
    /* kpath strategy: once done, drop every input whose k-paths all occur
     * in the other inputs (coverage stays the same; each kept input's
     * new_paths are recounted).  Off by default: a caller that takes inputs
     * as they are made (the workspace) must not lose them afterwards. */
    bool drop_redundant;
};

void gen_options_default(struct gen_options *o);
const char *gen_strategy_name(enum gen_strategy s);   /* "kpath", "random", … */
const char *gen_closeoff_name(enum gen_closeoff c);   /* "shortest", "random", "greedy" */
bool gen_strategy_parse(const char *name, enum gen_strategy *out);
bool gen_closeoff_parse(const char *name, enum gen_closeoff *out);

enum gen_phase {
    GEN_PHASE_IDLE,      /* between trees */
    GEN_PHASE_TARGET,    /* walking towards the target's next node */
    GEN_PHASE_CLOSEOFF,  /* filling the slots that are still open */
    GEN_PHASE_FILL,      /* strategies without a target: filling every slot */
    GEN_PHASE_DONE,
};

/* Events of the last step, as bits. */
enum {
    GEN_EVENT_TREE_STARTED = 1u << 0,
    GEN_EVENT_TARGET_ADVANCED = 1u << 1, /* a created node was the next target node */
    GEN_EVENT_TARGET_REACHED = 1u << 2,  /* the whole target is in the tree */
    GEN_EVENT_CLOSEOFF_STARTED = 1u << 3,
    GEN_EVENT_TREE_FINISHED = 1u << 4,   /* see the newest input */
    GEN_EVENT_TARGET_SKIPPED = 1u << 5,  /* needs more depth; see unreachable */
    GEN_EVENT_DONE = 1u << 6,
};

/* One candidate of a decision: a child (or alternative) and its measure.
 * Walking to the target's first node along the smallest way, the steps left
 * to it for the child on that way, UINT32_MAX for the others (not on it);
 * along the shallowest way, `distance` is the derivation distance
 * (the depth the rest of the tree needs below the slot when it goes this way);
 * between target nodes, the edges to the next target node through synthetic
 * nodes only (one candidate can lead there); during close-off, the depth the
 * tree would reach with the candidate's smallest subtree.  UINT32_MAX: the
 * candidate cannot lead there. */
struct gen_candidate {
    uint32_t node;      /* graph node of the candidate */
    uint32_t distance;
};

/* What the last step did, and why. */
struct gen_decision {
    uint32_t inst;            /* the slot filled (instance in gen->tree), or
                                 DTREE_NONE when the step started a tree */
    uint32_t node;            /* its graph node */
    uint32_t decision;        /* as passed to derivation_expand */
    bool toward_target;       /* chosen by distance (else: close-off) */
    uint32_t target_node;     /* the next target node it moved towards */
    uint32_t ncandidates;
    struct gen_candidate *candidates; /* owned by the generator */
    uint32_t followed;        /* toward target: the child instance walked into */
};

/* A finished input. */
struct gen_input {
    /* owned; its derivation tree, packed (a suite of big trees would take
     * most of the memory otherwise): gen_input_tree rebuilds it */
    struct derivation_packed tree;
    char *text;               /* owned, NUL-terminated (may contain NUL: see len) */
    size_t len;
    uint32_t depth;           /* reference nodes on the longest root-to-leaf path */
    /* Tree nodes on the longest root-to-leaf path, every node counted: one
     * derivation step per grammar graph node, as the k-path paper counts a
     * tree's depth (shown beside kpath's depth so figures compare). */
    uint32_t derivation_depth;
    uint32_t *new_paths;      /* owned; k ids per k-path newly covered by it */
    uint32_t nnew;            /* how many k-paths */
    bool target_covered;      /* kpath strategy: its target was among them */
    uint32_t *target;         /* owned; kpath strategy: its target (k ids), else NULL */
    uint32_t round;           /* 1, or in the recurrent mode the round that made it;
                                 new_paths are new within that round */
};

/* A k-path no tree within max_depth can contain, or (empty_repetition) one
 * the generator found only inside a repetition past a quantifier's minimum
 * that produces no text, which no parse of the input holds (definitions.md). */
struct gen_unreachable {
    uint32_t *path;           /* owned; k ids */
    uint32_t needed_depth;    /* the smallest depth that allows it */
    uint64_t needed_size;     /* 0, or (when it fits the depth) the tree nodes
                                 its tree needs, more than max_size */
    bool empty_repetition;    /* found only in an empty repetition (depth and
                                 size then mean nothing) */
};

struct gen_state; /* private working state */

struct generator {
    const struct graph *graph;      /* borrowed */
    struct gen_options opts;
    struct kpath_space space;       /* owned; k-paths of length opts.k */
    struct kpath_set covered;       /* owned; k-paths covered so far */
    struct rng rng;

    enum gen_phase phase;
    unsigned events;                /* GEN_EVENT_* bits of the last step */
    struct derivation tree;              /* owned; the tree being built */
    uint32_t *target;               /* owned; current target (k ids), kpath only */
    uint32_t target_reached;        /* target nodes already in the tree */
    uint32_t *route_target_at;      /* owned; route position of each target node */
    struct gen_decision last;

    struct gen_input *inputs;       /* owned */
    size_t ninputs, inputs_cap;
    struct gen_unreachable *unreachable; /* owned */
    size_t nunreachable, unreachable_cap;

    uint32_t round;                 /* the agenda's round, from 1 (see recurrent) */
    char *error;                    /* owned; set when generation failed */
    struct gen_state *state;
};

/* Returns NULL with *error (malloc'd) when the options cannot work: k out of
 * range, or a k-path agenda too large to hold. */
struct generator *gen_new(const struct graph *g, const struct gen_options *opts, char **error);
void gen_free(struct generator *gen);

/* Do one step.  Returns false once generation is over (then phase is
 * GEN_PHASE_DONE, and gen->error says why if it failed). */
bool gen_step(struct generator *gen);
/* Step until the current tree is finished (or generation is over). */
bool gen_finish_tree(struct generator *gen);
/* Step until done (never, in the recurrent mode with count 0). */
void gen_run(struct generator *gen);
/* True when every input made stays in gen->inputs to the end (nothing is
 * dropped as redundant once done): a caller may then hand each one on as soon
 * as its tree is finished.  Known from the options and the k-path space:
 * without drop_redundant, outside the kpath strategy, in the recurrent mode,
 * with count 1, and when the space has more k-paths than an agenda may hold
 * (then redundancy is not counted; only explicit targets get that far).
 * Otherwise no input is certain to stay before generation ends: whether it
 * is dropped depends on the inputs made after it. */
bool gen_keeps_inputs(const struct generator *gen);

/* Count a k-path as covered already (by inputs made elsewhere): it leaves
 * the agenda.  Returns true when it was not covered yet.  Call it before
 * the first step or between trees. */
bool gen_mark_covered(struct generator *gen, const uint32_t *path);

/* A random member of a class, as the random strategies draw it: printable
 * ASCII when the class has any (inputs stay readable), else any member. */
uint32_t gen_random_class_char(const struct expr *cls, struct rng *rng);

/* k-paths still on the agenda (kpath strategy), not counting unreachable ones. */
uint64_t gen_agenda_left(const struct generator *gen);
/* The smallest depth a tree containing the k-path needs (through a pin when
 * the generator has pins), UINT32_MAX when no tree can contain it.  Call it
 * between trees (phase IDLE or DONE). */
uint32_t gen_needed_depth(struct generator *gen, const uint32_t *path);

/* Is the input made for each target the smallest tree within the depth
 * limit holding it (fewest characters, then tree nodes; with pins, in a
 * pinned context)?  True for the kpath strategy with the shortest close-off
 * when the exact size table (size_table.h) is affordable for the grammar and
 * the limit: the walk then goes the smallest way within the depth and the
 * close-off takes the smallest subtrees within the depth left. */
bool gen_smallest_exact(const struct generator *gen);
/* When the smallest input of g has more than max_size tree nodes (gen_new
 * then refuses it): a diagnostic of `severity` at the definition of the rule
 * to blame (FILE:LINE:COL, naming the --max-size it needs) added to `out`,
 * and true. */
bool gen_size_diag(const struct graph *g, uint32_t max_size, enum diag_severity severity,
                   struct diag_list *out);

/* The derivation tree of gen->inputs[i], rebuilt into `out` exactly as it
 * was made (free it with derivation_free). */
void gen_input_tree(const struct generator *gen, size_t i, struct derivation *out);

/* The distinct ranks (in gen->space, increasing) of the k-paths of `tree`
 * in a pinned context (with pins); with only_targets and `targets`, of the
 * targets among them (what drop_redundant keeps covered).  Returns how
 * many; *ranks is grown (xgrow, capacity *cap) and owned by the caller. */
size_t gen_tree_ranks(const struct generator *gen, const struct derivation *tree, bool only_targets,
                      uint64_t **ranks, size_t *cap);
/* What a finished input newly covers (new_paths, nnew, target_covered),
 * given its distinct ranks ascending: those not yet set in seen (a byte per
 * rank of the space), which it then sets.  Called in suite order, this is
 * what each input adds to the ones before it. */
void gen_input_count_new(const struct generator *gen, struct gen_input *in,
                         const uint64_t *ranks, size_t n, uint8_t *seen);
/* Free what a finished input owns (and zero it). */
void gen_input_free(struct gen_input *in);

/* Tree nodes on the longest root-to-leaf path of t (see gen_input). */
uint32_t gen_derivation_depth(const struct derivation *t);

/* A test seam: holder counts of drop_redundant from this value on are kept
 * in a map instead of a byte (255; at least 2).  Tests lower it so that the
 * map is used by small suites; the suite must not depend on it. */
extern unsigned gen_holders_in_map;

#endif
