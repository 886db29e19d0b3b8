/* diag_list_cap: a flood of errors is cut after the max-th error, with one
 * note counting what was left out; warnings alone after it are kept. */
#include <string.h>

#include "base/diag.h"
#include "harness.h"

TEST(diag_cap_counts_what_it_leaves_out)
{
    struct diag_list l = DIAG_LIST_INIT;
    diag_add(&l, DIAG_WARNING, "g", 1, 1, "w1");
    for (uint32_t i = 2; i <= 5; i++)
        diag_add(&l, DIAG_ERROR, "g", i, 1, "e%u", i);
    diag_add(&l, DIAG_WARNING, "g", 6, 1, "w6");
    diag_add(&l, DIAG_ERROR, "g", 7, 1, "e7");
    diag_list_cap(&l, 2, "g"); /* keeps w1 e2 e3; leaves e4 e5 w6 e7 */
    CHECK_INT(l.len, 4);
    CHECK_INT(l.errors, 2);
    CHECK_STR(l.items[2].message, "e3");
    CHECK(l.items[3].severity == DIAG_NOTE && l.items[3].line == 0);
    CHECK_STR(l.items[3].message,
              "3 more errors and 1 more warning not shown ('kpath check g' lists every one)");
    diag_list_free(&l);
}

TEST(diag_cap_keeps_a_list_with_no_more_errors)
{
    struct diag_list l = DIAG_LIST_INIT;
    diag_add(&l, DIAG_ERROR, "g", 1, 1, "e1");
    diag_add(&l, DIAG_ERROR, "g", 2, 1, "e2");
    diag_add(&l, DIAG_WARNING, "g", 3, 1, "w3");
    diag_list_cap(&l, 2, "g"); /* only a warning after the 2nd error */
    CHECK_INT(l.len, 3);
    CHECK_INT(l.errors, 2);
    CHECK_STR(l.items[2].message, "w3");
    diag_list_cap(&l, 5, "g");
    CHECK_INT(l.len, 3);
    diag_list_free(&l);
}
