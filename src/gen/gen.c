#include "gen/gen.h"
#include "gen/mend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/expansion.h"
#include "graph/written.h"
#include "base/leb128.h"
#include "gen/learn.h"
#include "base/saturate.h"
#include "gen/size_table.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* uthash allocates through our wrapper, which aborts instead of failing. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

#define INF32 UINT32_MAX
/* Backward distance tables kept for reuse (targets often share a start). */
#define COST_CACHE 16
/* Depth layers kept past --max-depth (see depth_layer); a target needing a
 * deeper tree than the last of them gets a search of its own. */
#define MAX_DEPTH_LAYERS 64

struct cost_entry {
    uint32_t start, tail; /* key: first target node, tail need */
    const uint32_t *within; /* key: the depth layer it is bounded by, or NULL */
    uint32_t *cost;       /* owned; per node, INF32 where the search never reached */
    /* The nodes whose cost is not INF32, so that reusing the table for
     * another key resets only them: a search that settles a few nodes of a
     * big graph costs what it settles, not the whole graph. */
    uint32_t *touched;    /* owned */
    size_t ntouched, touched_cap;
    uint64_t used;        /* for least-recently-used replacement */
};

/* A holder count too big for a byte of gen_state.holders (see there). */
struct holder_count {
    uint64_t rank;
    uint64_t count;
    UT_hash_handle hh;
};

static void holders_map_free(struct holder_count **map);

struct gen_state {
    /* For drop_redundant: how many inputs hold each target k-path (by rank),
     * counted as each tree finishes, while it is whole.  A byte each, exact
     * below gen_holders_in_map; at it, the exact count is in holders_map
     * (few k-paths have that many holders).  Exact, because a count that
     * stopped growing would also never fall: dropping would go on until a
     * k-path had no holder left. */
    uint8_t *holders;
    struct holder_count *holders_map;
    /* Also for drop_redundant: per input, the distinct ranks of its k-paths
     * (in the pinned context) ascending, as LEB128 differences, taken from
     * the tree as it finishes.  The end then decides and recounts from them
     * and rebuilds no tree: a few bytes per k-path, against a whole tree
     * rebuilt twice per input. */
    struct input_ranks {
        uint8_t *bytes;       /* owned */
        size_t len;
    } *input_ranks;
    size_t ninput_ranks, input_ranks_cap;
    uint64_t *rank_seen;      /* tree_ranks' scratch bitset (see struct rank_list) */
    /* ---- per graph ---- */
    bool *is_rule_node;       /* the node is some rule's right-hand side */
    uint32_t *side_top1, *side_top2, *side_top1_node; /* cats: the largest two min_depths */
    uint32_t *entry_side;     /* depth closing needs between a rule node and this node */
    uint32_t *refs_from_root; /* fewest references to reach the node */
    /* The smallest context of each node: the smallest tree (characters, then
     * tree nodes, as min_weight) that holds an instance of the node, without
     * the node's own subtree.  One Dijkstra search from the root for the
     * whole graph; ctx_pred[n] is the parent on that way, so the smallest way
     * to any node is read off in its length. */
    struct context {
        uint64_t *key;        /* what the search minimized (see compute_contexts) */
        uint32_t *pred;
        uint32_t *refs;       /* references on that way, the node included */
        uint32_t *side;       /* the depth closing its sides needs */
    } ctx[2];                 /* [0] smallest; [1] shallowest, then smallest */
    /* With pins: per pin, the smallest (and the shallowest) ways down from
     * its last node (the same searches seeded there; key NULL until a
     * target needs them). */
    struct context (*pin_ctx)[2]; /* per pin: [0] smallest; [1] shallowest, then smallest */
    size_t npin_ctx;
    const struct context *below_ctx; /* the one the last leg (pin to target) follows */
    const struct context *route_ctx; /* the one the current first leg follows */
    double *probabilities;    /* owned when computed from the grammar */
    /* ---- agenda (kpath strategy) ---- */
    uint64_t *agenda;
    size_t agenda_len, agenda_pos;
    struct kpath_set skipped; /* targets found unreachable within the depth */
    struct kpath_set target_set; /* with opts.targets: them */
    bool has_targets;
    size_t round_first_input; /* the first input of the current round */
    /* ---- current target ---- */
    uint32_t *route;          /* graph nodes from the root through every target node */
    size_t route_len, route_cap, route_pos;
    uint32_t walker;          /* the instance being walked */
    const uint32_t *cost;     /* backward distances to the first goal (pin or target) */
    const uint32_t *cost_below; /* with a pin: from its last node to the target */
    const struct pin *via;    /* the pin the current target is reached through */
    bool smallest_route;      /* the first leg follows route_ctx, not `cost` */
    size_t leg_end;           /* route position where the first leg (by cost) ends */
    struct cost_entry cache[COST_CACHE];
    /* Depth layers: layer[i][n] is the fewest references on a way from the
     * root to n (n's own included) that stays within depth max_depth + i
     * (see depth_layer); computed on demand, shared by every target. */
    uint32_t **layer;
    uint32_t nlayers;
    bool layers_final;        /* the last layer holds for every deeper one */
    uint64_t cache_clock;
    uint32_t *heap_node;      /* Dijkstra scratch */
    bool *settled;            /* compute_costs scratch: all false between searches */
    uint32_t *heap_key;
    /* ---- filling slots ---- */
    uint32_t *stack;          /* open slots, next on top (pre-order) */
    size_t stack_len, stack_cap;
    uint32_t *refs;           /* per instance: references from the root, itself included */
    size_t refs_cap;
    /* The size budget: the fewest tree nodes the tree will have once every
     * open slot is closed in the smallest way (its instances, plus the
     * smallest subtree below each open slot).  Every choice keeps it within
     * --max-size when it can; see size_fits. */
    uint64_t projected;
    /* ---- coverage strategy ---- */
    struct expansion_set used; /* expansions used by any tree so far */
    uint32_t *fs_level;       /* deep foresight scratch: per node, references from the alternative */
    uint32_t *fs_deque;       /* a ring of fs_cap slots */
    size_t fs_cap;
    uint64_t *fs_new;         /* per alternative and lookahead depth: new expansions */
    /* ---- greedy close-off ---- */
    bool greedy;
    /* Greedy close-off's class characters: per graph node, the member index
     * the next class slot takes (UINT32_MAX: not drawn yet; the first is
     * drawn from char_rng, a stream of its own so that the other draws stay
     * as they are), stepping by one each time (see varied_class_char). */
    uint32_t *class_next;
    struct rng char_rng;
    uint32_t *symup;          /* per instance: nearest symbolic ancestor */
    size_t symup_cap;
    struct kpath_set in_tree; /* k-paths of the tree being built */
    uint32_t *in_tree_paths;  /* k ids per path: what to clear for the next tree */
    size_t in_tree_len, in_tree_cap;
    uint64_t *open_ends;      /* per node: uncovered k-paths ending there */
    bool *leads;              /* per node: can lead to an open end */
    /* leads is repaired, not recomputed, between trees: each node that leads
     * somewhere names the open end it leads to (witness), and the nodes
     * naming one end are linked (witness_head, witness_next); when an end
     * closes, only the nodes naming it are looked at again. */
    uint32_t *witness, *witness_head, *witness_next;
    uint32_t *closed;         /* ends whose open_ends fell to 0 since the last repair */
    size_t nclosed, closed_cap;
    bool leads_stale;         /* recompute leads from scratch */
    uint32_t *leads_queue;    /* refresh_leads scratch, one entry per node */
    uint32_t *scratch_path;
    uint32_t *score_path;
    uint32_t *ancestors;
    uint32_t *frontier;
    size_t frontier_cap;
    uint32_t *frontier_stack;  /* frontier_of scratch */
    size_t frontier_stack_cap;
    /* ---- exact smallest within the depth (size_table.h) ---- */
    struct size_table *sizes; /* NULL: too large to afford, or not the kpath strategy */
    uint32_t *way;            /* its way to the target's first node */
    size_t way_cap;
    /* ---- scratch ---- */
    uint32_t *pick;
    double *weights;
};

/* ---- options -------------------------------------------------------------- */

void gen_options_default(struct gen_options *o)
{
    memset(o, 0, sizeof *o);
    o->strategy = GEN_KPATH;
    /* greedy makes the fewest inputs, and mostly the fewest bytes in total
     * (make bench): the one default of kpath cover/gen and the explorer.
     * Witnesses (why, C, bonsai) ask for shortest themselves. */
    o->closeoff = GEN_CLOSE_GREEDY;
    o->k = GEN_DEFAULT_K;
    o->max_depth = GEN_DEFAULT_MAX_DEPTH;
    o->max_repetitions = GEN_DEFAULT_MAX_REPETITIONS;
    o->max_size = GEN_DEFAULT_MAX_SIZE;
    o->seed = GEN_DEFAULT_SEED;
    o->count = 0;
}

static const char *const strategy_names[] = {"kpath", "random", "coverage", "prob"};
static const char *const closeoff_names[] = {"shortest", "random", "greedy"};

const char *gen_strategy_name(enum gen_strategy s)
{
    return strategy_names[s];
}

const char *gen_closeoff_name(enum gen_closeoff c)
{
    return closeoff_names[c];
}

bool gen_strategy_parse(const char *name, enum gen_strategy *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, strategy_names[i]) == 0)
            return *out = (enum gen_strategy)i, true;
    return false;
}

bool gen_closeoff_parse(const char *name, enum gen_closeoff *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, closeoff_names[i]) == 0)
            return *out = (enum gen_closeoff)i, true;
    return false;
}

/* ---- depth arithmetic ----------------------------------------------------- */

static uint32_t add32(uint32_t a, uint32_t b)
{
    return a > INF32 - b ? INF32 : a + b;
}

static uint32_t max32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

static bool is_ref(const struct graph *g, uint32_t n)
{
    return g->nodes[n].kind == NODE_REF;
}

/* A node's smallest subtree in tree nodes, capped so that sums over a whole
 * tree cannot overflow: anything past the cap is past every --max-size. */
#define SIZE_CAP (UINT64_C(1) << 40)
static uint64_t node_min_size(const struct graph *g, uint32_t n)
{
    return g->nodes[n].min_size < SIZE_CAP ? g->nodes[n].min_size : SIZE_CAP;
}

/* The depth, relative to the parent's, that closing p's other children needs
 * when the walk goes from p into child c. */
static uint32_t side_need(const struct generator *gen, uint32_t p, uint32_t c)
{
    const struct graph *g = gen->graph;
    const struct gen_state *st = gen->state;
    const struct graph_node *n = &g->nodes[p];
    if (n->kind == NODE_CAT)
        return st->side_top1_node[p] == c ? st->side_top2[p] : st->side_top1[p];
    if (n->kind == NODE_QUANT && n->expr->u.quant.min >= 2)
        return g->nodes[c].min_depth;
    return 0;
}

/* Can the walk pass from p into child c at all? */
static bool passable(const struct graph *g, uint32_t p)
{
    return g->nodes[p].kind != NODE_QUANT || g->nodes[p].expr->u.quant.max > 0;
}

/* Repetitions of a quant the walk passes through. */
static uint32_t walk_repetitions(const struct graph_node *n)
{
    return n->expr->u.quant.min > 1 ? n->expr->u.quant.min : 1;
}

/* Weight of what closing p's other children adds when the way goes from p
 * into child c (see min_weight in graph.h). */
static uint64_t side_weight(const struct graph *g, uint32_t p, uint32_t c)
{
    const struct graph_node *n = &g->nodes[p];
    if (n->kind == NODE_CAT)
        return n->min_weight == METRIC_INFINITE ? METRIC_INFINITE
                                                : n->min_weight - 1 - g->nodes[c].min_weight;
    if (n->kind == NODE_QUANT) {
        uint64_t others = walk_repetitions(n) - 1, w = g->nodes[c].min_weight;
        if (others && w > METRIC_INFINITE / others)
            return METRIC_INFINITE;
        return others * w;
    }
    return 0;
}

/* The smallest contexts (see gen_state): Dijkstra from `source` (the root,
 * or a pin's last node) over parent to child edges, each adding the parent's
 * node and its closed sides.  From another source than the root, refs and
 * side are relative to the source's depth (its own reference not counted). */
static void compute_contexts_from(struct generator *gen, struct context *cx, bool shallow,
                                  uint32_t source)
{
    const struct graph *g = gen->graph;
    uint32_t N = g->nnodes;
    cx->key = xmalloc((N + 1) * sizeof *cx->key);
    cx->pred = xmalloc((N + 1) * sizeof *cx->pred);
    cx->refs = xcalloc(N + 1, sizeof *cx->refs);
    cx->side = xcalloc(N + 1, sizeof *cx->side);
    for (uint32_t n = 0; n < N; n++)
        cx->key[n] = METRIC_INFINITE, cx->pred[n] = NODE_NONE;
    if (!N)
        return;
    bool *done = xcalloc(N + 1, sizeof *done);
    struct ctx_item { uint64_t key; uint32_t node; } *heap = NULL;
    size_t len = 0, cap = 0;
    uint32_t own = source == 0 ? is_ref(g, 0) : 0;
    cx->key[source] = shallow ? (uint64_t)own << 32 : 0;
    cx->refs[source] = own;
    heap = xgrow(heap, &cap, 1, sizeof *heap);
    heap[len++] = (struct ctx_item){cx->key[source], source};
    while (len) {
        struct ctx_item top = heap[0], last = heap[--len];
        size_t i = 0;
        for (;;) { /* sift `last` down from the root */
            size_t c = 2 * i + 1;
            if (c >= len)
                break;
            if (c + 1 < len && heap[c + 1].key < heap[c].key)
                c++;
            if (heap[c].key >= last.key)
                break;
            heap[i] = heap[c];
            i = c;
        }
        if (len)
            heap[i] = last;
        uint32_t p = top.node;
        if (done[p] || top.key != cx->key[p])
            continue;
        done[p] = true;
        if (!passable(g, p))
            continue;
        for (uint32_t j = 0; j < g->nodes[p].nchildren; j++) {
            uint32_t c = graph_children(g, p)[j];
            uint32_t refs = cx->refs[p] + is_ref(g, c);
            uint32_t side = max32(cx->side[p], add32(cx->refs[p], side_need(gen, p, c)));
            uint64_t w;
            if (shallow) /* the depth the way needs, then tree nodes */
                w = ((uint64_t)max32(refs, side) << 32) +
                    (((cx->key[p] & 0xffffffffu) + 1) & 0xffffffffu);
            else
                w = sat_add(sat_add(cx->key[p], 1), side_weight(g, p, c));
            if (done[c] || w >= cx->key[c])
                continue;
            cx->key[c] = w;
            cx->pred[c] = p;
            cx->refs[c] = refs;
            cx->side[c] = side;
            heap = xgrow(heap, &cap, len + 1, sizeof *heap);
            size_t at = len++;
            while (at > 0 && heap[(at - 1) / 2].key > w) {
                heap[at] = heap[(at - 1) / 2];
                at = (at - 1) / 2;
            }
            heap[at] = (struct ctx_item){w, c};
        }
    }
    free(heap);
    free(done);
}

static void compute_contexts(struct generator *gen, struct context *cx, bool shallow)
{
    compute_contexts_from(gen, cx, shallow, 0);
}

static void free_context(struct context *cx)
{
    free(cx->key);
    free(cx->pred);
    free(cx->refs);
    free(cx->side);
}

static void precompute(struct generator *gen)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t N = g->nnodes;
    st->is_rule_node = xcalloc(N + 1, sizeof *st->is_rule_node);
    for (uint32_t r = 0; r < g->grammar->nrules; r++)
        if (g->rule_node[r] != NODE_NONE)
            st->is_rule_node[g->rule_node[r]] = true;
    st->side_top1 = xcalloc(N + 1, sizeof *st->side_top1);
    st->side_top2 = xcalloc(N + 1, sizeof *st->side_top2);
    st->side_top1_node = xmalloc((N + 1) * sizeof *st->side_top1_node);
    for (uint32_t p = 0; p < N; p++) {
        st->side_top1_node[p] = NODE_NONE;
        if (g->nodes[p].kind != NODE_CAT)
            continue;
        for (uint32_t i = 0; i < g->nodes[p].nchildren; i++) {
            uint32_t c = graph_children(g, p)[i];
            uint32_t d = g->nodes[c].min_depth;
            if (st->side_top1_node[p] == NODE_NONE || d > st->side_top1[p]) {
                st->side_top2[p] = st->side_top1[p];
                st->side_top1[p] = d;
                st->side_top1_node[p] = c;
            } else if (d > st->side_top2[p]) {
                st->side_top2[p] = d;
            }
        }
    }
    /* Inside a right-hand side every node has one parent with a smaller id,
     * so one pass in id order accumulates the way down from the rule node. */
    st->entry_side = xcalloc(N + 1, sizeof *st->entry_side);
    for (uint32_t n = 0; n < N; n++) {
        if (st->is_rule_node[n])
            continue;
        uint32_t p = graph_parents(g, n)[0];
        st->entry_side[n] = max32(st->entry_side[p], side_need(gen, p, n));
    }
    /* Fewest references from the root: a 0-1 breadth-first search. */
    st->refs_from_root = xmalloc((N + 1) * sizeof *st->refs_from_root);
    for (uint32_t n = 0; n < N; n++)
        st->refs_from_root[n] = INF32;
    uint32_t *deque = xmalloc((2 * (size_t)N + 2) * sizeof *deque);
    size_t head = N + 1, tail = N + 1; /* room to push at both ends */
    st->refs_from_root[0] = is_ref(g, 0);
    deque[tail++] = 0;
    while (head < tail) {
        uint32_t p = deque[head++];
        if (!passable(g, p))
            continue;
        for (uint32_t i = 0; i < g->nodes[p].nchildren; i++) {
            uint32_t c = graph_children(g, p)[i];
            uint32_t d = st->refs_from_root[p] + is_ref(g, c);
            if (d < st->refs_from_root[c]) {
                st->refs_from_root[c] = d;
                if (is_ref(g, c))
                    deque[tail++] = c;
                else
                    deque[--head] = c;
            }
        }
    }
    free(deque);
    compute_contexts(gen, &st->ctx[0], false);
    compute_contexts(gen, &st->ctx[1], true);
}

/* ---- the target's tail and distances -------------------------------------- */

/* The depth, relative to the first target node's, that the rest of the target
 * needs: the ways between target nodes and closing below the last one. */
static uint32_t tail_need(const struct generator *gen, const uint32_t *path)
{
    const struct graph *g = gen->graph;
    uint32_t need = 0, refs = 0;
    for (uint32_t j = 1; j < gen->opts.k; j++) {
        need = max32(need, refs + gen->state->entry_side[path[j]]);
        refs += is_ref(g, path[j]);
    }
    uint32_t last = path[gen->opts.k - 1];
    return max32(need, refs - is_ref(g, last) + g->nodes[last].min_depth);
}

static void heap_sift_up(uint32_t *node, uint32_t *key, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (key[parent] <= key[i])
            break;
        uint32_t tn = node[i], tk = key[i];
        node[i] = node[parent], key[i] = key[parent];
        node[parent] = tn, key[parent] = tk;
        i = parent;
    }
}

static void heap_sift_down(uint32_t *node, uint32_t *key, size_t len)
{
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= len)
            break;
        if (c + 1 < len && key[c + 1] < key[c])
            c++;
        if (key[i] <= key[c])
            break;
        uint32_t tn = node[i], tk = key[i];
        node[i] = node[c], key[i] = key[c];
        node[c] = tn, key[c] = tk;
        i = c;
    }
}

/* cost[n]: the depth below n (relative to n's own) that reaching `start` from
 * n and completing everything on the way needs, the tail included.  Every
 * step's value is at least the value it came from, so Dijkstra's order works
 * backwards from `start` (Knuth's generalization, as in graph.c). */
/* With `within` (depth layer 0, when a way within max_depth is known to
 * exist), only nodes that can lie on such a way are settled: a node n with
 * within[n] + cost[n] > max_depth cannot (every way to it within the depth
 * has at least within[n] references), so the search stops there.  The nodes
 * of every way within the depth keep their exact costs, and any other child
 * costs more than the best one at each step of route_down, so the route is
 * the same as with the whole table; the rest read as unreachable. */
static void compute_costs(struct generator *gen, uint32_t start, uint32_t tail,
                          const uint32_t *within, struct cost_entry *e)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t *cost = e->cost;
    for (size_t i = 0; i < e->ntouched; i++)
        cost[e->touched[i]] = INF32;
    e->ntouched = 0;
    size_t len = 0; /* at most one entry per edge, plus the start */
    uint32_t *hn = st->heap_node, *hk = st->heap_key;
    bool *done = st->settled;
    cost[start] = tail;
    e->touched = xgrow(e->touched, &e->touched_cap, 1, sizeof *e->touched);
    e->touched[e->ntouched++] = start;
    hn[len] = start, hk[len] = tail, len++;
    while (len) {
        uint32_t c = hn[0], key = hk[0];
        len--;
        hn[0] = hn[len], hk[0] = hk[len];
        heap_sift_down(hn, hk, len);
        if (done[c] || key != cost[c])
            continue;
        done[c] = true;
        if (within && add32(within[c], key) > gen->opts.max_depth)
            continue;
        uint32_t up = add32(is_ref(g, c), cost[c]);
        for (uint32_t i = 0; i < g->nodes[c].nparents; i++) {
            uint32_t p = graph_parents(g, c)[i];
            if (done[p] || !passable(g, p))
                continue;
            uint32_t v = max32(side_need(gen, p, c), up);
            if (v < cost[p]) {
                if (cost[p] == INF32) {
                    e->touched = xgrow(e->touched, &e->touched_cap, e->ntouched + 1,
                                       sizeof *e->touched);
                    e->touched[e->ntouched++] = p;
                }
                cost[p] = v;
                hn[len] = p, hk[len] = v;
                heap_sift_up(hn, hk, len);
                len++;
            }
        }
    }
    /* Only touched nodes were settled. */
    for (size_t i = 0; i < e->ntouched; i++)
        done[e->touched[i]] = false;
}

static const uint32_t *costs_for(struct generator *gen, uint32_t start, uint32_t tail,
                                 const uint32_t *within)
{
    struct gen_state *st = gen->state;
    struct cost_entry *victim = &st->cache[0];
    for (int i = 0; i < COST_CACHE; i++) {
        struct cost_entry *e = &st->cache[i];
        if (e->cost && e->start == start && e->tail == tail && e->within == within) {
            e->used = ++st->cache_clock;
            return e->cost;
        }
        if (!e->cost || e->used < victim->used)
            victim = e;
    }
    if (!victim->cost) {
        size_t size = (size_t)gen->graph->nnodes + 1;
        victim->cost = xmalloc(size * sizeof *victim->cost);
        for (size_t n = 0; n < size; n++)
            victim->cost[n] = INF32;
    }
    victim->start = start;
    victim->tail = tail;
    victim->within = within;
    victim->used = ++st->cache_clock;
    compute_costs(gen, start, tail, within, victim);
    return victim->cost;
}

/* The walk's value of going from p into child c, by a cost table. */
static uint32_t step_cost_with(const struct generator *gen, const uint32_t *cost, uint32_t p,
                               uint32_t c)
{
    if (cost[c] == INF32 || !passable(gen->graph, p))
        return INF32;
    return max32(side_need(gen, p, c), add32(is_ref(gen->graph, c), cost[c]));
}

static uint32_t step_cost(const struct generator *gen, uint32_t p, uint32_t c)
{
    return step_cost_with(gen, gen->state->cost, p, c);
}

static void route_push(struct gen_state *st, uint32_t n)
{
    st->route = xgrow(st->route, &st->route_cap, st->route_len + 1, sizeof *st->route);
    st->route[st->route_len++] = n;
}

/* Append the way from `from` (not included) down to `to`, greedy on a cost
 * table: the costs strictly fall at every reference, so it ends. */
static void route_down(struct generator *gen, uint32_t from, uint32_t to, const uint32_t *cost)
{
    const struct graph *g = gen->graph;
    uint32_t n = from;
    while (n != to) {
        uint32_t best = NODE_NONE, best_cost = INF32;
        for (uint32_t i = 0; i < g->nodes[n].nchildren; i++) {
            uint32_t c = graph_children(g, n)[i];
            uint32_t v = step_cost_with(gen, cost, n, c);
            if (v < best_cost)
                best = c, best_cost = v;
        }
        n = best;
        route_push(gen->state, n);
    }
}

/* Append the way from symbolic `from` (not included) to its symbolic
 * successor `to`: through from's rule node, down the unique chain of
 * synthetic nodes of that right-hand side. */
static void route_chain(struct generator *gen, uint32_t from, uint32_t to)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t top = graph_children(g, from)[0];
    size_t mark = st->route_len;
    for (uint32_t m = to;; m = graph_parents(g, m)[0]) {
        route_push(st, m);
        if (m == top)
            break;
    }
    /* Pushed bottom-up: reverse the segment. */
    for (size_t a = mark, b = st->route_len - 1; a < b; a++, b--) {
        uint32_t t = st->route[a];
        st->route[a] = st->route[b];
        st->route[b] = t;
    }
}

/* Append the smallest way from `from` (not included; the source of cx) down
 * to `to`, read off the smallest contexts backwards. */
static void route_smallest(struct generator *gen, const struct context *cx, uint32_t from,
                           uint32_t to)
{
    struct gen_state *st = gen->state;
    size_t mark = st->route_len;
    for (uint32_t m = to; m != from; m = cx->pred[m])
        route_push(st, m);
    for (size_t a = mark, b = st->route_len ? st->route_len - 1 : 0; a < b; a++, b--) {
        uint32_t t = st->route[a];
        st->route[a] = st->route[b];
        st->route[b] = t;
    }
}

/* The fewest tree nodes a tree along the route has: each node walked
 * through, its closed sides, and the smallest subtree below the last. */
static uint64_t route_min_size(const struct generator *gen)
{
    const struct graph *g = gen->graph;
    const struct gen_state *st = gen->state;
    uint64_t size = 0;
    for (size_t i = 0; i + 1 < st->route_len; i++) {
        uint32_t p = st->route[i], c = st->route[i + 1];
        const struct graph_node *n = &g->nodes[p];
        uint64_t side = 0;
        if (n->kind == NODE_CAT)
            side = node_min_size(g, p) - 1 - node_min_size(g, c);
        else if (n->kind == NODE_QUANT)
            side = (uint64_t)(walk_repetitions(n) - 1) * node_min_size(g, c);
        size = sat_add(size, sat_add(1, side));
    }
    return sat_add(size, node_min_size(g, st->route[st->route_len - 1]));
}

/* Append the way from the first target node (the route's last node) to
 * each next target node, and note where each one is. */
static void route_tail(struct generator *gen)
{
    struct gen_state *st = gen->state;
    gen->route_target_at[0] = (uint32_t)st->route_len - 1;
    for (uint32_t j = 1; j < gen->opts.k; j++) {
        route_chain(gen, gen->target[j - 1], gen->target[j]);
        gen->route_target_at[j] = (uint32_t)st->route_len - 1;
    }
}

/* The way from the root to the first target node (through the pin, if any),
 * then to each next target node. */
static void build_route(struct generator *gen)
{
    struct gen_state *st = gen->state;
    const uint32_t *target = gen->target;
    st->route_len = 0;
    route_push(st, 0);
    if (st->via) {
        const struct pin *pin = st->via;
        if (st->smallest_route)
            route_smallest(gen, st->route_ctx, 0, pin->nodes[0]);
        else
            route_down(gen, 0, pin->nodes[0], st->cost);
        st->leg_end = st->route_len - 1;
        for (uint32_t j = 1; j < pin->len; j++)
            route_chain(gen, pin->nodes[j - 1], pin->nodes[j]);
        if (st->smallest_route)
            route_smallest(gen, st->below_ctx, pin->nodes[pin->len - 1], target[0]);
        else
            route_down(gen, pin->nodes[pin->len - 1], target[0], st->cost_below);
    } else if (st->smallest_route) {
        route_smallest(gen, st->route_ctx, 0, target[0]);
        st->leg_end = st->route_len - 1;
    } else {
        route_down(gen, 0, target[0], st->cost);
        st->leg_end = st->route_len - 1;
    }
    route_tail(gen);
}

/* The depth, relative to the pin's first node's, that the way along the pin
 * and then from its last node (needing `below`, relative to it) needs. */
static uint32_t pin_need_past(const struct generator *gen, const struct pin *pin, uint32_t below)
{
    const struct graph *g = gen->graph;
    uint32_t need = 0, refs = 0;
    for (uint32_t j = 1; j < pin->len; j++) {
        need = max32(need, refs + gen->state->entry_side[pin->nodes[j]]);
        refs += is_ref(g, pin->nodes[j]);
    }
    return max32(need, add32(refs, below));
}

/* The same with `below` a cost table (see compute_costs). */
static uint32_t pin_need(const struct generator *gen, const struct pin *pin, const uint32_t *below)
{
    return pin_need_past(gen, pin, below[pin->nodes[pin->len - 1]]);
}

/* The smallest (shallow: the shallowest) ways down from pin i's last node,
 * searched on first use. */
static const struct context *pin_context(struct generator *gen, size_t i, int shallow)
{
    struct gen_state *st = gen->state;
    const struct pin_set *pins = gen->opts.pins;
    if (!st->pin_ctx) {
        st->pin_ctx = xcalloc(pins->len, sizeof *st->pin_ctx);
        st->npin_ctx = pins->len;
    }
    struct context *cx = &st->pin_ctx[i][shallow];
    if (!cx->key) {
        const struct pin *pin = &pins->pins[i];
        compute_contexts_from(gen, cx, shallow, pin->nodes[pin->len - 1]);
    }
    return cx;
}

/* The weight (min_weight's measure: characters, then tree nodes) of the
 * smallest tree along the route: each node walked through with its closed
 * sides, and the smallest subtree below the last. */
static uint64_t route_weight(const struct generator *gen)
{
    const struct graph *g = gen->graph;
    const struct gen_state *st = gen->state;
    uint64_t w = 0;
    for (size_t i = 0; i + 1 < st->route_len; i++)
        w = sat_add(w, sat_add(1, side_weight(g, st->route[i], st->route[i + 1])));
    return sat_add(w, g->nodes[st->route[st->route_len - 1]].min_weight);
}

/* Plan the smallest way to a target through the pins: for each pin above
 * the target, a context of its first node, the pin's own chain, and a way
 * from its last node down to the target, each leg the smallest or, when
 * that is too deep, the shallowest (then smallest) one; of these trees, the
 * one weighing least within the depth limit, or, when none fits, the
 * shallowest, for the caller to fall back on.  Returns the depth that tree
 * needs. */
static uint32_t plan_smallest_pinned(struct generator *gen, const uint32_t *target)
{
    struct gen_state *st = gen->state;
    const struct pin_set *pins = gen->opts.pins;
    uint32_t tail = tail_need(gen, target), best_depth = INF32;
    uint64_t best_weight = METRIC_INFINITE;
    const struct pin *best = NULL;
    const struct context *best_top = NULL, *best_down = NULL;
    for (size_t i = 0; i < pins->len; i++) {
        const struct pin *pin = &pins->pins[i];
        uint32_t first = pin->nodes[0];
        if (!pin->below[target[0]])
            continue;
        for (int a = 0; a < 2; a++) {
            const struct context *top = &st->ctx[a];
            if (top->key[first] == METRIC_INFINITE)
                continue;
            for (int b = 0; b < 2; b++) {
                const struct context *down = pin_context(gen, i, b);
                if (down->key[target[0]] == METRIC_INFINITE)
                    continue;
                uint32_t below = max32(down->side[target[0]], add32(down->refs[target[0]], tail));
                uint32_t need = pin_need_past(gen, pin, below);
                uint32_t depth = max32(top->side[first], add32(top->refs[first], need));
                st->via = pin;
                st->route_ctx = top;
                st->below_ctx = down;
                build_route(gen);
                uint64_t weight = route_weight(gen);
                bool fits_now = depth <= gen->opts.max_depth;
                bool fitted = best_depth <= gen->opts.max_depth;
                if (!best || (fits_now && (!fitted || weight < best_weight)) ||
                    (!fits_now && !fitted && depth < best_depth)) {
                    best = pin, best_depth = depth, best_weight = weight;
                    best_top = top, best_down = down;
                }
            }
        }
    }
    st->via = best;
    st->route_ctx = best_top;
    st->below_ctx = best_down;
    return best ? best_depth : INF32;
}

/* Plan the smallest way to a target: the smallest context of its first
 * node (through a pin, with pins: plan_smallest_pinned), then the target's
 * own chain.  Returns the depth that tree needs. */
static uint32_t plan_smallest(struct generator *gen, const uint32_t *target)
{
    struct gen_state *st = gen->state;
    st->via = NULL;
    st->smallest_route = false;
    if (gen->opts.pins && gen->opts.pins->len) {
        st->smallest_route = true;
        uint32_t depth = plan_smallest_pinned(gen, target);
        if (!st->via)
            st->smallest_route = false;
        return depth;
    }
    if (st->ctx[0].key[target[0]] == METRIC_INFINITE)
        return INF32;
    /* The smallest way, else the shallowest of the precomputed ways (a
     * cheap second try before a search of its own for this target). */
    uint32_t tail = tail_need(gen, target), best = INF32;
    for (int i = 0; i < 2 && best > gen->opts.max_depth; i++) {
        const struct context *cx = &st->ctx[i];
        if (cx->key[target[0]] == METRIC_INFINITE)
            continue;
        best = max32(cx->side[target[0]], add32(cx->refs[target[0]], tail));
        st->route_ctx = cx;
    }
    st->smallest_route = true;
    return best;
}

/* Plan how to reach a target: the cost tables of the walk, and the pin to go
 * through.  Returns the smallest depth a tree containing it needs.  `within`:
 * depth layer 0 when the target is known to fit (see compute_costs). */
static uint32_t plan_target(struct generator *gen, const uint32_t *target,
                            const uint32_t *within)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t tail = tail_need(gen, target);
    st->via = NULL;
    st->smallest_route = false;
    if (!gen->opts.pins || !gen->opts.pins->len) {
        st->cost = costs_for(gen, target[0], tail, within);
        return add32(is_ref(g, 0), st->cost[0]);
    }
    const struct pin_set *pins = gen->opts.pins;
    uint32_t best = INF32;
    const struct pin *chosen = NULL;
    for (size_t i = 0; i < pins->len; i++) {
        const struct pin *pin = &pins->pins[i];
        if (!pin->below[target[0]])
            continue;
        const uint32_t *below = costs_for(gen, target[0], tail, NULL);
        uint32_t need = pin_need(gen, pin, below);
        if (need == INF32)
            continue;
        const uint32_t *to_pin = costs_for(gen, pin->nodes[0], need, NULL);
        uint32_t needed = add32(is_ref(g, 0), to_pin[0]);
        if (needed < best)
            best = needed, chosen = pin;
    }
    if (chosen) {
        /* Both tables are in the cache (it holds more than two). */
        st->cost_below = costs_for(gen, target[0], tail, NULL);
        st->cost = costs_for(gen, chosen->nodes[0], pin_need(gen, chosen, st->cost_below), NULL);
        st->via = chosen;
    }
    return best;
}

/* One depth layer: reach[n] is the fewest references on a way from the root
 * to n (n's own included) whose every step fits within `depth` - the step
 * from p into c needs reach[p] + side_need(p, c), as in compute_costs.  A
 * way with fewer references above a node leaves every later step more room,
 * so the fewest references are also the best state to go on from, and one
 * 0-1 breadth-first search gives the exact table.  A tree of depth `depth`
 * holds a target whose first node is t with tail `tail` exactly when
 * reach[t] + tail <= depth.  Returns whether every step fits from the
 * fewest references: then every deeper layer is this one. */
static bool depth_layer(const struct generator *gen, uint32_t depth, uint32_t *reach)
{
    const struct graph *g = gen->graph;
    uint32_t N = g->nnodes;
    for (uint32_t n = 0; n < N; n++)
        reach[n] = INF32;
    if (!N)
        return true;
    /* Level by level: `now` holds nodes at `level` references, `next` at
     * one more.  A node enters `next` once and `now` at most once more (its
     * value can only fall from level + 1 to level), so the work is linear. */
    uint32_t *now = NULL, *next = NULL;
    size_t nnow = 0, nnext = 0, now_cap = 0, next_cap = 0;
    reach[0] = is_ref(g, 0);
    now = xgrow(now, &now_cap, 1, sizeof *now);
    now[nnow++] = 0;
    for (uint32_t level = reach[0]; nnow; level++) {
        while (nnow) {
            uint32_t p = now[--nnow];
            if (reach[p] != level || !passable(g, p))
                continue;
            for (uint32_t i = 0; i < g->nodes[p].nchildren; i++) {
                uint32_t c = graph_children(g, p)[i];
                uint32_t d = level + is_ref(g, c);
                if (d >= reach[c] || add32(level, side_need(gen, p, c)) > depth)
                    continue;
                reach[c] = d;
                if (is_ref(g, c)) {
                    next = xgrow(next, &next_cap, nnext + 1, sizeof *next);
                    next[nnext++] = c;
                } else {
                    now = xgrow(now, &now_cap, nnow + 1, sizeof *now);
                    now[nnow++] = c;
                }
            }
        }
        uint32_t *swap = now;
        size_t swap_cap = now_cap;
        now = next, now_cap = next_cap, nnow = nnext;
        next = swap, next_cap = swap_cap, nnext = 0;
    }
    free(now);
    free(next);
    for (uint32_t p = 0; p < N; p++) {
        if (reach[p] == INF32 || !passable(g, p))
            continue;
        for (uint32_t i = 0; i < g->nodes[p].nchildren; i++)
            if (add32(reach[p], side_need(gen, p, graph_children(g, p)[i])) > depth)
                return false;
    }
    return true;
}

/* Layer i (depth max_depth + i), computed on first use; NULL past the last
 * one kept. */
static const uint32_t *layer_at(struct generator *gen, uint32_t i)
{
    struct gen_state *st = gen->state;
    if (st->layers_final && i >= st->nlayers)
        return st->layer[st->nlayers - 1];
    while (st->nlayers <= i) {
        if (st->nlayers == MAX_DEPTH_LAYERS)
            return NULL;
        st->layer = xrealloc(st->layer, (st->nlayers + 1) * sizeof *st->layer);
        uint32_t *reach = xmalloc(((size_t)gen->graph->nnodes + 1) * sizeof *reach);
        st->layer[st->nlayers++] = reach;
        st->layers_final = depth_layer(gen, add32(gen->opts.max_depth, st->nlayers - 1), reach);
        if (st->layers_final)
            return reach;
    }
    return st->layer[i];
}

/* The smallest depth a tree holding the target needs, when that is more
 * than max_depth, read off the shared depth layers; 0 when a tree within
 * max_depth holds it (plan it then).  Past the layers kept, the target's
 * own search answers. */
static uint32_t needed_past_limit(struct generator *gen, const uint32_t *target)
{
    struct gen_state *st = gen->state;
    uint32_t t = target[0], tail = tail_need(gen, target);
    for (uint32_t i = 0;; i++) {
        const uint32_t *reach = layer_at(gen, i);
        if (!reach)
            return plan_target(gen, target, NULL);
        uint32_t depth = add32(gen->opts.max_depth, i);
        if (add32(reach[t], tail) <= depth)
            return i == 0 ? 0 : depth;
        if (st->layers_final && i + 1 >= st->nlayers)
            /* Every deeper layer is this one: the tail decides alone. */
            return add32(reach[t], tail);
        if (depth == INF32)
            return INF32;
    }
}

bool gen_smallest_exact(const struct generator *gen)
{
    return gen->state->sizes && gen->opts.closeoff == GEN_CLOSE_SHORTEST;
}

uint32_t gen_needed_depth(struct generator *gen, const uint32_t *path)
{
    return plan_target(gen, path, NULL);
}

/* ---- construction --------------------------------------------------------- */

static int compare_keyed(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    /* Larger key first, then smaller rank. */
    if (x[0] != y[0])
        return x[0] > y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* open_ends[n]: the agenda's k-paths ending at n that are neither covered
 * nor skipped. */
static bool rank_in(const struct generator *gen, const struct kpath_set *set, uint64_t rank);
static void count_open_ends(struct generator *gen)
{
    struct gen_state *st = gen->state;
    memset(st->open_ends, 0, ((size_t)gen->graph->nnodes + 1) * sizeof *st->open_ends);
    for (size_t i = 0; i < st->agenda_len; i++) {
        uint64_t rank = st->agenda[i];
        if (rank_in(gen, &gen->covered, rank) || rank_in(gen, &st->skipped, rank))
            continue;
        kpath_unrank(&gen->space, rank, st->scratch_path);
        st->open_ends[st->scratch_path[gen->space.k - 1]]++;
    }
}

/* One agenda entry: its rank, keyed by the depth its tree needs. */
static void add_keyed(struct generator *gen, uint64_t *keyed, size_t *i, const uint32_t *path,
                      uint64_t rank)
{
    struct gen_state *st = gen->state;
    uint32_t first = st->refs_from_root[path[0]];
    keyed[2 * *i] = (uint64_t)add32(first, tail_need(gen, path));
    keyed[2 * *i + 1] = rank;
    ++*i;
}

/* The agenda: every k-path (or every target), those needing the deepest
 * trees first, so their trees cover many shallower paths on the way
 * (measured in `make bench`).  open_ends counts them per last node. */
static void build_agenda(struct generator *gen)
{
    struct gen_state *st = gen->state;
    const struct kpath_space *sp = &gen->space;
    size_t n = gen->opts.targets ? gen->opts.ntargets : (size_t)sp->total;
    uint64_t *keyed = xmalloc((2 * n + 1) * sizeof *keyed);
    size_t i = 0;
    if (gen->opts.targets) {
        /* The targets: their ranks, without walking the space. */
        kpath_set_init(&st->target_set, sp);
        st->has_targets = true;
        for (size_t t = 0; t < gen->opts.ntargets; t++) {
            const uint32_t *path = gen->opts.targets + t * sp->k;
            uint64_t rank;
            if (kpath_rank(sp, path, &rank) && kpath_set_add(&st->target_set, path))
                add_keyed(gen, keyed, &i, path, rank);
        }
    } else {
        struct kpath_iter it;
        kpath_iter_init(&it, sp);
        for (uint64_t rank = 0; kpath_iter_next(&it); rank++) /* iteration order is rank order */
            if (!gen->opts.pins || pin_set_covers_path(gen->opts.pins, it.path))
                add_keyed(gen, keyed, &i, it.path, rank);
        kpath_iter_free(&it);
    }
    n = i;
    qsort(keyed, n, 2 * sizeof *keyed, compare_keyed);
    st->agenda = xmalloc((n + 1) * sizeof *st->agenda);
    for (i = 0; i < n; i++)
        st->agenda[i] = keyed[2 * i + 1];
    st->agenda_len = n;
    free(keyed);
    count_open_ends(gen);
}

static char *format_error(const char *fmt, unsigned long long a)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, fmt, a);
    return strbuf_detach(&sb, NULL);
}

static void default_probabilities(struct generator *gen)
{
    struct gen_state *st = gen->state;
    st->probabilities = xmalloc(probability_table_size(gen->graph) * sizeof *st->probabilities);
    probabilities_from_grammar(gen->graph, st->probabilities);
    gen->opts.probabilities = st->probabilities;
}

/* When the smallest input is larger than the size budget, the error naming
 * the rule whose smallest derivation is the innermost one over the budget:
 * the smallest derivation is followed down from the root, into the largest
 * part at each node, while it stays over the budget.  Sizes fall strictly on
 * the way, so it ends; nothing is built. */
static char *too_large_error(const struct graph *g, uint32_t max_size, uint32_t *rule_out)
{
    uint32_t n = 0, culprit = 0;
    while (g->nodes[n].min_size > max_size) {
        culprit = n;
        const struct graph_node *node = &g->nodes[n];
        uint32_t next = NODE_NONE;
        for (uint32_t i = 0; i < node->nchildren; i++) {
            uint32_t c = graph_children(g, n)[i];
            bool better = next == NODE_NONE ||
                          (node->kind == NODE_ALT ? g->nodes[c].min_size < g->nodes[next].min_size
                                                  : g->nodes[c].min_size > g->nodes[next].min_size);
            if (better)
                next = c;
        }
        if (next == NODE_NONE)
            break;
        n = next;
    }
    uint32_t rule = g->nodes[culprit].rule;
    if (rule_out)
        *rule_out = rule;
    const struct graph_node *at = &g->nodes[g->rule_node[rule]];
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "rule %s: its smallest derivation has ", g->grammar->rules[rule].name);
    if (at->min_size == METRIC_INFINITE)
        strbuf_addstr(&sb, "more than 2^64");
    else
        strbuf_addf(&sb, "%llu", (unsigned long long)at->min_size);
    strbuf_addf(&sb, " tree nodes, more than the size budget (--max-size %u); the smallest input "
                     "needs --max-size ", max_size);
    if (g->nodes[0].min_size == METRIC_INFINITE)
        strbuf_addstr(&sb, "more than 2^64");
    else
        strbuf_addf(&sb, "%llu", (unsigned long long)g->nodes[0].min_size);
    if (g->nodes[0].min_size > UINT32_MAX - 1)
        strbuf_addf(&sb, ", beyond its largest value %u", UINT32_MAX - 1);
    return strbuf_detach(&sb, NULL);
}

bool gen_size_diag(const struct graph *g, uint32_t max_size, enum diag_severity severity,
                   struct diag_list *out)
{
    if (!g->nnodes || g->nodes[0].min_size <= max_size)
        return false;
    uint32_t rule = 0;
    char *message = too_large_error(g, max_size, &rule);
    const struct rule *r = &g->grammar->rules[rule];
    diag_add(out, severity, grammar_rule_file(g->grammar, rule), r->pos.line, r->pos.col, "%s",
             message);
    free(message);
    return true;
}

/* When the smallest input is deeper than the depth limit: no tree within
 * it exists, so every strategy would write nothing (or break the limit);
 * refused like an input over the size budget, naming the depth it needs. */
static char *too_deep_error(const struct graph *g, const struct gen_options *opts)
{
    const char *setting = opts->depth_setting ? opts->depth_setting : "--max-depth";
    uint32_t need = g->nodes[0].min_depth;
    if (need == UINT32_MAX)
        return xstrdup("the grammar derives no input: every derivation goes through a class "
                       "that matches no character");
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "the smallest input needs depth %u, more than the depth limit "
                     "(%s %u); raise it: %s %u", need, setting, opts->max_depth, setting, need);
    return strbuf_detach(&sb, NULL);
}

struct generator *gen_new(const struct graph *g, const struct gen_options *opts, char **error)
{
    *error = NULL;
    if (opts->k < 1 || opts->k > KPATH_MAX_K) {
        *error = format_error("k must be from 1 to %llu", KPATH_MAX_K);
        return NULL;
    }
    if (g->nnodes && g->nodes[0].min_size > opts->max_size) {
        *error = too_large_error(g, opts->max_size, NULL);
        return NULL;
    }
    if (g->nnodes && g->nodes[0].min_depth > opts->max_depth) {
        *error = too_deep_error(g, opts);
        return NULL;
    }
    struct generator *gen = xcalloc(1, sizeof *gen);
    gen->graph = g;
    gen->opts = *opts;
    if (opts->only_path) {
        gen->opts.targets = opts->only_path;
        gen->opts.ntargets = 1;
    }
    gen->round = 1;
    gen->state = xcalloc(1, sizeof *gen->state);
    struct gen_state *st = gen->state;
    kpath_space_init(&gen->space, g, opts->k);
    if (opts->strategy == GEN_KPATH && !opts->targets && !opts->only_path &&
        (gen->space.saturated || gen->space.total > GEN_MAX_AGENDA)) {
        *error = format_error("the grammar has too many k-paths for an agenda (more than %llu); "
                              "choose a smaller k", (unsigned long long)GEN_MAX_AGENDA);
        kpath_space_free(&gen->space);
        free(gen->state);
        free(gen);
        return NULL;
    }
    kpath_set_init(&gen->covered, &gen->space);
    kpath_set_init(&st->skipped, &gen->space);
    kpath_set_init(&st->in_tree, &gen->space);
    st->greedy = opts->strategy == GEN_KPATH && opts->closeoff == GEN_CLOSE_GREEDY;
    st->open_ends = xcalloc((size_t)g->nnodes + 1, sizeof *st->open_ends);
    st->leads = xcalloc((size_t)g->nnodes + 1, sizeof *st->leads);
    st->leads_stale = true;
    st->class_next = xmalloc(((size_t)g->nnodes + 1) * sizeof *st->class_next);
    memset(st->class_next, 0xff, ((size_t)g->nnodes + 1) * sizeof *st->class_next);
    rng_seed(&st->char_rng, opts->seed ^ UINT64_C(0x636c617373636872));
    st->scratch_path = xcalloc((size_t)opts->k + 1, sizeof *st->scratch_path);
    st->score_path = xcalloc((size_t)opts->k + 1, sizeof *st->score_path);
    st->ancestors = xcalloc((size_t)opts->k + 1, sizeof *st->ancestors);
    rng_seed(&gen->rng, opts->seed);
    precompute(gen);
    if (!gen->opts.probabilities)
        default_probabilities(gen);
    size_t N = g->nnodes;
    size_t edges = graph_edge_count(g);
    st->heap_node = xmalloc((edges + 2) * sizeof *st->heap_node);
    st->heap_key = xmalloc((edges + 2) * sizeof *st->heap_key);
    st->settled = xcalloc(N + 1, sizeof *st->settled);
    expansion_set_init(&st->used, g);
    uint32_t widest = 1;
    for (uint32_t n = 0; n < N; n++)
        widest = max32(widest, g->nodes[n].nchildren);
    st->pick = xmalloc((widest + 1) * sizeof *st->pick);
    st->weights = xmalloc((widest + 1) * sizeof *st->weights);
    gen->last.candidates = xmalloc((widest + 1) * sizeof *gen->last.candidates);
    gen->target = xcalloc(opts->k, sizeof *gen->target);
    gen->route_target_at = xcalloc((size_t)opts->k + 1, sizeof *gen->route_target_at);
    if (opts->strategy == GEN_KPATH) {
        st->sizes = size_table_new(g, opts->max_depth);
        build_agenda(gen);
    }
    gen->phase = GEN_PHASE_IDLE;
    return gen;
}

static void free_input_ranks(struct generator *gen);

void gen_free(struct generator *gen)
{
    if (!gen)
        return;
    struct gen_state *st = gen->state;
    size_table_free(st->sizes);
    free(st->way);
    free(st->is_rule_node);
    free(st->side_top1);
    free(st->side_top2);
    free(st->side_top1_node);
    free(st->entry_side);
    free(st->refs_from_root);
    for (int i = 0; i < 2; i++)
        free_context(&st->ctx[i]);
    for (size_t i = 0; i < st->npin_ctx; i++)
        for (int j = 0; j < 2; j++)
            free_context(&st->pin_ctx[i][j]);
    free(st->pin_ctx);
    free(st->probabilities);
    free(st->agenda);
    kpath_set_free(&st->skipped);
    if (st->has_targets)
        kpath_set_free(&st->target_set);
    kpath_set_free(&st->in_tree);
    free(st->in_tree_paths);
    free(st->symup);
    free(st->open_ends);
    free(st->leads);
    free(st->class_next);
    free(st->witness);
    free(st->witness_head);
    free(st->witness_next);
    free(st->leads_queue);
    free(st->closed);
    free(st->scratch_path);
    free(st->score_path);
    free(st->ancestors);
    free(st->frontier);
    free(st->frontier_stack);
    free(st->holders);
    holders_map_free(&st->holders_map);
    free(st->rank_seen);
    free_input_ranks(gen);
    free(st->route);
    for (int i = 0; i < COST_CACHE; i++) {
        free(st->cache[i].cost);
        free(st->cache[i].touched);
    }
    free(st->settled);
    for (uint32_t i = 0; i < st->nlayers; i++)
        free(st->layer[i]);
    free(st->layer);
    free(st->heap_node);
    free(st->heap_key);
    free(st->stack);
    free(st->refs);
    expansion_set_free(&st->used);
    free(st->fs_level);
    free(st->fs_deque);
    free(st->fs_new);
    free(st->pick);
    free(st->weights);
    free(st);
    for (size_t i = 0; i < gen->ninputs; i++) {
        derivation_packed_free(&gen->inputs[i].tree);
        free(gen->inputs[i].text);
        free(gen->inputs[i].new_paths);
        free(gen->inputs[i].target);
    }
    free(gen->inputs);
    for (size_t i = 0; i < gen->nunreachable; i++)
        free(gen->unreachable[i].path);
    free(gen->unreachable);
    free(gen->last.candidates);
    free(gen->target);
    free(gen->route_target_at);
    derivation_free(&gen->tree);
    kpath_set_free(&gen->covered);
    kpath_space_free(&gen->space);
    free(gen->error);
    free(gen);
}

/* ---- instances ------------------------------------------------------------ */

/* The k-path of the tree that ends at instance `inst` into st->scratch_path;
 * false when inst has fewer than k-1 symbolic ancestors. */
static bool path_ending_at(struct generator *gen, uint32_t inst)
{
    struct gen_state *st = gen->state;
    uint32_t k = gen->opts.k, j = k, at = inst;
    while (j > 0 && at != DTREE_NONE) {
        st->scratch_path[--j] = gen->tree.insts[at].node;
        if (j)
            at = st->symup[at];
    }
    return j == 0;
}

static void mark_in_tree(struct generator *gen, uint32_t inst)
{
    struct gen_state *st = gen->state;
    uint32_t k = gen->opts.k;
    if (!path_ending_at(gen, inst) || !kpath_set_add(&st->in_tree, st->scratch_path))
        return;
    st->in_tree_paths = xgrow(st->in_tree_paths, &st->in_tree_cap, (st->in_tree_len + 1) * k,
                              sizeof *st->in_tree_paths);
    memcpy(st->in_tree_paths + st->in_tree_len * k, st->scratch_path, k * sizeof(uint32_t));
    st->in_tree_len++;
}

static bool expand(struct generator *gen, uint32_t inst, uint32_t decision)
{
    struct gen_state *st = gen->state;
    const struct graph *g = gen->graph;
    size_t before = gen->tree.len;
    uint32_t node = gen->tree.insts[inst].node;
    if (!derivation_expand(&gen->tree, inst, decision))
        return false;
    st->projected -= node_min_size(g, node) - 1;
    st->refs = xgrow(st->refs, &st->refs_cap, gen->tree.len + 1, sizeof *st->refs);
    st->symup = xgrow(st->symup, &st->symup_cap, gen->tree.len + 1, sizeof *st->symup);
    for (size_t i = before; i < gen->tree.len; i++) {
        const struct derivation_inst *in = &gen->tree.insts[i];
        st->refs[i] = st->refs[in->parent] + is_ref(g, in->node);
        st->projected += node_min_size(g, in->node);
        uint32_t p = in->parent;
        st->symup[i] = node_kind_is_symbolic(g->nodes[gen->tree.insts[p].node].kind) ? p
                                                                                    : st->symup[p];
        if (st->greedy && node_kind_is_symbolic(g->nodes[in->node].kind))
            mark_in_tree(gen, (uint32_t)i);
    }
    expansion_add(&st->used, node, decision);
    gen->last.inst = inst;
    gen->last.node = node;
    gen->last.decision = decision;
    return true;
}

static void start_tree(struct generator *gen)
{
    struct gen_state *st = gen->state;
    derivation_free(&gen->tree);
    derivation_init(&gen->tree, gen->graph, 0);
    st->refs = xgrow(st->refs, &st->refs_cap, 1, sizeof *st->refs);
    st->refs[0] = is_ref(gen->graph, 0);
    st->projected = node_min_size(gen->graph, 0);
    st->symup = xgrow(st->symup, &st->symup_cap, 1, sizeof *st->symup);
    st->symup[0] = DTREE_NONE;
    st->stack_len = 0;
    expansion_add(&st->used, 0, 0); /* the start rule's, when it has one only */
    for (size_t i = 0; i < st->in_tree_len; i++)
        kpath_set_remove(&st->in_tree, st->in_tree_paths + i * gen->opts.k);
    st->in_tree_len = 0;
    if (st->greedy && node_kind_is_symbolic(gen->graph->nodes[0].kind))
        mark_in_tree(gen, 0);
    gen->events |= GEN_EVENT_TREE_STARTED;
    gen->last.inst = DTREE_NONE;
    gen->last.ncandidates = 0;
}

static void push_slot(struct gen_state *st, uint32_t inst)
{
    st->stack = xgrow(st->stack, &st->stack_cap, st->stack_len + 1, sizeof *st->stack);
    st->stack[st->stack_len++] = inst;
}

/* Push the children of inst so that the leftmost comes off first. */
static void push_children(struct generator *gen, uint32_t inst)
{
    const struct derivation_inst *in = &gen->tree.insts[inst];
    for (uint32_t c = in->nchildren; c-- > 0;)
        push_slot(gen->state, derivation_children(&gen->tree, inst)[c]);
}

/* ---- the k-path walk ------------------------------------------------------ */

static void record_unreachable(struct generator *gen, uint32_t needed, uint64_t size)
{
    gen->unreachable = xgrow(gen->unreachable, &gen->unreachable_cap, gen->nunreachable + 1,
                             sizeof *gen->unreachable);
    struct gen_unreachable *u = &gen->unreachable[gen->nunreachable++];
    u->path = xmemdup(gen->target, gen->opts.k * sizeof *gen->target);
    u->needed_depth = needed;
    u->needed_size = needed <= gen->opts.max_depth ? size : 0;
    u->empty_repetition = false;
}

/* One k-path ending at n is no longer open; note an end that closes (or,
 * where paths off the agenda wrap the count, opens) for leads. */
static void drop_open_end(struct gen_state *st, uint32_t n)
{
    bool was_open = st->open_ends[n] > 0;
    st->open_ends[n]--;
    if (!st->greedy || st->leads_stale || was_open == (st->open_ends[n] > 0))
        return;
    if (!was_open) { /* an end opened: repairs only handle closing ones */
        st->leads_stale = true;
        return;
    }
    st->closed = xgrow(st->closed, &st->closed_cap, st->nclosed + 1, sizeof *st->closed);
    st->closed[st->nclosed++] = n;
}

/* The smallest tree holding the target within the depth, exactly (see
 * size_table.h), where the way planned so far may not give it: the
 * smallest way of all is too deep, a closed side's smallest subtree is, or
 * there are pins.  `needed` is what planning found (the route is built when
 * it is within the depth).  Replaces the route when the exact way is
 * lighter (on a tie the planned way stays) and returns the depth needed
 * (within the limit once a way is found). */
static uint32_t exact_smallest(struct generator *gen, uint32_t needed)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    bool have = needed <= gen->opts.max_depth;
    bool pinned = gen->opts.pins && gen->opts.pins->len;
    uint64_t now = METRIC_INFINITE;
    if (have) {
        now = size_table_route_weight(st->sizes, st->route, st->route_len, is_ref(g, 0));
        /* The smallest way of all, its smallest tree within the depth: no
         * tree is smaller (the common case, at no more cost). */
        if (!pinned && st->smallest_route && st->route_ctx == &st->ctx[0] &&
            now == route_weight(gen))
            return needed;
    } else {
        st->route_len = 0;
        route_push(st, gen->target[0]);
        route_tail(gen);
    }
    size_t tail_at = gen->route_target_at[0], ntail = st->route_len - tail_at;
    size_t len = 0;
    uint64_t weight;
    if (!size_table_smallest_way(st->sizes, st->route + tail_at, ntail, gen->opts.pins,
                                 &st->way, &len, &st->way_cap, &weight) ||
        weight >= now)
        return needed;
    /* The way, then the tail after its first node (which ends the way). */
    st->route = xgrow(st->route, &st->route_cap, len - 1 + ntail, sizeof *st->route);
    memmove(st->route + len - 1, st->route + tail_at, ntail * sizeof *st->route);
    memcpy(st->route, st->way, len * sizeof *st->route);
    st->route_len = len - 1 + ntail;
    for (uint32_t j = 0; j < gen->opts.k; j++)
        gen->route_target_at[j] = (uint32_t)(gen->route_target_at[j] - tail_at + len - 1);
    st->leg_end = len - 1;
    st->smallest_route = true;
    st->via = NULL;
    return have ? needed : gen->opts.max_depth;
}

/* Take the next target from the agenda, skipping covered ones and reporting
 * those no tree within the depth limit contains.  False when none is left. */
static bool next_target(struct generator *gen)
{
    struct gen_state *st = gen->state;
    while (st->agenda_pos < st->agenda_len) {
        uint64_t rank = st->agenda[st->agenda_pos++];
        if (rank_in(gen, &gen->covered, rank) || rank_in(gen, &st->skipped, rank))
            continue;
        kpath_unrank(&gen->space, rank, gen->target);
        uint32_t needed = plan_smallest(gen, gen->target);
        if (needed > gen->opts.max_depth) { /* the smallest way is too deep */
            /* Without pins the shared depth layers tell whether any way
             * fits; only a target that fits gets a search of its own. */
            bool pinned = gen->opts.pins && gen->opts.pins->len;
            if (!pinned)
                needed = needed_past_limit(gen, gen->target);
            if (pinned || needed <= gen->opts.max_depth)
                needed = plan_target(gen, gen->target, pinned ? NULL : layer_at(gen, 0));
        }
        uint64_t size = 0;
        if (needed <= gen->opts.max_depth)
            build_route(gen);
        if (st->sizes)
            needed = exact_smallest(gen, needed);
        if (needed <= gen->opts.max_depth) {
            size = route_min_size(gen);
            if (size <= gen->opts.max_size)
                return true;
        }
        record_unreachable(gen, needed, size);
        drop_open_end(st, gen->target[gen->opts.k - 1]);
        kpath_set_add(&st->skipped, gen->target);
        gen->events |= GEN_EVENT_TARGET_SKIPPED;
    }
    return false;
}

/* Node n leads to an open end through child `via` (or is one: via == n). */
static void set_lead(struct gen_state *st, uint32_t n, uint32_t via)
{
    uint32_t w = via == n ? n : st->witness[via];
    st->leads[n] = true;
    st->witness[n] = w;
    st->witness_next[n] = st->witness_head[w];
    st->witness_head[w] = n;
}

/* Spread leads to the parents of the `len` nodes in `queue`, breadth first. */
static void spread_leads(struct generator *gen, uint32_t *queue, size_t len)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    for (size_t head = 0; head < len; head++) {
        uint32_t n = queue[head];
        for (uint32_t i = 0; i < g->nodes[n].nparents; i++) {
            uint32_t p = graph_parents(g, n)[i];
            if (!st->leads[p]) {
                set_lead(st, p, n);
                queue[len++] = p;
            }
        }
    }
}

/* leads[n]: some k-path still uncovered ends at a node reachable from n.
 * Ends only close between trees, so after the first full computation only
 * the nodes whose witness closed are unmarked and marked again where a child
 * still leads somewhere: the others' ways to their witnesses are intact
 * (every node on such a way names the same witness). */
static void refresh_leads(struct generator *gen)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t N = g->nnodes;
    /* Kept between trees: a fresh one per tree would cost the whole graph. */
    if (!st->leads_queue)
        st->leads_queue = xmalloc((N + 1) * sizeof *st->leads_queue);
    uint32_t *queue = st->leads_queue;
    size_t len = 0;
    if (st->leads_stale) {
        if (!st->witness) {
            st->witness = xmalloc((N + 1) * sizeof *st->witness);
            st->witness_head = xmalloc((N + 1) * sizeof *st->witness_head);
            st->witness_next = xmalloc((N + 1) * sizeof *st->witness_next);
        }
        for (uint32_t n = 0; n < N; n++) {
            st->leads[n] = false;
            st->witness_head[n] = NODE_NONE;
        }
        for (uint32_t n = 0; n < N; n++)
            if (st->open_ends[n] > 0) {
                set_lead(st, n, n);
                queue[len++] = n;
            }
        st->leads_stale = false;
    } else {
        /* Unmark every node naming a closed end, then mark again those with
         * a child that still leads somewhere, and spread from them. */
        size_t nunmarked = 0;
        for (size_t i = 0; i < st->nclosed; i++) {
            uint32_t e = st->closed[i];
            for (uint32_t n = st->witness_head[e]; n != NODE_NONE; n = st->witness_next[n]) {
                st->leads[n] = false;
                queue[nunmarked++] = n; /* the lists are disjoint */
            }
            st->witness_head[e] = NODE_NONE;
        }
        for (size_t i = 0; i < nunmarked; i++) {
            uint32_t n = queue[i];
            for (uint32_t j = 0; j < g->nodes[n].nchildren && !st->leads[n]; j++) {
                uint32_t c = graph_children(g, n)[j];
                if (st->leads[c])
                    set_lead(st, n, c);
            }
            if (st->leads[n])
                queue[len++] = n; /* len <= i: overwrites only what was read */
        }
    }
    st->nclosed = 0;
    spread_leads(gen, queue, len);
}

static void begin_closeoff(struct generator *gen)
{
    struct gen_state *st = gen->state;
    gen->phase = GEN_PHASE_CLOSEOFF;
    gen->events |= GEN_EVENT_CLOSEOFF_STARTED;
    /* Collect the open slots in pre-order, then stack them reversed. */
    uint32_t *order = NULL, *todo = NULL;
    size_t norder = 0, order_cap = 0, ntodo = 0, todo_cap = 0;
    todo = xgrow(todo, &todo_cap, 1, sizeof *todo);
    todo[ntodo++] = 0;
    while (ntodo) {
        uint32_t inst = todo[--ntodo];
        const struct derivation_inst *in = &gen->tree.insts[inst];
        if (in->open) {
            order = xgrow(order, &order_cap, norder + 1, sizeof *order);
            order[norder++] = inst;
            continue;
        }
        todo = xgrow(todo, &todo_cap, ntodo + in->nchildren, sizeof *todo);
        for (uint32_t c = in->nchildren; c-- > 0;)
            todo[ntodo++] = derivation_children(&gen->tree, inst)[c];
    }
    st->stack_len = 0;
    for (size_t i = norder; i-- > 0;)
        push_slot(st, order[i]);
    free(order);
    free(todo);
    if (st->greedy)
        refresh_leads(gen);
}

/* Has the walk just arrived at the next target node? */
static void check_target(struct generator *gen)
{
    struct gen_state *st = gen->state;
    if (gen->route_target_at[gen->target_reached] != st->route_pos)
        return;
    gen->target_reached++;
    gen->events |= GEN_EVENT_TARGET_ADVANCED;
    if (gen->target_reached == gen->opts.k) {
        gen->events |= GEN_EVENT_TARGET_REACHED;
        begin_closeoff(gen);
    }
}

static void begin_walk(struct generator *gen)
{
    struct gen_state *st = gen->state;
    start_tree(gen);
    gen->phase = GEN_PHASE_TARGET;
    gen->target_reached = 0;
    st->route_pos = 0;
    st->walker = 0;
    check_target(gen);
}

/* With the greedy close-off, a quantifier the walk passes through gets the
 * repetitions the close-off would give it (greedy_repetitions), not just
 * the one the way needs: the way takes the first, the others are closed
 * off greedily once the target is in, so one input holds the items of
 * other targets too (a count fixed at one would leave each to an input of
 * its own). */
static uint32_t greedy_repetitions(struct generator *gen, uint32_t inst, uint32_t n);

static void walk_step(struct generator *gen)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t inst = st->walker;
    uint32_t n = st->route[st->route_pos], next = st->route[st->route_pos + 1];
    const struct graph_node *node = &g->nodes[n];
    uint32_t goal_at = gen->route_target_at[gen->target_reached];
    bool first_leg = st->route_pos < st->leg_end;

    gen->last.ncandidates = 0;
    uint32_t decision = 0, position = 0;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        uint32_t d;
        if (first_leg && !st->smallest_route)
            d = step_cost(gen, n, c);
        else
            d = c == next ? (uint32_t)(goal_at - st->route_pos - 1) : INF32;
        gen->last.candidates[gen->last.ncandidates++] = (struct gen_candidate){c, d};
        if (c == next)
            position = i;
    }
    if (node->kind == NODE_ALT)
        decision = position;
    else if (node->kind == NODE_QUANT)
        decision = st->greedy ? max32(walk_repetitions(node), greedy_repetitions(gen, inst, n))
                              : walk_repetitions(node);
    expand(gen, inst, decision);
    const uint32_t *kids = derivation_children(&gen->tree, inst);
    uint32_t followed = node->kind == NODE_CAT ? kids[position] : kids[0];
    gen->last.toward_target = true;
    gen->last.target_node = gen->target[gen->target_reached];
    gen->last.followed = followed;
    st->walker = followed;
    st->route_pos++;
    check_target(gen);
}

/* ---- choices while filling slots ------------------------------------------ */

static bool fits(const struct generator *gen, uint32_t inst, uint32_t child)
{
    uint32_t depth = add32(gen->state->refs[inst], gen->graph->nodes[child].min_depth);
    return depth <= gen->opts.max_depth;
}

/* Would alternative c of the alt slot inst keep the tree within the size
 * budget, closed in the smallest way? */
static bool size_fits_within(const struct generator *gen, uint32_t inst, uint32_t c, uint32_t limit)
{
    const struct graph *g = gen->graph;
    uint32_t n = gen->tree.insts[inst].node;
    uint64_t after = gen->state->projected - node_min_size(g, n) + 1 + node_min_size(g, c);
    return after <= limit;
}

static bool size_fits(const struct generator *gen, uint32_t inst, uint32_t c)
{
    return size_fits_within(gen, inst, c, gen->opts.max_size);
}

/* The greedy close-off's packing budget: --pack-size when set (and
 * below --max-size), else --max-size. */
static uint32_t pack_limit(const struct generator *gen)
{
    uint32_t m = gen->opts.pack_size;
    return m && m < gen->opts.max_size ? m : gen->opts.max_size;
}

/* Greedy close-off: alternative c fits the depth and the packing budget. */
static bool pack_allowed(const struct generator *gen, uint32_t inst, uint32_t c)
{
    return fits(gen, inst, c) && size_fits_within(gen, inst, c, pack_limit(gen));
}

/* A free choice may take alternative c: it fits the depth and the size. */
static bool allowed(const struct generator *gen, uint32_t inst, uint32_t c)
{
    return fits(gen, inst, c) && size_fits(gen, inst, c);
}

/* The most repetitions of the quant slot inst that keep the tree within the
 * size budget (never fewer than the minimum). */
static uint32_t size_repetitions_within(const struct generator *gen, uint32_t inst, uint32_t limit)
{
    const struct graph *g = gen->graph;
    uint32_t n = gen->tree.insts[inst].node;
    uint32_t lo = g->nodes[n].expr->u.quant.min;
    uint64_t base = gen->state->projected - node_min_size(g, n) + 1;
    uint64_t each = node_min_size(g, graph_children(g, n)[0]);
    if (base >= limit)
        return lo;
    uint64_t r = (limit - base) / (each ? each : 1);
    return r < lo ? lo : r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

static uint32_t size_repetitions(const struct generator *gen, uint32_t inst)
{
    return size_repetitions_within(gen, inst, gen->opts.max_size);
}

/* Once the budget is spent: among the alternatives that fit the depth, the
 * smallest (tree nodes, then depth), which keeps the budget; with none that
 * fits, the one that closes fastest. */
static uint32_t fastest_alternative(const struct generator *gen, uint32_t n);
static uint32_t smallest_alternative(const struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph *g = gen->graph;
    uint32_t best = INF32;
    for (uint32_t i = 0; i < g->nodes[n].nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        if (!fits(gen, inst, c))
            continue;
        const struct graph_node *x = &g->nodes[c];
        const struct graph_node *y = best == INF32 ? NULL : &g->nodes[graph_children(g, n)[best]];
        if (!y || x->min_size < y->min_size ||
            (x->min_size == y->min_size && x->min_depth < y->min_depth))
            best = i;
    }
    return best == INF32 ? fastest_alternative(gen, n) : best;
}

/* The symbolic nodes reached from n through synthetic nodes only (n itself
 * when it is symbolic), into st->frontier; returns how many. */
static size_t frontier_of(struct generator *gen, uint32_t n)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    size_t count = 0, depth = 0;
    /* Kept between calls: this runs for every alternative of every slot. */
    uint32_t *stack = xgrow(st->frontier_stack, &st->frontier_stack_cap, 1, sizeof *stack);
    stack[depth++] = n;
    while (depth) {
        uint32_t m = stack[--depth];
        if (node_kind_is_symbolic(g->nodes[m].kind)) {
            st->frontier = xgrow(st->frontier, &st->frontier_cap, count + 1, sizeof *st->frontier);
            st->frontier[count++] = m;
            continue;
        }
        if (!passable(g, m))
            continue;
        stack = xgrow(stack, &st->frontier_stack_cap, depth + g->nodes[m].nchildren,
                      sizeof *stack);
        for (uint32_t i = 0; i < g->nodes[m].nchildren; i++)
            stack[depth++] = graph_children(g, m)[i];
    }
    st->frontier_stack = stack;
    return count;
}

/* The sets is_new_path asks are bitsets (then a rank answers). */
static bool sets_by_rank(const struct generator *gen)
{
    const struct gen_state *st = gen->state;
    return gen->covered.bits && st->in_tree.bits && (!st->has_targets || st->target_set.bits);
}

static bool is_new_rank(const struct generator *gen, uint64_t r)
{
    const struct gen_state *st = gen->state;
    return !kpath_set_contains_rank(&gen->covered, r) &&
           !kpath_set_contains_rank(&st->in_tree, r) &&
           (!st->has_targets || kpath_set_contains_rank(&st->target_set, r));
}

/* With targets, only an uncovered target counts (the agenda holds nothing
 * else). */
static bool is_new_path(const struct generator *gen, const uint32_t *path)
{
    const struct gen_state *st = gen->state;
    /* All three sets are of gen->space: with bitsets, rank the path once
     * (greedy close-off asks this for every k-path every choice could add). */
    if (sets_by_rank(gen)) {
        uint64_t r;
        if (!kpath_rank(&gen->space, path, &r))
            return !st->has_targets; /* in none of the sets */
        return is_new_rank(gen, r);
    }
    return !kpath_set_contains(&gen->covered, path) && !kpath_set_contains(&st->in_tree, path) &&
           (!st->has_targets || kpath_set_contains(&st->target_set, path));
}

/* How many k-paths neither covered yet nor already in the tree the child c of
 * slot `inst` would add: those ending at its frontier, and those ending one
 * symbolic level further down, below a reference of the frontier. */
static uint32_t greedy_score(struct generator *gen, uint32_t inst, uint32_t c)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t k = gen->opts.k, nanc = 0;
    uint32_t at = node_kind_is_symbolic(g->nodes[gen->tree.insts[inst].node].kind) ? inst
                                                                                 : st->symup[inst];
    while (nanc + 1 < k && at != DTREE_NONE) {
        st->ancestors[nanc++] = gen->tree.insts[at].node;
        at = st->symup[at];
    }
    uint32_t *path = st->score_path, score = 0;
    size_t nf = frontier_of(gen, c);
    for (size_t i = 0; i < nf; i++) {
        uint32_t f = st->frontier[i];
        if (nanc + 1 >= k) {
            path[k - 1] = f;
            for (uint32_t j = 0; j + 1 < k; j++)
                path[k - 2 - j] = st->ancestors[j];
            score += is_new_path(gen, path);
        }
        if (g->nodes[f].kind != NODE_REF || nanc + 2 < k)
            continue;
        if (k >= 2)
            path[k - 2] = f;
        for (uint32_t j = 0; j + 2 < k; j++)
            path[k - 3 - j] = st->ancestors[j];
        /* These k-paths share all but their last node: rank that stem once
         * and each of them by its successor's position, not by a search per
         * node (the same ranks as kpath_rank's; about a tenth of cover's
         * CPU on big grammars, see docs/design/algorithms.md). */
        uint64_t stem;
        bool by_rank = k >= 2 && sets_by_rank(gen);
        if (by_rank && !kpath_rank_stem(&gen->space, path, &stem)) {
            if (!st->has_targets) /* in none of the sets: every one is new */
                score += g->nodes[f].nsucc;
            continue;
        }
        for (uint32_t s = 0; s < g->nodes[f].nsucc; s++) {
            if (by_rank) {
                score += is_new_rank(gen, kpath_rank_extend(&gen->space, stem, f, s));
                continue;
            }
            path[k - 1] = graph_successors(g, f)[s];
            score += is_new_path(gen, path);
        }
    }
    return score;
}

static uint32_t shortest_fitting(const struct generator *gen, uint32_t inst, uint32_t n);
static bool is_shorter(const struct graph *g, uint32_t a, uint32_t b);

/* Greedy close-off: most new k-paths, else a way towards uncovered ones while
 * the packing budget lasts (pack_limit), else the shortest. */
static uint32_t greedy_alternative(struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph *g = gen->graph;
    const struct graph_node *node = &g->nodes[n];
    uint32_t best = INF32, best_score = 0;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        if (!pack_allowed(gen, inst, c))
            continue;
        uint32_t score = greedy_score(gen, inst, c);
        if (score > best_score ||
            (score && score == best_score && is_shorter(g, c, graph_children(g, n)[best])))
            best = i, best_score = score;
    }
    if (best != INF32)
        return best;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        if (pack_allowed(gen, inst, c) && gen->state->leads[c] &&
            (best == INF32 || is_shorter(g, c, graph_children(g, n)[best])))
            best = i;
    }
    if (best != INF32)
        return best;
    return shortest_fitting(gen, inst, n);
}

/* Lexicographic comparison of candidates by the given measures. */
static bool closes_faster(const struct graph *g, uint32_t a, uint32_t b)
{
    const struct graph_node *x = &g->nodes[a], *y = &g->nodes[b];
    if (x->min_depth != y->min_depth)
        return x->min_depth < y->min_depth;
    return x->min_size < y->min_size;
}

static bool is_shorter(const struct graph *g, uint32_t a, uint32_t b)
{
    /* characters, then tree nodes (min_weight), then depth */
    const struct graph_node *x = &g->nodes[a], *y = &g->nodes[b];
    if (x->min_weight != y->min_weight)
        return x->min_weight < y->min_weight;
    return x->min_depth < y->min_depth;
}

static uint32_t fastest_alternative(const struct generator *gen, uint32_t n)
{
    const struct graph *g = gen->graph;
    uint32_t best = 0;
    for (uint32_t i = 1; i < g->nodes[n].nchildren; i++)
        if (closes_faster(g, graph_children(g, n)[i], graph_children(g, n)[best]))
            best = i;
    return best;
}

static uint32_t shortest_fitting(const struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph *g = gen->graph;
    uint32_t best = INF32;
    const struct size_table *sizes = gen->state->sizes;
    uint32_t refs = gen->state->refs[inst];
    if (sizes && refs <= gen->opts.max_depth) {
        /* Exactly: the smallest subtree within the depth left (on a tie,
         * the one of the smallest overall, as below). */
        uint64_t best_w = METRIC_INFINITE;
        for (uint32_t i = 0; i < g->nodes[n].nchildren; i++) {
            uint32_t c = graph_children(g, n)[i];
            uint64_t w = size_table_weight(sizes, c, gen->opts.max_depth - refs);
            if (w != METRIC_INFINITE &&
                (w < best_w || (w == best_w && is_shorter(g, c, graph_children(g, n)[best]))))
                best = i, best_w = w;
        }
        return best == INF32 ? fastest_alternative(gen, n) : best;
    }
    for (uint32_t i = 0; i < g->nodes[n].nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        if (fits(gen, inst, c) && (best == INF32 || is_shorter(g, c, graph_children(g, n)[best])))
            best = i;
    }
    return best == INF32 ? fastest_alternative(gen, n) : best;
}

/* Uniform among the alternatives listed in st->pick[0..n). */
static uint32_t pick_uniform(struct generator *gen, uint32_t n)
{
    return gen->state->pick[rng_below(&gen->rng, n)];
}

static uint32_t printable_members(const struct expr *cls, uint32_t nth, bool count_only)
{
    uint32_t seen = 0;
    for (uint32_t cp = 0x20; cp <= 0x7E; cp++) {
        if (!grammar_class_matches(cls, cp))
            continue;
        if (!count_only && seen == nth)
            return cp;
        seen++;
    }
    return seen;
}

/* A random member of a class: printable ASCII when the class has any (inputs
 * stay readable and typeable), else any member. */
uint32_t gen_random_class_char(const struct expr *cls, struct rng *rng)
{
    uint32_t printable = printable_members(cls, 0, true);
    if (printable)
        return printable_members(cls, (uint32_t)rng_below(rng, printable), false);
    uint64_t size = grammar_class_size(cls);
    return grammar_class_nth(cls, rng_below(rng, size));
}

static uint32_t random_char(struct generator *gen, const struct expr *cls)
{
    return gen_random_class_char(cls, &gen->rng);
}

/* The letters and digits of a class: the nth of them, or how many. */
static uint32_t alnum_members(const struct expr *cls, uint32_t nth, bool count_only)
{
    static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    uint32_t seen = 0;
    for (const char *c = alnum; *c; c++) {
        if (!grammar_class_matches(cls, (unsigned char)*c))
            continue;
        if (!count_only && seen == nth)
            return (unsigned char)*c;
        seen++;
    }
    return seen;
}

/* Greedy close-off: the class slots of graph node n take its letters and
 * digits in turn across the suite, from a seeded start (a class without
 * any: its first character, as the shortest close-off writes).  Why: with
 * the first character everywhere, every digit of a suite is 0 (in JSON
 * every number integral, \u0000 in every escape, which masks the rest of
 * a string in a C parser), and a program meets one character per class;
 * varied, a suite reaches more of a program for the same k-paths (classes
 * are leaves: the k-paths do not change; make bench, behaviour).  Letters
 * and digits only: readable, and never a quote, a separator or a comment
 * starter, which would change how a program (or the grammar's parser)
 * reads the text around them. */
static uint32_t varied_class_char(struct generator *gen, uint32_t n, const struct expr *cls)
{
    uint32_t count = alnum_members(cls, 0, true);
    if (!count)
        return grammar_class_default_char(cls);
    uint32_t *next = &gen->state->class_next[n];
    if (*next == UINT32_MAX)
        *next = (uint32_t)rng_below(&gen->state->char_rng, count);
    uint32_t i = *next % count;
    *next = (i + 1) % count;
    return alnum_members(cls, i, false);
}

static uint32_t repetition_cap(const struct generator *gen, const struct graph_node *n)
{
    uint32_t lo = n->expr->u.quant.min, hi = n->expr->u.quant.max;
    uint32_t cap = max32(lo, gen->opts.max_repetitions);
    return hi < cap ? hi : cap;
}

static uint32_t random_repetitions(struct generator *gen, uint32_t inst, const struct graph_node *n,
                                   uint32_t child)
{
    uint32_t lo = n->expr->u.quant.min, hi = repetition_cap(gen, n);
    uint32_t budget = size_repetitions(gen, inst);
    hi = budget < hi ? budget : hi;
    if (!fits(gen, inst, child) || hi <= lo)
        return lo;
    return lo + (uint32_t)rng_below(&gen->rng, (uint64_t)(hi - lo) + 1);
}

/* Deep foresight, as fuzzingbook's GrammarCoverageFuzzer chooses: for each
 * alternative c of alt node n, new(c, d) is the set of expansions no tree
 * has used yet among (n, c) itself and every expansion reachable from c
 * through at most d references (fuzzingbook's max_expansion_coverage(d) of
 * the symbols in c; here alternations nested in c without a reference in
 * between, which fuzzingbook's EBNF conversion turns into symbols of their
 * own, count at c's level).  For d = 0, 1, ... up to the number of rules,
 * the first d where some alternative has new expansions decides: uniform
 * among those with the most.  With none anywhere, uniform.  Only
 * alternatives that fit the depth limit and the size budget take part. */
static void foresight_levels(struct generator *gen, uint32_t c, uint64_t *by_level,
                             uint32_t levels)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t N = g->nnodes;
    uint32_t *level = st->fs_level, *done = st->fs_level + N;
    for (uint32_t i = 0; i < N; i++)
        level[i] = UINT32_MAX, done[i] = 0;
    for (uint32_t l = 0; l < levels; l++)
        by_level[l] = 0;
    /* 0-1 breadth-first search: entering a rule's node through a reference
     * costs one level, every other edge none; free edges push at the front.
     * Each node is settled once, at its least level, and each edge pushes at
     * most once, so a ring of edges + 1 slots holds the deque. */
    size_t cap = st->fs_cap, head = 0, len = 0;
    level[c] = 0;
    st->fs_deque[0] = c, len = 1;
    while (len) {
        uint32_t x = st->fs_deque[head];
        head = (head + 1) % cap, len--;
        if (done[x])
            continue;
        done[x] = 1;
        uint32_t lx = level[x];
        if (lx < levels) {
            if (g->nodes[x].kind == NODE_ALT) {
                for (uint32_t i = 0; i < g->nodes[x].nchildren; i++)
                    by_level[lx] += !expansion_has(&st->used, x, i);
            } else if (expansion_is_single(g, x)) {
                by_level[lx] += !expansion_has(&st->used, x, 0);
            }
        }
        uint32_t step = is_ref(g, x);
        for (uint32_t i = 0; i < g->nodes[x].nchildren; i++) {
            uint32_t y = graph_children(g, x)[i];
            if (done[y] || level[y] <= lx + step || len >= cap)
                continue;
            level[y] = lx + step;
            if (step == 0) {
                head = (head + cap - 1) % cap;
                st->fs_deque[head] = y;
            } else {
                st->fs_deque[(head + len) % cap] = y;
            }
            len++;
        }
    }
}

static uint32_t coverage_alternative(struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    const struct graph_node *node = &g->nodes[n];
    uint32_t levels = g->grammar->nrules + 1;
    if (!st->fs_level) {
        uint32_t widest = 1;
        for (uint32_t m = 0; m < g->nnodes; m++)
            widest = max32(widest, g->nodes[m].nchildren);
        size_t N = g->nnodes;
        st->fs_cap = graph_edge_count(g) + 2;
        st->fs_level = xmalloc((2 * N + 1) * sizeof *st->fs_level);
        st->fs_deque = xmalloc(st->fs_cap * sizeof *st->fs_deque);
        st->fs_new = xmalloc((size_t)widest * levels * sizeof *st->fs_new);
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        if (!allowed(gen, inst, c))
            continue;
        uint64_t *row = st->fs_new + (size_t)count * levels;
        foresight_levels(gen, c, row, levels);
        row[0] += !expansion_has(&st->used, n, i);
        for (uint32_t l = 1; l < levels; l++) /* cumulative: within l references */
            row[l] += row[l - 1];
        st->pick[count++] = i;
    }
    if (!count)
        return smallest_alternative(gen, inst, n);
    for (uint32_t d = 0; d < levels; d++) {
        uint64_t most = 0;
        for (uint32_t j = 0; j < count; j++)
            most = st->fs_new[(size_t)j * levels + d] > most ? st->fs_new[(size_t)j * levels + d]
                                                             : most;
        if (!most)
            continue;
        uint32_t best = 0;
        for (uint32_t j = 0; j < count; j++)
            if (st->fs_new[(size_t)j * levels + d] == most)
                st->pick[best++] = st->pick[j];
        return pick_uniform(gen, best);
    }
    return pick_uniform(gen, count);
}

/* Drawn by probability among the positive alternatives the depth and the
 * size allow; once none is left, the smallest of all that fit the depth
 * (smallest_alternative; among equally small positive ones, drawn by
 * probability). */
static uint32_t prob_alternative(struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    const struct graph_node *node = &g->nodes[n];
    const double *p = gen->opts.probabilities + node->first_child;
    bool any = false;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        st->weights[i] = p[i] > 0 && allowed(gen, inst, c) ? p[i] : 0;
        any = any || st->weights[i] > 0;
    }
    if (any)
        return rng_weighted(&gen->rng, st->weights, node->nchildren);
    /* The smallest completion, weight-0 alternatives included: a positive
     * alternative that is not the smallest would spend what the budget no
     * longer has (an inverted table can give the only way out of a
     * recursion weight 0). */
    uint32_t best = smallest_alternative(gen, inst, n);
    uint64_t best_size = g->nodes[graph_children(g, n)[best]].min_size;
    for (uint32_t i = 0; i < node->nchildren; i++) {
        uint32_t c = graph_children(g, n)[i];
        st->weights[i] = p[i] > 0 && fits(gen, inst, c) && g->nodes[c].min_size == best_size
                             ? p[i] : 0;
        any = any || st->weights[i] > 0;
    }
    return any ? rng_weighted(&gen->rng, st->weights, node->nchildren) : best;
}

/* Greedy close-off: as many repetitions of the quant slot inst as one
 * repetition would add new k-paths, within the cap and the packing budget. */
static uint32_t greedy_repetitions(struct generator *gen, uint32_t inst, uint32_t n)
{
    const struct graph_node *node = &gen->graph->nodes[n];
    uint32_t child = graph_children(gen->graph, n)[0];
    uint32_t lo = node->expr->u.quant.min, score = 0;
    uint32_t cap = repetition_cap(gen, node);
    uint32_t budget = size_repetitions_within(gen, inst, pack_limit(gen));
    cap = budget < cap ? budget : cap;
    if (fits(gen, inst, child) && cap > lo)
        score = greedy_score(gen, inst, child);
    return score < lo ? lo : score > cap ? cap : score;
}

/* The decision for a slot; false (with gen->error) when bounded random
 * close-off finds nothing that fits. */
static bool choose(struct generator *gen, uint32_t inst, uint32_t *decision)
{
    const struct graph *g = gen->graph;
    struct gen_state *st = gen->state;
    uint32_t n = gen->tree.insts[inst].node;
    const struct graph_node *node = &g->nodes[n];
    bool closeoff = gen->phase == GEN_PHASE_CLOSEOFF;
    bool shortest = closeoff && gen->opts.closeoff == GEN_CLOSE_SHORTEST;
    bool greedy = closeoff && gen->opts.closeoff == GEN_CLOSE_GREEDY;
    *decision = 0;
    gen->last.ncandidates = 0;
    switch (node->kind) {
    case NODE_ALT: {
        uint32_t fitting = 0, within = 0;
        for (uint32_t i = 0; i < node->nchildren; i++) {
            uint32_t c = graph_children(g, n)[i];
            uint32_t depth = add32(st->refs[inst], g->nodes[c].min_depth);
            gen->last.candidates[gen->last.ncandidates++] = (struct gen_candidate){c, depth};
            fitting += depth <= gen->opts.max_depth;
            if (allowed(gen, inst, c))
                st->pick[within++] = i;
        }
        if (shortest) {
            *decision = shortest_fitting(gen, inst, n);
        } else if (greedy) {
            *decision = greedy_alternative(gen, inst, n);
        } else if (closeoff) {
            if (!fitting) {
                struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
                graph_node_name(g, n, &name);
                uint32_t best = graph_children(g, n)[fastest_alternative(gen, n)];
                strbuf_addf(&sb, "random close-off: no alternative of %s fits: the slot is at "
                            "depth %u and needs depth %u (limit %u)", strbuf_str(&name),
                            st->refs[inst], add32(st->refs[inst], g->nodes[best].min_depth),
                            gen->opts.max_depth);
                gen->error = strbuf_detach(&sb, NULL);
                strbuf_free(&name);
                return false;
            }
            *decision = within ? pick_uniform(gen, within) : smallest_alternative(gen, inst, n);
        } else if (gen->opts.strategy == GEN_COVERAGE) {
            *decision = coverage_alternative(gen, inst, n);
        } else if (gen->opts.strategy == GEN_PROB) {
            *decision = prob_alternative(gen, inst, n);
        } else {
            *decision = within ? pick_uniform(gen, within) : smallest_alternative(gen, inst, n);
        }
        break;
    }
    case NODE_QUANT: {
        uint32_t child = graph_children(g, n)[0];
        uint32_t lo = node->expr->u.quant.min;
        if (greedy) {
            *decision = greedy_repetitions(gen, inst, n);
        } else if (shortest) {
            *decision = lo;
        } else if (gen->opts.strategy == GEN_PROB && gen->opts.probabilities[node->first_child] >= 0 &&
                   fits(gen, inst, child)) {
            /* Learned: one more repetition with probability q, up to the cap. */
            double q = gen->opts.probabilities[node->first_child];
            uint32_t cap = repetition_cap(gen, node), budget = size_repetitions(gen, inst);
            cap = budget < cap ? budget : cap;
            *decision = lo;
            while (*decision < cap && rng_uniform(&gen->rng) < q)
                ++*decision;
        } else {
            *decision = random_repetitions(gen, inst, node, child);
        }
        break;
    }
    case NODE_CLASS:
        *decision = shortest ? grammar_class_default_char(node->expr)
                    : greedy ? varied_class_char(gen, n, node->expr)
                             : random_char(gen, node->expr);
        break;
    default:
        break;
    }
    return true;
}

/* ---- finishing trees ------------------------------------------------------ */

void gen_input_tree(const struct generator *gen, size_t i, struct derivation *out)
{
    derivation_unpack(&gen->inputs[i].tree, gen->graph, out);
}

uint32_t gen_derivation_depth(const struct derivation *t)
{
    /* Parents come before their children: one forward pass. */
    uint32_t *at = xmalloc((t->len + 1) * sizeof *at), deepest = 0;
    for (size_t i = 0; i < t->len; i++) {
        uint32_t p = t->insts[i].parent;
        at[i] = p == DTREE_NONE ? 1 : at[p] + 1;
        deepest = max32(deepest, at[i]);
    }
    free(at);
    return deepest;
}

struct new_paths {
    struct generator *gen;
    struct gen_input *input;
    size_t cap;
};

static void note_path(const uint32_t *path, void *ctx)
{
    struct new_paths *np = ctx;
    struct generator *gen = np->gen;
    uint32_t k = gen->opts.k;
    if (!kpath_set_add(&gen->covered, path))
        return;
    drop_open_end(gen->state, path[k - 1]);
    struct gen_input *in = np->input;
    in->new_paths = xgrow(in->new_paths, &np->cap, ((size_t)in->nnew + 1) * k,
                          sizeof *in->new_paths);
    memcpy(in->new_paths + (size_t)in->nnew * k, path, k * sizeof *path);
    in->nnew++;
    if (gen->opts.strategy == GEN_KPATH && memcmp(path, gen->target, k * sizeof *path) == 0)
        in->target_covered = true;
}

static void count_holders(struct generator *gen);

/* The parser counts no tree with a repetition past a quantifier's minimum
 * that produces no text (definitions.md, "Derivation trees"): such a tree
 * has the same text as the one without it.  Rebuild the finished tree
 * without them, keeping the repetitions in order and dropping an empty one
 * once the minimum is kept, so that the tree whose k-paths the generator
 * claims is one the parser reads back from its text.  False (the tree
 * unchanged) when it has none. */
static bool drop_empty_rounds(struct generator *gen)
{
    const struct graph *g = gen->graph;
    struct derivation *t = &gen->tree;
    bool *full = xcalloc(t->len + 1, sizeof *full); /* produces some text */
    for (size_t i = t->len; i-- > 0;) {
        const struct derivation_inst *in = &t->insts[i];
        const struct graph_node *n = &g->nodes[in->node];
        if ((n->kind == NODE_LIT && n->expr->u.lit.len) || n->kind == NODE_CLASS)
            full[i] = true;
        if (full[i] && in->parent != DTREE_NONE)
            full[in->parent] = true;
    }
    bool any = false;
    for (size_t i = 0; i < t->len && !any; i++) {
        const struct derivation_inst *in = &t->insts[i];
        if (g->nodes[in->node].kind != NODE_QUANT)
            continue;
        uint32_t min = g->nodes[in->node].expr->u.quant.min;
        for (uint32_t c = min; c < in->nchildren; c++)
            any |= !full[derivation_children(t, (uint32_t)i)[c]];
    }
    if (!any) {
        free(full);
        return false;
    }
    uint32_t *decisions = NULL, *stack = NULL;
    size_t ndec = 0, dec_cap = 0, depth = 0, stack_cap = 0;
    stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        const struct derivation_inst *in = &t->insts[inst];
        const struct graph_node *n = &g->nodes[in->node];
        const uint32_t *kids = derivation_children(t, inst);
        size_t first = depth;
        uint32_t kept = 0;
        stack = xgrow(stack, &stack_cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = 0; c < in->nchildren; c++) {
            if (n->kind == NODE_QUANT && kept >= n->expr->u.quant.min && !full[kids[c]])
                continue;
            stack[depth++] = kids[c];
            kept++;
        }
        for (size_t a = first, b = depth; a + 1 < b; a++, b--) { /* leftmost on top */
            uint32_t x = stack[a];
            stack[a] = stack[b - 1];
            stack[b - 1] = x;
        }
        if (derivation_needs_decision(g, in->node)) {
            decisions = xgrow(decisions, &dec_cap, ndec + 1, sizeof *decisions);
            decisions[ndec++] = n->kind == NODE_QUANT ? kept : derivation_decision(t, inst);
        }
    }
    struct derivation rebuilt;
    derivation_init(&rebuilt, g, 0);
    long used = derivation_replay(&rebuilt, decisions, ndec, NULL);
    if (used == (long)ndec && derivation_complete(&rebuilt)) {
        derivation_free(t);
        *t = rebuilt;
    } else {
        derivation_free(&rebuilt); /* cannot happen: every decision is one it allowed */
    }
    free(decisions);
    free(stack);
    free(full);
    return true;
}

/* Does the tree hold the generator's target (in a pinned context)? */
struct holds_target {
    const struct generator *gen;
    bool found;
};

static void find_target(const uint32_t *path, void *ctx)
{
    struct holds_target *h = ctx;
    if (!h->found && memcmp(path, h->gen->target, h->gen->opts.k * sizeof *path) == 0)
        h->found = true;
}

static bool holds_target(const struct derivation *t, void *ctx)
{
    struct holds_target h = {ctx, false};
    pin_foreach_kpath(h.gen->opts.pins, t, h.gen->opts.k, find_target, &h);
    return h.found;
}

/* An ANTLR grammar's tree whose text its lexer would read otherwise than
 * derived: re-derived where it goes wrong (mend.h), keeping the target. */
static void mend_finished(struct generator *gen, struct strbuf *text)
{
    struct mend_limits lim = {gen->opts.max_depth, gen->opts.max_size, NULL, gen};
    if (gen->opts.strategy == GEN_KPATH && gen->target && holds_target(&gen->tree, gen))
        lim.keep = holds_target;
    mend_tree(&gen->tree, &lim, text);
}

static void finish_tree(struct generator *gen)
{
    /* The text first: dropping empty repetitions leaves it as it is. */
    struct strbuf text = STRBUF_INIT;
    mend_finished(gen, &text);
    bool dropped = drop_empty_rounds(gen);
    gen->inputs = xgrow(gen->inputs, &gen->inputs_cap, gen->ninputs + 1, sizeof *gen->inputs);
    struct gen_input *in = &gen->inputs[gen->ninputs++];
    memset(in, 0, sizeof *in);
    derivation_pack(&gen->tree, &in->tree);
    in->text = strbuf_detach(&text, &in->len);
    in->depth = derivation_depth(&gen->tree);
    in->derivation_depth = gen_derivation_depth(&gen->tree);
    if (gen->opts.strategy == GEN_KPATH)
        in->target = xmemdup(gen->target, gen->opts.k * sizeof *gen->target);
    in->round = gen->round;
    struct new_paths np = {gen, in, 0};
    pin_foreach_kpath(gen->opts.pins, &gen->tree, gen->opts.k, note_path, &np);
    if (dropped && gen->opts.strategy == GEN_KPATH && !kpath_set_contains(&gen->covered, gen->target)) {
        /* The way found holds the target only inside a repetition that
         * produces no text: no parse of the input holds it there. */
        record_unreachable(gen, 0, 0);
        gen->unreachable[gen->nunreachable - 1].empty_repetition = true;
        drop_open_end(gen->state, gen->target[gen->opts.k - 1]);
        kpath_set_add(&gen->state->skipped, gen->target);
        gen->events |= GEN_EVENT_TARGET_SKIPPED;
    }
    count_holders(gen);
    gen->events |= GEN_EVENT_TREE_FINISHED;
    gen->phase = GEN_PHASE_IDLE;
}

static void fill_step(struct generator *gen)
{
    struct gen_state *st = gen->state;
    uint32_t inst = st->stack[--st->stack_len];
    uint32_t decision;
    if (!choose(gen, inst, &decision)) {
        gen->phase = GEN_PHASE_DONE;
        gen->events |= GEN_EVENT_DONE;
        return;
    }
    expand(gen, inst, decision);
    gen->last.toward_target = false;
    gen->last.followed = DTREE_NONE;
    push_children(gen, inst);
    if (!st->stack_len)
        finish_tree(gen);
}

/* ---- stepping ------------------------------------------------------------- */

/* ---- the recurrent mode ------------------------------------------------- */

/* Start the agenda over: every target not skipped is uncovered again, in a
 * new random order (Fisher-Yates from the seeded generator), and the trees
 * are closed off at random, so the round makes other inputs.  Targets found
 * unreachable stay skipped and are not reported again.  False (nothing
 * changes) outside the recurrent mode, or when the round made no input: a
 * new one would make none either. */
static bool start_round(struct generator *gen)
{
    struct gen_state *st = gen->state;
    if (!gen->opts.recurrent || gen->ninputs == st->round_first_input)
        return false;
    gen->round++;
    st->round_first_input = gen->ninputs;
    kpath_set_clear(&gen->covered);
    for (size_t i = st->agenda_len; i > 1; i--) {
        size_t j = (size_t)rng_below(&gen->rng, i);
        uint64_t t = st->agenda[i - 1];
        st->agenda[i - 1] = st->agenda[j];
        st->agenda[j] = t;
    }
    st->agenda_pos = 0;
    gen->opts.closeoff = GEN_CLOSE_RANDOM;
    st->greedy = false;
    count_open_ends(gen);
    return true;
}

/* ---- dropping redundant inputs -------------------------------------------- */

struct rank_list {
    const struct generator *gen;
    uint64_t *ranks;
    size_t len, cap;
    /* With tree_ranks: one bit per rank of the space, set for the ranks in
     * `ranks`, so each is listed once (a tree holds a k-path many times) and
     * only the distinct ones are sorted; all clear between trees. */
    uint64_t *seen;
};

static void collect_rank(const uint32_t *path, void *ctx)
{
    struct rank_list *l = ctx;
    uint64_t rank;
    if (!kpath_rank(&l->gen->space, path, &rank))
        return;
    if (l->seen) {
        uint64_t bit = UINT64_C(1) << (rank % 64);
        if (l->seen[rank / 64] & bit)
            return;
        l->seen[rank / 64] |= bit;
    }
    l->ranks = xgrow(l->ranks, &l->cap, l->len + 1, sizeof *l->ranks);
    l->ranks[l->len++] = rank;
}

static int compare_rank(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct ranks of the k-paths of a tree (in a pinned context),
 * ascending; l->seen, when there is one, must be all clear, and is again
 * afterwards; without one, repeats are removed after sorting. */
static void tree_ranks(const struct generator *gen, const struct derivation *tree,
                       struct rank_list *l)
{
    l->len = 0;
    pin_foreach_kpath(gen->opts.pins, tree, gen->opts.k, collect_rank, l);
    if (l->len > 1) /* a tree without k-paths has no array at all: qsort(NULL) is UB */
        qsort(l->ranks, l->len, sizeof *l->ranks, compare_rank);
    if (l->seen) {
        for (size_t j = 0; j < l->len; j++)
            l->seen[l->ranks[j] / 64] = 0;
        return;
    }
    size_t out = 0;
    for (size_t j = 0; j < l->len; j++)
        if (!out || l->ranks[out - 1] != l->ranks[j])
            l->ranks[out++] = l->ranks[j];
    l->len = out;
}

/* Input i's ranks as tree_ranks gives them, read back from what
 * count_holders kept when its tree finished (no tree is rebuilt). */
static void input_ranks(const struct generator *gen, size_t i, struct rank_list *l,
                        bool only_targets)
{
    const struct gen_state *st = gen->state;
    const struct input_ranks *r = &st->input_ranks[i];
    l->len = 0;
    uint64_t rank = 0;
    for (size_t at = 0; at < r->len;) {
        rank += leb128_get(r->bytes, r->len, &at);
        if (only_targets && st->has_targets && !rank_in(gen, &st->target_set, rank))
            continue;
        l->ranks = xgrow(l->ranks, &l->cap, l->len + 1, sizeof *l->ranks);
        l->ranks[l->len++] = rank;
    }
}

static void free_input_ranks(struct generator *gen)
{
    struct gen_state *st = gen->state;
    for (size_t i = 0; i < st->ninput_ranks; i++)
        free(st->input_ranks[i].bytes);
    free(st->input_ranks);
    st->input_ranks = NULL;
    st->ninput_ranks = st->input_ranks_cap = 0;
}

unsigned gen_holders_in_map = UINT8_MAX;

/* Add delta (+1 or -1) to the number of holders of rank (see
 * gen_state.holders). */
static void holder_add(uint8_t *count, struct holder_count **map, uint64_t rank, int delta)
{
    if (count[rank] < gen_holders_in_map) {
        count[rank] = (uint8_t)(count[rank] + delta);
        if (count[rank] < gen_holders_in_map)
            return;
        struct holder_count *h = xmalloc(sizeof *h);
        h->rank = rank;
        h->count = count[rank];
        HASH_ADD(hh, *map, rank, sizeof h->rank, h);
        return;
    }
    struct holder_count *h;
    HASH_FIND(hh, *map, &rank, sizeof rank, h);
    h->count += (uint64_t)(int64_t)delta;
    if (h->count < gen_holders_in_map) {
        count[rank] = (uint8_t)h->count;
        HASH_DEL(*map, h);
        free(h);
    }
}

static void holders_map_free(struct holder_count **map)
{
    struct holder_count *h, *next;
    HASH_ITER(hh, *map, h, next) {
        HASH_DEL(*map, h);
        free(h);
    }
}

/* Whether drop_redundant will run at the end and can count holders. */
static bool counts_holders(const struct generator *gen)
{
    return !gen_keeps_inputs(gen);
}

/* Count the finished tree's target k-paths in st->holders, and keep its
 * k-paths' ranks for drop_redundant (st->input_ranks, one per input). */
static void count_holders(struct generator *gen)
{
    struct gen_state *st = gen->state;
    if (!counts_holders(gen))
        return;
    if (!st->holders) {
        st->holders = xcalloc((size_t)gen->space.total + 1, 1);
        st->rank_seen = xcalloc((size_t)(gen->space.total / 64) + 1, sizeof *st->rank_seen);
    }
    struct rank_list l = {gen, NULL, 0, 0, st->rank_seen};
    tree_ranks(gen, &gen->tree, &l);
    struct strbuf packed = STRBUF_INIT;
    uint64_t before = 0;
    for (size_t j = 0; j < l.len; j++) {
        leb128_put(&packed, l.ranks[j] - before);
        before = l.ranks[j];
        if (st->has_targets && !rank_in(gen, &st->target_set, l.ranks[j]))
            continue;
        holder_add(st->holders, &st->holders_map, l.ranks[j], 1);
    }
    st->input_ranks = xgrow(st->input_ranks, &st->input_ranks_cap, st->ninput_ranks + 1,
                            sizeof *st->input_ranks);
    st->input_ranks[st->ninput_ranks++] =
        (struct input_ranks){packed.len ? xmemdup(packed.data, packed.len) : NULL, packed.len};
    strbuf_free(&packed);
    free(l.ranks);
}

/* Covering k-paths is a set-cover problem, and a greedy suite carries inputs
 * whose k-paths all occur in other inputs (an early input for a deep target
 * is often covered again by later ones).  Drop them, newest first (a late
 * input for a leftover target is the likeliest to be covered already), then
 * recount what each kept input newly covers.  Coverage stays exactly the
 * same (the holder counts are exact, see gen_state.holders). */
static void drop_redundant(struct generator *gen)
{
    struct gen_state *st = gen->state;
    if (gen->ninputs < 2 || !st->holders || st->ninput_ranks != gen->ninputs)
        return;
    /* How many inputs hold each target: counted as the trees finished. */
    uint8_t *count = st->holders;
    st->holders = NULL;
    struct rank_list l = {gen, NULL, 0, 0, NULL};
    bool *dropped = xcalloc(gen->ninputs + 1, sizeof *dropped);
    for (size_t i = gen->ninputs; i-- > 0;) {
        input_ranks(gen, i, &l, true);
        bool redundant = true;
        for (size_t j = 0; j < l.len && redundant; j++)
            redundant = count[l.ranks[j]] >= 2;
        if (!redundant)
            continue;
        dropped[i] = true;
        for (size_t j = 0; j < l.len; j++)
            holder_add(count, &st->holders_map, l.ranks[j], -1);
    }
    holders_map_free(&st->holders_map);
    size_t kept = 0;
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct gen_input *in = &gen->inputs[i];
        if (dropped[i]) {
            gen_input_free(in);
            free(st->input_ranks[i].bytes);
        } else {
            st->input_ranks[kept] = st->input_ranks[i];
            gen->inputs[kept++] = *in;
        }
    }
    gen->ninputs = st->ninput_ranks = kept;
    /* What each kept input newly covers, in order. */
    memset(count, 0, (size_t)gen->space.total + 1);
    for (size_t i = 0; i < gen->ninputs; i++) {
        input_ranks(gen, i, &l, false);
        gen_input_count_new(gen, &gen->inputs[i], l.ranks, l.len, count);
    }
    free(l.ranks);
    free(dropped);
    free(count);
    free_input_ranks(gen);
}

/* Every case in which drop_redundant can remove nothing, known before the
 * first tree: a caller streams inputs exactly then.  Otherwise whether an
 * input stays depends on the inputs made after it (it goes when the inputs
 * still there hold all its targets, which later ones may), so no input is
 * certain to stay before the end.
 * Holders are counted only for an agenda's space (a space too big for one
 * is possible with explicit targets), and -n 1 makes at most one input. */
bool gen_keeps_inputs(const struct generator *gen)
{
    return !gen->opts.drop_redundant || gen->opts.strategy != GEN_KPATH || gen->opts.recurrent ||
           gen->space.saturated || gen->space.total > GEN_MAX_AGENDA || gen->opts.count == 1;
}

static void finish(struct generator *gen)
{
    /* A target lost to an empty repetition that a later input holds after
     * all is covered, not unreachable. */
    size_t kept = 0;
    for (size_t i = 0; i < gen->nunreachable; i++) {
        struct gen_unreachable *u = &gen->unreachable[i];
        if (u->empty_repetition && kpath_set_contains(&gen->covered, u->path)) {
            free(u->path);
            continue;
        }
        gen->unreachable[kept++] = *u;
    }
    gen->nunreachable = kept;
    if (!gen_keeps_inputs(gen) && !gen->error)
        drop_redundant(gen);
    gen->phase = GEN_PHASE_DONE;
    gen->events |= GEN_EVENT_DONE;
}

bool gen_step(struct generator *gen)
{
    gen->events = 0;
    switch (gen->phase) {
    case GEN_PHASE_DONE:
        return false;
    case GEN_PHASE_IDLE:
        if (gen->opts.count && gen->ninputs >= gen->opts.count) {
            finish(gen);
            return false;
        }
        if (gen->opts.strategy == GEN_KPATH) {
            if (!next_target(gen) && !(start_round(gen) && next_target(gen))) {
                finish(gen);
                return false;
            }
            begin_walk(gen);
        } else {
            start_tree(gen);
            gen->phase = GEN_PHASE_FILL;
            push_slot(gen->state, 0);
        }
        return true;
    case GEN_PHASE_TARGET:
        walk_step(gen);
        return true;
    case GEN_PHASE_CLOSEOFF:
    case GEN_PHASE_FILL:
        fill_step(gen);
        return gen->phase != GEN_PHASE_DONE;
    }
    return false;
}

bool gen_finish_tree(struct generator *gen)
{
    while (gen_step(gen))
        if (gen->events & GEN_EVENT_TREE_FINISHED)
            return true;
    return false;
}

void gen_run(struct generator *gen)
{
    while (gen_step(gen))
        ;
}

bool gen_mark_covered(struct generator *gen, const uint32_t *path)
{
    if (!kpath_set_add(&gen->covered, path))
        return false;
    /* open_ends counts the agenda's k-paths still uncovered. */
    uint32_t k = gen->opts.k;
    bool on_agenda = gen->state->has_targets
                         ? kpath_set_contains(&gen->state->target_set, path)
                         : !gen->opts.pins || pin_set_covers_path(gen->opts.pins, path);
    if (gen->opts.strategy == GEN_KPATH && on_agenda)
        drop_open_end(gen->state, path[k - 1]);
    return true;
}

/* Is the agenda's k-path of this rank in `set`?  Sets of spaces too large for
 * a bitset (possible only with a one-path agenda) hash paths instead. */
static bool rank_in(const struct generator *gen, const struct kpath_set *set, uint64_t rank)
{
    if (set->bits)
        return kpath_set_contains_rank(set, rank);
    uint32_t *path = xmalloc(gen->opts.k * sizeof *path);
    kpath_unrank(&gen->space, rank, path);
    bool in = kpath_set_contains(set, path);
    free(path);
    return in;
}

uint64_t gen_agenda_left(const struct generator *gen)
{
    const struct gen_state *st = gen->state;
    uint64_t left = 0;
    for (size_t i = st->agenda_pos; i < st->agenda_len; i++)
        if (!rank_in(gen, &gen->covered, st->agenda[i]) &&
            !rank_in(gen, &st->skipped, st->agenda[i]))
            left++;
    return left;
}

size_t gen_tree_ranks(const struct generator *gen, const struct derivation *tree, bool only_targets,
                      uint64_t **ranks, size_t *cap)
{
    /* No scratch bitset: this generator may keep none (it need not count
     * holders), and one of the space's size per call would cost more than
     * the sort's removal of repeats. */
    const struct gen_state *st = gen->state;
    struct rank_list l = {gen, *ranks, 0, *cap, NULL};
    tree_ranks(gen, tree, &l);
    if (only_targets && st->has_targets) {
        size_t out = 0;
        for (size_t j = 0; j < l.len; j++)
            if (rank_in(gen, &st->target_set, l.ranks[j]))
                l.ranks[out++] = l.ranks[j];
        l.len = out;
    }
    *ranks = l.ranks;
    *cap = l.cap;
    return l.len;
}

void gen_input_count_new(const struct generator *gen, struct gen_input *in,
                         const uint64_t *ranks, size_t n, uint8_t *seen)
{
    uint32_t k = gen->opts.k;
    uint64_t target_rank = UINT64_MAX;
    if (in->target)
        kpath_rank(&gen->space, in->target, &target_rank);
    in->nnew = 0;
    in->target_covered = false;
    size_t cap = 0;
    free(in->new_paths);
    in->new_paths = NULL;
    for (size_t j = 0; j < n; j++) {
        in->target_covered = in->target_covered || ranks[j] == target_rank;
        if (seen[ranks[j]])
            continue;
        seen[ranks[j]] = 1;
        in->new_paths = xgrow(in->new_paths, &cap, ((size_t)in->nnew + 1) * k,
                              sizeof *in->new_paths);
        kpath_unrank(&gen->space, ranks[j], in->new_paths + (size_t)in->nnew * k);
        in->nnew++;
    }
}

void gen_input_free(struct gen_input *in)
{
    derivation_packed_free(&in->tree);
    free(in->text);
    free(in->new_paths);
    free(in->target);
    memset(in, 0, sizeof *in);
}
