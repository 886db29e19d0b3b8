/* line_end: where a grammar file's lines end, for every reader (issue 38
 * item 9).  Golden values written by hand. */
#include <stdlib.h>
#include <string.h>

#include "base/line_end.h"
#include "harness.h"

TEST(line_end_lone_cr_only)
{
    const char *s = "a\rb\r\nc\n\rd\r";
    size_t n = strlen(s); /* a CR b CR LF c LF CR d CR */
    CHECK(line_end_lone_cr(s, n, 1));  /* a|b */
    CHECK(!line_end_lone_cr(s, n, 3)); /* the CR of CR LF */
    CHECK(line_end_lone_cr(s, n, 7));  /* LF CR: the CR alone is a second line end */
    CHECK(line_end_lone_cr(s, n, 9));  /* the last byte */
    CHECK(!line_end_lone_cr(s, n, 0) && !line_end_lone_cr(s, n, 4) && !line_end_lone_cr(s, n, 10));
    char *u = line_end_unify(s, n);
    CHECK(u != NULL);
    if (u) {
        CHECK(memcmp(u, "a\nb\r\nc\n\nd\n", n) == 0 && u[n] == '\0'); /* same length */
        free(u);
    }
    char in_place[] = "a\rb\r\nc\n\rd\r";
    line_end_unify_in_place(in_place, n);
    CHECK_STR(in_place, "a\nb\r\nc\n\nd\n");
}

TEST(line_end_nothing_to_unify)
{
    CHECK(line_end_unify("a\r\nb\n", 5) == NULL);
    CHECK(line_end_unify("", 0) == NULL);
    /* a CR whose LF lies past len is alone within the text */
    char *u = line_end_unify("x\r\n", 2);
    CHECK(u != NULL && strcmp(u, "x\n") == 0);
    free(u);
}
