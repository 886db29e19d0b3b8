/* workspace: the state of one exploration of a grammar, shared by every front
 * end (the TUI is one; anything it does, a script can do through this API).
 *
 * A workspace holds the grammar (its file, SHA-256 and the duplications
 * applied to it), its graph, the current k with its k-path space, the inputs
 * (generated ones with their derivation trees, samples with their parse
 * forests), the coverage of all inputs at the current k, a probability table
 * (learn.h's layout) with where each alternation's numbers come from, pins,
 * the generation options and the generator being stepped.
 *
 * Coverage is kept as the sorted ranks of the covered k-paths, so the i-th
 * covered or uncovered k-path is a binary search away (workspace_nth): a
 * front end lists a million k-paths by unranking only the rows it shows.
 * When the space is saturated (more than 2^64 k-paths) ranks do not exist;
 * then only the counts are available and workspace_listable() is false.
 *
 * Long work is incremental: workspace_gen_step does one generator step, so a
 * caller can interleave it with input handling.
 *
 * Its export as a test suite is workspace_export.h; its file (save and
 * open) is workspace_file.h.
 *
 * Ownership: the workspace owns everything it points to.  Errors go to a
 * diag_list; nothing here prints or exits. */
#ifndef KPATH_WORKSPACE_H
#define KPATH_WORKSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/derivation.h"
#include "gen/gen.h"
#include "grammar/grammar.h"
#include "formats/grammar_load.h"
#include "graph/graph.h"
#include "graph/kpath.h"
#include "gen/learn.h"
#include "graph/pin.h"
#include "base/sha256.h"
#include "base/strbuf.h"

/* Where an alternation's probabilities come from. */
enum ws_prob_source {
    WS_PROB_UNIFORM,   /* nothing said: equal shares */
    WS_PROB_ANNOTATED, /* the grammar's weights */
    WS_PROB_LEARNED,   /* counted in the samples */
    WS_PROB_UNSEEN,    /* learning on, but no sample reached it: uniform */
    WS_PROB_INVERTED,  /* learned, then inverted */
    WS_PROB_EDITED,    /* changed by hand */
};
const char *ws_prob_source_name(enum ws_prob_source s);

/* Which k-paths a list shows. */
enum ws_filter { WS_UNCOVERED, WS_COVERED, WS_ALL };
const char *ws_filter_name(enum ws_filter f);

struct forest;

struct ws_input {
    char *text;             /* owned, NUL-terminated (may hold NULs: see len) */
    size_t len;
    char *sample;           /* owned; the sample's file, NULL for generated inputs */
    struct forest *forest;  /* owned; samples only */
    struct derivation tree;      /* owned; generated: its tree; sample: its first tree */
    bool has_tree;          /* false for a sample whose first tree is cyclic */
    bool ambiguous;         /* sample with several trees */
    uint32_t depth;
    bool marked;            /* for export */
    uint32_t session;       /* the generator session that made it; 0 for samples */
    uint32_t *target;       /* owned; k-path strategy: its target (target_k ids) */
    uint32_t target_k;
    bool target_covered;    /* the target was among the k-paths it added */
    char *origin;           /* owned; how it was made, a JSON object for the
                               export manifest (NULL: not known, e.g. from an
                               older workspace file); samples need none */
    uint64_t nnew;          /* k-paths of the current k it added, in list order */
    uint64_t *ranks;        /* owned; its k-paths (current k), sorted, unique;
                               NULL when the space is saturated */
    size_t nranks;
};

struct ws_dup {
    char *rule;             /* owned */
    uint32_t alternative;   /* 1-based, 0 = all */
    uint32_t depth;         /* 0 = no limit */
};

/* With pins, the k-paths listed are those under the pins: the ranks of the
 * k-paths starting at each symbolic node under a pin, one interval per node. */
struct ws_interval {
    uint64_t lo, len;       /* ranks [lo, lo + len) */
    uint64_t before;        /* k-paths of the intervals before this one */
};

struct workspace {
    char *grammar_path;          /* owned; as given */
    char grammar_sha256[SHA256_HEX_SIZE];
    char *start;                 /* owned; the forced start rule, or NULL */
    enum grammar_format format;  /* as --format gave it; AUTO: by the extension */
    struct grammar *grammar;     /* owned (duplications applied) */
    struct graph *graph;         /* owned */
    struct ws_dup *dups;         /* owned */
    size_t ndups;

    uint32_t k;
    struct kpath_space space;    /* owned */
    struct kpath_set covered;    /* owned; union over the inputs */
    uint64_t *covered_ranks;     /* owned; sorted (not when saturated) */
    uint64_t *node_covered;      /* owned; per node id: covered k-paths starting there
                                    (derived lazily: use workspace_node_covered) */
    bool *node_seen;             /* owned; derived lazily: workspace_node_seen */
    uint64_t expansions_used;    /* derived lazily: workspace_expansions_used;
                                    UINT64_MAX until asked for */

    struct ws_input *inputs;     /* owned */
    size_t ninputs, inputs_cap;

    struct gen_options gen_opts; /* k and probabilities are filled in at start */
    double *probs;               /* owned; probability_table_size entries */
    size_t nprobs;
    uint8_t *prob_source;        /* owned; per node (alt and quant), ws_prob_source */
    struct learned learned;      /* owned; counts from the samples */
    bool learned_valid;          /* learned matches the samples */

    uint32_t *rule_alts;         /* owned; derived: each rule's alt nodes, pre-order */
    uint32_t *rule_alts_start;   /* owned; per rule, into rule_alts (nrules + 1) */
    struct pin_set pins;         /* owned; active pins (pin.h) */
    struct ws_interval *under;   /* owned; with pins: the k-paths under them */
    size_t nunder;
    uint64_t total_under;
    uint64_t *covered_pos;       /* owned; with pins: covered ranks' positions
                                    among the k-paths under the pins */

    struct generator *gen;       /* owned; being stepped, or NULL */
    uint32_t session;            /* generator sessions started so far */
    size_t gen_taken;            /* gen->inputs already copied into inputs */
    char *gen_error;             /* owned; the last generator's error */
    char *gen_origin;            /* owned; the origin of the generator's inputs */

    char *results_path;          /* owned; the results file of the last run of the
                                    inputs through a program (:run), or NULL */
    char *file;                  /* owned; where it was last saved or opened from */
    bool dirty;                  /* changed since loaded, opened or saved */
    uint64_t changes;            /* counts every change (for autosave) */
    /* NULL, or handed to every parse of a sample (parse_options'
     * should_stop): the explorer stops a long one when a key is pressed. */
    bool (*parse_should_stop)(void *ctx);
    void *parse_should_stop_ctx;
};

/* A workspace on a grammar file (k = GEN_DEFAULT_K, default options), or
 * NULL with diagnostics.  `start` may be NULL. */
struct workspace *workspace_new(const char *grammar_path, const char *start,
                                struct diag_list *diags);
/* The same, reading the grammar in `format` (--format; saved with the
 * workspace as a line "format NAME"). */
struct workspace *workspace_new_format(const char *grammar_path, const char *start,
                                       enum grammar_format format, struct diag_list *diags);
void workspace_free(struct workspace *ws);

/* ---- k and coverage ------------------------------------------------------ */
bool workspace_set_k(struct workspace *ws, uint32_t k, struct diag_list *diags);
/* Can k-paths be listed by rank (the space is not saturated)? */
bool workspace_listable(const struct workspace *ws);
uint64_t workspace_count(const struct workspace *ws, enum ws_filter f);
/* Rank of the i-th k-path of the filter (i < workspace_count). */
uint64_t workspace_nth(const struct workspace *ws, enum ws_filter f, uint64_t i);
/* Position of the k-path of rank r in the filter's list, or UINT64_MAX when
 * it is not in it. */
uint64_t workspace_position(const struct workspace *ws, enum ws_filter f, uint64_t rank);
/* Position in the filter's list of the first k-path of rank >= r (the list's
 * length when there is none). */
uint64_t workspace_position_from(const struct workspace *ws, enum ws_filter f, uint64_t rank);
bool workspace_rank_covered(const struct workspace *ws, uint64_t rank);
/* k-paths of the current k starting at node id, and how many are covered. */
uint64_t workspace_node_total(const struct workspace *ws, uint32_t id);
uint64_t workspace_node_covered(const struct workspace *ws, uint32_t id);
/* Does node id occur in some input's tree (in any tree of a sample)? */
bool workspace_node_seen(const struct workspace *ws, uint32_t id);
/* Expansion coverage (expansion.h): the expansions some tree of some input
 * uses (every tree of a sample), and all of the grammar's.  Pins do not
 * restrict it. */
uint64_t workspace_expansions_used(const struct workspace *ws);
uint64_t workspace_expansions_total(const struct workspace *ws);
/* Inputs whose trees contain the k-path of rank r: their indices into
 * out[0..max); returns how many there are in all. */
size_t workspace_covered_by(const struct workspace *ws, uint64_t rank, size_t *out, size_t max);

/* ---- inputs -------------------------------------------------------------- */
/* Parse and add one sample; false with a diagnostic when it does not parse. */
bool workspace_add_sample(struct workspace *ws, const char *name, const char *text, size_t len,
                          struct diag_list *diags);
/* Add samples from files and directories (expanded as samples_expand does:
 * directories searched, hidden files and suite manifests skipped, in path
 * order).  Returns how many were added; every failure is reported and the
 * rest still processed. */
size_t workspace_add_samples(struct workspace *ws, char *const *paths, size_t n,
                             struct diag_list *diags);
/* Read one sample file and add it; false (reported) when it cannot be read
 * or parsed.  The TUI loads many samples one file per slice with this. */
bool workspace_add_sample_file(struct workspace *ws, const char *path, struct diag_list *diags);
/* Add a generated input (the tree is copied; target may be NULL). */
void workspace_add_generated(struct workspace *ws, const struct derivation *tree,
                             const uint32_t *target, uint32_t session);
/* Add a generated input known by its text alone, its tree the first the
 * parser finds (the forest is not kept): an input of a workspace file whose
 * decisions no longer rebuild it.  False with a diagnostic when the text does
 * not derive from the grammar. */
bool workspace_add_parsed(struct workspace *ws, const char *text, size_t len,
                          struct diag_list *diags);
/* Set the k-path (k node ids, copied) an input was generated for, and
 * whether its tree contains it. */
void ws_input_set_target(struct ws_input *in, const uint32_t *target, uint32_t k);
/* Remove inputs for which keep[i] is false. */
void workspace_remove_inputs(struct workspace *ws, const bool *keep);
size_t workspace_marked(const struct workspace *ws);

/* ---- generation ---------------------------------------------------------- */
/* Start a generator with gen_opts (count inputs; 0: the k-path strategy
 * until done, the others GEN_DEFAULT_COUNT).  The
 * k-path strategy's agenda leaves out what the inputs already cover. */
bool workspace_gen_start(struct workspace *ws, uint32_t count, struct diag_list *diags);
/* One step of the generator (started with count 0 when there is none).
 * Returns false when generation is over.  A finished tree becomes an input. */
bool workspace_gen_step(struct workspace *ws);
bool workspace_gen_running(const struct workspace *ws);
/* Generate one input whose tree contains `path` (a k-path of the current k):
 * the k-path strategy with shortest close-off, aimed at that path alone, so
 * the input is as small as the walk and the close-off make it.  The input is
 * added (to no generator session).  False with a diagnostic when no tree
 * within the depth limit contains the path (saying the depth it needs). */
bool workspace_cover_path(struct workspace *ws, const uint32_t *path, struct diag_list *diags);
/* Drop the generator; with drop_inputs, also the inputs its session made. */
void workspace_gen_reset(struct workspace *ws, bool drop_inputs);

/* ---- probabilities ------------------------------------------------------- */
/* Back to the grammar's own weights. */
void workspace_probs_reset(struct workspace *ws);
/* Learn from the samples (false when there are none). */
bool workspace_probs_learn(struct workspace *ws);
/* Count the samples into `learned` again without changing the table: for a
 * table restored from a file whose numbers were learned. */
void workspace_relearn(struct workspace *ws);
/* Invert the current table. */
void workspace_probs_invert(struct workspace *ws);
/* Set alternative i (0-based) of alt node `node` to p in [0,1]; the others
 * are scaled so the alternation sums to 1.  False when out of range. */
bool workspace_probs_set(struct workspace *ws, uint32_t node, uint32_t i, double p);
/* The alt node of alternation number `which` (1-based, pre-order) of `rule`,
 * for ":prob RULE ALT VALUE" addressing; NODE_NONE when none. */
uint32_t workspace_rule_alt_node(const struct workspace *ws, uint32_t rule, uint32_t which);

/* ---- grammar changes ------------------------------------------------------- */
/* kpath dup on the workspace's grammar: the graph is rebuilt, inputs parsed
 * again, probabilities reset.  On failure nothing changes. */
bool workspace_dup(struct workspace *ws, const char *rule, uint32_t alternative, uint32_t depth,
                   struct diag_list *diags);
/* Undo the last duplication: the grammar as read from its file with the
 * duplications before it applied again, then as workspace_dup.  False, with
 * nothing changed, when there is none or the file changed since it was read. */
bool workspace_undup(struct workspace *ws, struct diag_list *diags);
/* Parse "A_0 -> B_3" style paths (node names or ids; arrows optional) into
 * node ids; false with a diagnostic naming the bad node. */
bool workspace_parse_path(const struct workspace *ws, const char *text, uint32_t **path,
                          uint32_t *len, struct diag_list *diags);
/* Pins (pin.h): with pins, the lists are the k-paths under them, coverage
 * counts k-paths covered in a pinned context (in any tree of a sample), the
 * export's manifest too, and generation aims inside the pins. */
bool workspace_pin(struct workspace *ws, const char *text, struct diag_list *diags);
void workspace_unpin(struct workspace *ws);
/* Remove the pin at `index` (0-based, pins.pins order); false without it. */
bool workspace_unpin_at(struct workspace *ws, size_t index);
/* Is the k-path of rank r (its first node) under the pins (true without)? */
bool workspace_rank_under_pins(const struct workspace *ws, uint64_t rank);

/* ---- text helpers -------------------------------------------------------- */
/* "AddExpr_0 -> "+"_10" (arrow as given). */
void workspace_path_name(const struct workspace *ws, const uint32_t *path, uint32_t k,
                         const char *arrow, struct strbuf *out);

#endif
