/* k-path space: counts checked against the literature for expr.ebnf and
 * against a brute-force enumeration (written independently of kpath.c: it
 * finds successors by walking graph children itself) on generated grammars. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "harness.h"
#include "graph/kpath.h"

/* ---- brute force --------------------------------------------------------- */

struct brute {
    const struct graph *g;
    uint32_t k;
    uint32_t *path;
    uint32_t **found; /* every k-path found, in discovery order */
    size_t n, cap;
};

static void brute_record(struct brute *b)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->found = realloc(b->found, b->cap * sizeof *b->found);
    }
    b->found[b->n] = malloc(b->k * sizeof(uint32_t));
    memcpy(b->found[b->n], b->path, b->k * sizeof(uint32_t));
    b->n++;
}

static void brute_extend(struct brute *b, uint32_t depth);

/* Visit the symbolic nodes reached from `n` through synthetic nodes only. */
static void brute_through(struct brute *b, uint32_t n, uint32_t depth)
{
    const struct graph *g = b->g;
    if (node_kind_is_symbolic(g->nodes[n].kind)) {
        b->path[depth] = n;
        brute_extend(b, depth + 1);
        return;
    }
    for (uint32_t c = 0; c < g->nodes[n].nchildren; c++)
        brute_through(b, graph_children(g, n)[c], depth);
}

static void brute_extend(struct brute *b, uint32_t depth)
{
    if (depth == b->k) {
        brute_record(b);
        return;
    }
    uint32_t last = b->path[depth - 1];
    const struct graph_node *n = &b->g->nodes[last];
    if (n->kind == NODE_REF)
        brute_through(b, graph_children(b->g, last)[0], depth);
}

static int compare_paths_k;
static int compare_paths(const void *x, const void *y)
{
    const uint32_t *a = *(uint32_t *const *)x, *c = *(uint32_t *const *)y;
    for (int i = 0; i < compare_paths_k; i++)
        if (a[i] != c[i])
            return a[i] < c[i] ? -1 : 1;
    return 0;
}

static void brute_force(struct brute *b, const struct graph *g, uint32_t k)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->k = k;
    b->path = malloc(k * sizeof *b->path);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (!node_kind_is_symbolic(g->nodes[i].kind))
            continue;
        b->path[0] = i;
        brute_extend(b, 1);
    }
    compare_paths_k = (int)k;
    if (b->n)
        qsort(b->found, b->n, sizeof *b->found, compare_paths);
}

static void brute_free(struct brute *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->found[i]);
    free(b->found);
    free(b->path);
}

/* ---- tests --------------------------------------------------------------- */

TEST(kpath_expr_counts_match_the_paper)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct kpath_space sp;
    CHECK(kpath_space_init(&sp, l.graph, 1));
    CHECK_INT(sp.total, 39);
    kpath_space_free(&sp);
    CHECK(kpath_space_init(&sp, l.graph, 2));
    CHECK_INT(sp.total, 125);
    CHECK(!sp.saturated);
    kpath_space_free(&sp);
    test_unload(&l);
}

TEST(kpath_rejects_k_out_of_range)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct kpath_space sp;
    CHECK(!kpath_space_init(&sp, l.graph, 0));
    CHECK(!kpath_space_init(&sp, l.graph, KPATH_MAX_K + 1));
    test_unload(&l);
}

/* Count, enumeration order, rank/unrank and sets, all against brute force. */
static void check_against_brute_force(const struct graph *g, uint32_t k)
{
    struct brute b;
    brute_force(&b, g, k);
    struct kpath_space sp;
    kpath_space_init(&sp, g, k);
    CHECK_INT(sp.total, b.n);

    struct kpath_iter it;
    kpath_iter_init(&it, &sp);
    size_t i = 0;
    bool same = true;
    while (kpath_iter_next(&it)) {
        if (i >= b.n || memcmp(it.path, b.found[i], k * sizeof(uint32_t)) != 0)
            same = false;
        i++;
    }
    kpath_iter_free(&it);
    CHECK(same);
    CHECK_INT(i, b.n);

    uint32_t *path = malloc(k * sizeof *path);
    bool ranks_ok = true;
    for (size_t r = 0; r < b.n; r++) {
        uint64_t rank;
        if (!kpath_rank(&sp, b.found[r], &rank) || rank != r)
            ranks_ok = false;
        kpath_unrank(&sp, r, path);
        if (memcmp(path, b.found[r], k * sizeof(uint32_t)) != 0)
            ranks_ok = false;
    }
    CHECK(ranks_ok);
    /* The shared-stem ranks: the first k - 1 nodes once, then the last by
     * its position among the successors, the brute force's rank each time. */
    uint64_t part;
    bool stems_ok = true;
    for (size_t r = 0; r < b.n; r++) {
        const uint32_t *p = b.found[r];
        if (k == 1) {
            stems_ok &= !kpath_rank_stem(&sp, p, &part);
            continue;
        }
        uint32_t last = p[k - 2], j = 0;
        while (j < g->nodes[last].nsucc && graph_successors(g, last)[j] != p[k - 1])
            j++;
        stems_ok &= j < g->nodes[last].nsucc && kpath_rank_stem(&sp, p, &part) &&
                    kpath_rank_extend(&sp, part, last, j) == r;
    }
    CHECK(stems_ok);
    /* A stem that is no path: its second node does not follow the first. */
    if (k >= 3 && b.n) {
        memcpy(path, b.found[0], k * sizeof *path);
        path[1] = path[0];
        bool follows = false;
        for (uint32_t j = 0; j < g->nodes[path[0]].nsucc; j++)
            follows |= graph_successors(g, path[0])[j] == path[0];
        if (!follows)
            CHECK(!kpath_rank_stem(&sp, path, &part));
    }
    free(path);

    /* Sets: even-ranked paths in one, every third in another, then union. */
    struct kpath_set even, third;
    kpath_set_init(&even, &sp);
    kpath_set_init(&third, &sp);
    size_t expected = 0;
    for (size_t r = 0; r < b.n; r++) {
        if (r % 2 == 0)
            CHECK(kpath_set_add(&even, b.found[r]));
        if (r % 3 == 0)
            kpath_set_add(&third, b.found[r]);
        if (r % 2 == 0 || r % 3 == 0)
            expected++;
    }
    if (b.n)
        CHECK(!kpath_set_add(&even, b.found[0]));
    kpath_set_union(&even, &third);
    CHECK_INT(even.size, expected);
    bool contains_ok = true;
    for (size_t r = 0; r < b.n; r++)
        if (kpath_set_contains(&even, b.found[r]) != (r % 2 == 0 || r % 3 == 0))
            contains_ok = false;
    CHECK(contains_ok);
    kpath_set_free(&even);
    kpath_set_free(&third);
    kpath_space_free(&sp);
    brute_free(&b);
}

TEST(kpath_expr_agrees_with_brute_force_for_k_up_to_5)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    for (uint32_t k = 1; k <= 5; k++)
        check_against_brute_force(l.graph, k);
    test_unload(&l);
}

TEST(kpath_generated_grammars_agree_with_brute_force)
{
    for (uint64_t seed = 1; seed <= 60; seed++) {
        char *text = random_grammar(seed, 2 + (uint32_t)(seed % 9));
        struct loaded l;
        if (CHECK(test_load_string(text, &l))) {
            for (uint32_t k = 1; k <= 4; k++)
                check_against_brute_force(l.graph, k);
            test_unload(&l);
        }
        free(text);
    }
}

static bool collect(const uint32_t *path, void *ctx)
{
    uint32_t *out = ctx;
    memcpy(out + out[0] * 2 + 1, path, 2 * sizeof *path);
    out[0]++;
    return true;
}

TEST(kpath_counts_saturate_and_sets_fall_back_to_hashing)
{
    /* S's successors are S, "a", S, "b": two of them references, so the
     * number of k-paths grows like 2^k and saturates long before k = 100. */
    struct loaded l;
    if (!CHECK(test_load_string("S := S \"a\" S | \"b\";", &l)))
        return;
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 100);
    CHECK(sp.saturated);
    CHECK_INT(sp.total, (long long)UINT64_MAX);
    kpath_space_free(&sp);

    /* k = 2 is small: check it by hand.  Nodes: 0 alt, 1 cat, 2 "b",
     * 3 S, 4 "a", 5 S.  2-paths: each S (3, 5) to 3, 4, 5, 2. */
    kpath_space_init(&sp, l.graph, 2);
    CHECK_INT(sp.total, 8);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    uint32_t p1[] = {5, 2}, p2[] = {3, 4};
    CHECK(kpath_set_add(&set, p1));
    CHECK(kpath_set_add(&set, p2));
    uint32_t seen[1 + 2 * 8] = {0};
    kpath_set_foreach(&set, collect, seen);
    CHECK_INT(seen[0], 2);
    CHECK_INT(seen[1], 3); /* lexicographic: 3 4 before 5 2 */
    CHECK_INT(seen[3], 5);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    test_unload(&l);
}

TEST(kpath_sparse_sets_work_on_saturated_spaces)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := S \"a\" S | \"b\";", &l)))
        return;
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 80);
    CHECK(sp.saturated);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    CHECK(set.bits == NULL);
    uint32_t path[80];
    for (int i = 0; i < 79; i++)
        path[i] = 3;
    path[79] = 2;
    CHECK(kpath_set_add(&set, path));
    CHECK(!kpath_set_add(&set, path));
    CHECK(kpath_set_contains(&set, path));
    path[78] = 5;
    CHECK(!kpath_set_contains(&set, path));
    CHECK_INT(set.size, 1);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    test_unload(&l);
}
