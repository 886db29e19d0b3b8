/* parse: Earley parsing of sample inputs over the grammar graph.
 *
 * The parser works on characters (code points of UTF-8 input, no lexer) and
 * accepts every grammar kpath loads: left and right recursion, epsilon,
 * quantifiers and ambiguity.  Its result is a shared packed parse forest whose
 * symbol nodes are instances (graph node, start, end) of the same graph nodes
 * and ids everything else uses.  A k-path counts as present when it occurs in
 * any tree of the forest; forest_add_kpaths finds them with memoization, so a
 * node shared by many trees is processed once per distinct context.
 *
 * Nothing here recurses on the input or on nesting: deep inputs are safe.
 * Ownership: a forest owns its arrays and borrows the graph.
 * Implemented by parse_earley.c (the parse) and parse_forest.c (the forest_*
 * functions), helped by parse_summary.c and parse_replay.c: see
 * parse_internal.h. */
#ifndef KPATH_PARSE_H
#define KPATH_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/derivation.h"
#include "graph/expansion.h"
#include "graph/kpath.h"
#include "graph/pin.h"

#define PARSE_DEFAULT_MAX_INPUT (16u << 20) /* bytes */
#define PARSE_DEFAULT_MAX_MEMORY ((size_t)4 << 30) /* bytes */

struct parse_options {
    size_t max_input_size; /* bytes; larger inputs are refused, not parsed */
    /* Bytes a parse may take (0: the default): everything it allocates that
     * grows with the input, and what forest_count_trees and the k-path walk
     * will allocate over its forest.  A parse that needs more stops with an
     * error at the position it reached: the input is too long, or too
     * ambiguous, for the grammar. */
    size_t max_memory;
    /* NULL, or filled by parse_kpaths (for tests and benchmarks). */
    struct parse_stats *stats;
    /* parse_kpaths builds every Earley set, without its deterministic fast
     * path (for tests and benchmarks: the results are the same). */
    bool no_fast_path;
    /* NULL, or asked after every Earley set whether to stop (an interactive
     * caller's key press; it should answer fast, most times without looking):
     * true stops the parse with the error "parsing stopped here, as asked"
     * at the position reached. */
    bool (*should_stop)(void *ctx);
    void *should_stop_ctx;
};

/* What a parse without a forest did with its items. */
struct parse_stats {
    size_t items_made;       /* Earley items made: as many as parse_text's forest holds */
    size_t items_peak;       /* the most held at once (finished ones are collected) */
    size_t item_collections; /* collections of items, and of chain sets */
    size_t set_collections;
    /* The deterministic fast path: Earley sets it stood for without
     * building them, and the items of those (counted in items_made, not
     * built). */
    size_t sets_skipped;
    size_t items_skipped;
    /* Sets replayed from a transition recorded before (parse_states.h: the
     * same items made, counted in items_made, without building the set),
     * and the transitions recorded. */
    size_t sets_replayed;
    size_t transitions;
    /* Sets replayed with inputs not seen before: the transition's values
     * program made their values (not counted in sets_replayed). */
    size_t sets_computed;
    /* Bytes allocated for the text's code points: 4 per byte of the input
     * and 4 more; 1 per byte and 1 more when every code point is below 256;
     * 0 when the input is ASCII (its bytes are read as they are). */
    size_t text_bytes;
    /* Lookups of a state or of a transition's values, when a set may be
     * replayed, that parse_replay.c's caches did not answer (hash lookups). */
    size_t states_hashed;
    /* Levels below a known state that a replay's walk of the stack found
     * among the levels last met below that state (two per state, looked up
     * by its id), without the level cache or a hash lookup. */
    size_t levels_remembered;
    /* First levels of a replay's walk (its leaf, the next character, the
     * item waiting on the leaf) found the same way, by leaf and character. */
    size_t roots_remembered;
    /* Sets built whose values needed the search for cycles (a derivation
     * added to something already made, or a cycle): the others are
     * summarized in the order they were made. */
    size_t sets_by_components;
    /* Sets replayed after which the fast path was not asked: their
     * transition's shape (the items and pending leaves it writes, the
     * character it was entered with) is one it cannot stand for after, as
     * it found the first time it was asked after that transition. */
    size_t fast_path_unasked;
};

struct forest; /* opaque */

/* Parse text[0..len) (named `name` in diagnostics).  On success returns the
 * forest; on failure NULL and a diagnostic: "no parse: unexpected 'x';
 * expected one of '+', '-', ')'" at the furthest position any parse reached,
 * invalid UTF-8, an input over the size limit, or a parse over the memory
 * budget. */
struct forest *parse_text(const struct graph *g, const char *name, const char *text,
                          size_t len, const struct parse_options *opts,
                          struct diag_list *diags);
void forest_free(struct forest *f);

/* The same parse, for its k-paths only: adds the k-paths of every tree of the
 * input to sets[0 .. nsets) (spaces of any k), exactly what parse_text and
 * forest_add_kpaths_many would add; when expansions is not NULL, adds the
 * expansions of every tree to it, as forest_add_expansions would; and, when
 * trees is not NULL, sets *trees and *infinite as forest_count_trees would.  It keeps no forest: each Earley
 * set is summarized when it ends (chain_sets.h) and its derivations are
 * dropped, so it needs a fraction of the memory (the --max-memory budget
 * counts what it really holds).  Where the grammar leaves one way on through
 * a quantifier (parse_det.h: inside a JSON string, a number, whitespace) it
 * stands for those sets without building them (the deterministic fast path;
 * the results are the same), and a set built in a state seen before (one
 * leaf pending, the same next character and stack: parse_states.h) is
 * replayed from the first one's record.  False with the same diagnostics as parse_text. */
bool parse_kpaths(const struct graph *g, const char *name, const char *text, size_t len,
                  const struct parse_options *opts, struct kpath_set *const *sets, size_t nsets,
                  struct expansion_set *expansions, uint64_t *trees, bool *infinite,
                  struct diag_list *diags);

/* Number of derivation trees, saturating at FOREST_TREES_SATURATED; *infinite
 * is set when the forest has a cycle (a rule deriving itself without consuming
 * input). */
uint64_t forest_count_trees(const struct forest *f, bool *infinite);
/* A count that reached this does not fit in 64 bits (strictly: it is at least
 * 2^64 - 1); it is printed as "more than 2^64", never as a number. */
#define FOREST_TREES_SATURATED UINT64_MAX
/* A tree count for people: its digits, or "more than 2^64".  Returns buf. */
#define FOREST_TREES_TEXT_SIZE 24
const char *forest_trees_text(uint64_t trees, char buf[FOREST_TREES_TEXT_SIZE]);
/* Add the k-paths of every tree of the forest to `set`; returns how many were new. */
uint64_t forest_add_kpaths(const struct forest *f, struct kpath_set *set);
/* The same for several sets (spaces of different k) in one pass. */
uint64_t forest_add_kpaths_many(const struct forest *f, struct kpath_set *const *sets, size_t n);
/* The same, counting only the k-paths in a pinned context (see pin.h; all of
 * them when pins is NULL or empty). */
uint64_t forest_add_kpaths_pinned(const struct forest *f, struct kpath_set *const *sets, size_t n,
                                  const struct pin_set *pins);
/* Add the expansions (expansion.h) of every tree of the forest to `s`;
 * returns how many were new. */
uint64_t forest_add_expansions(const struct forest *f, struct expansion_set *s);
/* One tree of the forest: at every ambiguity, the derivation found first
 * (the earliest completed alternative, then the earliest split).  The tree
 * is built into `t` (initialized here).  Returns false if the forest is cyclic
 * along that choice. */
bool forest_first_tree(const struct forest *f, struct derivation *t);
/* The same tree without building it, for printing a tree as large as the
 * forest: visit is called with each of its nodes in pre-order (children
 * left to right), as forest_first_tree's instances come.  Its memory is a
 * stack as deep as the tree, which the parse's memory budget counts (the
 * passes over the forest).  Stops, returning false, when visit does. */
struct forest_visit {
    uint32_t node;       /* graph node */
    uint32_t depth;      /* 0 for the root */
    uint32_t start, end; /* the code points it spans: [start, end) */
    uint32_t ch;         /* a class leaf: the character it matched */
};
bool forest_walk_first_tree(const struct forest *f,
                            bool (*visit)(const struct forest_visit *v, void *ctx), void *ctx);
/* Statistics, for benchmarks. */
size_t forest_item_count(const struct forest *f);
struct forest_stats {
    size_t chars;                          /* code points of the input */
    size_t items, symbols, links, packed;  /* what the forest holds */
    size_t pending;                        /* the most advances waiting for a later set at once */
    size_t bytes;                          /* the forest's arrays, in use */
};
void forest_stats(const struct forest *f, struct forest_stats *out);

#endif
