/* number: digits only, overflow refused. */
#include "harness.h"
#include "number.h"

TEST(number_parses_digits_and_refuses_the_rest)
{
    uint64_t v;
    uint32_t w;
    CHECK(number_parse_u64("0", &v) && v == 0);
    CHECK(number_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
    CHECK(!number_parse_u64("18446744073709551616", &v));
    CHECK(!number_parse_u64("", &v));
    CHECK(!number_parse_u64("-1", &v));
    CHECK(!number_parse_u64("+1", &v));
    CHECK(!number_parse_u64(" 1", &v));
    CHECK(!number_parse_u64("1e3", &v));
    CHECK(number_parse_u32("4294967295", &w) && w == UINT32_MAX);
    CHECK(!number_parse_u32("4294967296", &w));
    CHECK(number_parse_u32("007", &w) && w == 7);
}
