#include "base/number.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/strbuf.h"

bool number_parse_u64(const char *s, uint64_t *out)
{
    if (!*s)
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool number_parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (!number_parse_u64(s, &v) || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

void number_add_percent(struct strbuf *out, uint64_t covered, uint64_t total)
{
    if (total == 0 || covered >= total) {
        strbuf_addstr(out, "100.0");
        return;
    }
    long double tenths = floorl(1000.0L * (long double)covered / (long double)total);
    if (tenths > 999)
        tenths = 999;
    unsigned t = (unsigned)tenths;
    strbuf_addf(out, "%u.%u", t / 10, t % 10);
}

static void add_count(struct strbuf *out, uint64_t count, const char *saturated)
{
    if (count == UINT64_MAX)
        strbuf_addstr(out, saturated);
    else
        strbuf_addf(out, "%" PRIu64, count);
}

void number_add_count(struct strbuf *out, uint64_t count)
{
    add_count(out, count, "more than 2^64");
}

void number_add_count_compact(struct strbuf *out, uint64_t count)
{
    add_count(out, count, ">2^64");
}

int number_hex_digit(uint32_t c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

bool number_parse_duration_ms(const char *s, uint64_t *ms)
{
    size_t len = strlen(s), n = len;
    uint64_t unit = 1000;
    if (len > 2 && strcmp(s + len - 2, "ms") == 0)
        n = len - 2, unit = 1;
    else if (len > 1 && s[len - 1] == 's')
        n = len - 1;
    else if (len > 1 && s[len - 1] == 'm')
        n = len - 1, unit = 60000;
    char digits[32];
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, s, n);
    digits[n] = '\0';
    uint64_t v;
    if (!number_parse_u64(digits, &v) || v == 0 || v > ((uint64_t)1 << 40) / unit)
        return false;
    *ms = v * unit;
    return true;
}
