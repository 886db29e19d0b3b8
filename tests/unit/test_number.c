/* number: digits only, overflow refused; percentages rounded down; hex digits. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "base/number.h"
#include "base/strbuf.h"

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

static bool percent_is(uint64_t covered, uint64_t total, const char *want)
{
    struct strbuf sb = STRBUF_INIT;
    number_add_percent(&sb, covered, total);
    bool same = strcmp(strbuf_str(&sb), want) == 0;
    if (!same)
        fprintf(stderr, "  %llu of %llu: %s, not %s\n", (unsigned long long)covered,
                (unsigned long long)total, strbuf_str(&sb), want);
    strbuf_free(&sb);
    return same;
}

/* By hand: 2/3 = 66.66..% reads 66.6 (down, not 66.7); 12/125 = 9.6% (the
 * k-path paper's x+42); 9999/10000 = 99.99% reads 99.9, never 100.0. */
TEST(number_percent_rounds_down_and_only_full_reads_100)
{
    CHECK(percent_is(0, 0, "100.0"));
    CHECK(percent_is(5, 5, "100.0"));
    CHECK(percent_is(0, 7, "0.0"));
    CHECK(percent_is(1, 1001, "0.0"));
    CHECK(percent_is(1, 1000, "0.1"));
    CHECK(percent_is(2, 3, "66.6"));
    CHECK(percent_is(12, 125, "9.6"));
    CHECK(percent_is(9999, 10000, "99.9"));
    CHECK(percent_is(UINT64_MAX - 1, UINT64_MAX, "99.9"));
}

static bool count_printed_is(void (*add)(struct strbuf *, uint64_t), uint64_t count,
                             const char *want)
{
    struct strbuf sb = STRBUF_INIT;
    add(&sb, count);
    bool same = strcmp(strbuf_str(&sb), want) == 0;
    if (!same)
        fprintf(stderr, "  %llu: %s, not %s\n", (unsigned long long)count, strbuf_str(&sb), want);
    strbuf_free(&sb);
    return same;
}

static bool count_is(uint64_t count, const char *want)
{
    return count_printed_is(number_add_count, count, want);
}

/* A saturated count (UINT64_MAX) never prints as its digits (issue 17.7);
 * one below is exact and prints as digits. */
TEST(number_count_says_more_than_2_64_when_saturated)
{
    CHECK(count_is(0, "0"));
    CHECK(count_is(125, "125"));
    CHECK(count_is(UINT64_MAX - 1, "18446744073709551614"));
    CHECK(count_is(UINT64_MAX, "more than 2^64"));
}

/* Tables (check-oracle's, run --report's) say the same in a narrow column. */
TEST(number_count_compact_says_gt_2_64_when_saturated)
{
    CHECK(count_printed_is(number_add_count_compact, 125, "125"));
    CHECK(count_printed_is(number_add_count_compact, UINT64_MAX - 1, "18446744073709551614"));
    CHECK(count_printed_is(number_add_count_compact, UINT64_MAX, ">2^64"));
}

/* Against the digits' positions in the two spellings of the 16 digits, for
 * every byte and for code points beyond a byte (an importer passes those). */
TEST(number_hex_digit_is_the_digit_value_or_minus_one)
{
    const char *lower = "0123456789abcdef", *upper = "0123456789ABCDEF";
    for (uint32_t c = 0; c < 256; c++) {
        int want = -1;
        for (int i = 0; i < 16; i++)
            if (c == (unsigned char)lower[i] || c == (unsigned char)upper[i])
                want = i;
        CHECK(number_hex_digit(c) == want);
    }
    CHECK(number_hex_digit(0x660) == -1);      /* ARABIC-INDIC DIGIT ZERO */
    CHECK(number_hex_digit(0xFF10) == -1);     /* FULLWIDTH DIGIT ZERO */
    CHECK(number_hex_digit(UINT32_MAX) == -1); /* end of input, for some readers */
    CHECK(number_hex_digit((uint32_t)(char)'7') == 7);
}

/* Issue 38: --timeout 3s was refused; durations take s, ms and m. */
TEST(number_parse_duration_units)
{
    uint64_t ms = 0;
    CHECK(number_parse_duration_ms("3", &ms) && ms == 3000);
    CHECK(number_parse_duration_ms("3s", &ms) && ms == 3000);
    CHECK(number_parse_duration_ms("250ms", &ms) && ms == 250);
    CHECK(number_parse_duration_ms("2m", &ms) && ms == 120000);
    CHECK(!number_parse_duration_ms("0", &ms));
    CHECK(!number_parse_duration_ms("0s", &ms));
    CHECK(!number_parse_duration_ms("s", &ms));
    CHECK(!number_parse_duration_ms("ms", &ms));
    CHECK(!number_parse_duration_ms("3h", &ms));
    CHECK(!number_parse_duration_ms("-3s", &ms));
    CHECK(!number_parse_duration_ms("3 s", &ms));
    CHECK(!number_parse_duration_ms("", &ms));
    CHECK(number_parse_duration_ms("1099511627776ms", &ms) && ms == (uint64_t)1 << 40);
    CHECK(!number_parse_duration_ms("1099511627777ms", &ms));
    CHECK(!number_parse_duration_ms("18325193797m", &ms)); /* over 2^40 ms */
}
