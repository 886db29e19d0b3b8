/* leb128: the bytes of numbers worked out by hand from the definition (seven
 * bits per byte, low bits first, high bit on all but the last), round trips
 * at every byte-length boundary, and a number cut short. */
#include <string.h>

#include "harness.h"
#include "base/leb128.h"
#include "base/strbuf.h"

TEST(leb128_bytes_by_hand_and_round_trips)
{
    struct strbuf sb = STRBUF_INIT;
    leb128_put(&sb, 0);
    leb128_put(&sb, 127);
    leb128_put(&sb, 128);   /* 0x80 0x01 */
    leb128_put(&sb, 300);   /* 300 = 0b10_0101100: 0xac 0x02 */
    const unsigned char want[] = {0x00, 0x7f, 0x80, 0x01, 0xac, 0x02};
    CHECK_INT(sb.len, sizeof want);
    CHECK(memcmp(sb.data, want, sizeof want) == 0);
    strbuf_reset(&sb);
    const uint64_t values[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX,
                               (UINT64_C(1) << 63) - 1, UINT64_C(1) << 63, UINT64_MAX};
    size_t n = sizeof values / sizeof values[0];
    for (size_t i = 0; i < n; i++)
        leb128_put(&sb, values[i]);
    /* 1+1+1+2+2+3+5+9+10+10 bytes */
    CHECK_INT(sb.len, 44);
    size_t at = 0;
    for (size_t i = 0; i < n; i++)
        CHECK(leb128_get((const uint8_t *)sb.data, sb.len, &at) == values[i]);
    CHECK_INT(at, sb.len);
    /* Cut short: what it has, and never a read past the end. */
    at = 0;
    CHECK_INT(leb128_get((const uint8_t *)"\xac", 1, &at), 0x2c);
    CHECK_INT(at, 1);
    CHECK_INT(leb128_get((const uint8_t *)"\xac", 1, &at), 0);
    CHECK_INT(at, 1);
    strbuf_free(&sb);
}
