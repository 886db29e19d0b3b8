/* size_table: W(n, d) worked out by hand, and its route weights. */
#include "../support/load.h"
#include "harness.h"
#include "gen/size_table.h"

#define WEIGHT(chars, nodes) (((uint64_t)(chars) << 32) + (nodes))

/* start := S; S := T U; T := "t"; U := V | "long"; V := W | "mmmmmm";
 * W := "v".  Nodes: 0 S, 1 cat, 2 T, 3 U, 4 "t", 5 alt (U), 6 V, 7 "long",
 * 8 alt (V), 9 W, 10 "mmmmmm", 11 "v".  U's smallest subtree is U alt V
 * alt W "v" (1 character, 6 nodes, depth 3); within depth 2 V gives only
 * "mmmmmm", so U's smallest is U alt "long" (4 characters, 3 nodes). */
TEST(size_table_weights_by_depth)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := T U;\nT := \"t\";\nU := V | \"long\";\n"
                                "V := W | \"mmmmmm\";\nW := \"v\";\n",
                                &l)))
        return;
    struct size_table *t = size_table_new(l.graph, 4);
    if (!CHECK(t != NULL))
        goto out;
    CHECK(size_table_weight(t, 3, 0) == METRIC_INFINITE); /* a reference needs depth 1 */
    CHECK(size_table_weight(t, 3, 1) == WEIGHT(4, 3));
    CHECK(size_table_weight(t, 3, 2) == WEIGHT(4, 3));
    CHECK(size_table_weight(t, 3, 3) == WEIGHT(1, 6));
    CHECK(size_table_weight(t, 3, 9) == WEIGHT(1, 6)); /* past the table: its depth */
    CHECK(size_table_weight(t, 6, 1) == WEIGHT(6, 3)); /* V alt "mmmmmm" */
    CHECK(size_table_weight(t, 4, 0) == WEIGHT(1, 1)); /* a leaf */
    /* The way S cat T "t" from the root (S at 1 reference): S, cat, T and
     * "t" with U closed within depth 4 - 1: "tv", 2 characters, 10 nodes;
     * within 3 - 1: "tlong", 5 characters, 7 nodes. */
    uint32_t route[] = {0, 1, 2, 4};
    CHECK(size_table_route_weight(t, route, 4, 1) == WEIGHT(2, 10));
    size_table_free(t);
    t = size_table_new(l.graph, 3);
    if (CHECK(t != NULL))
        CHECK(size_table_route_weight(t, route, 4, 1) == WEIGHT(5, 7));
    size_table_free(t);
    /* Too large to afford: refused. */
    CHECK(size_table_new(l.graph, UINT32_MAX - 1) == NULL);
out:
    test_unload(&l);
}
