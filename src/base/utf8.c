#include "base/utf8.h"

size_t utf8_encode(uint32_t cp, char out[4])
{
    if (cp > UTF8_MAX_CODEPOINT || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t utf8_decode(const char *str, size_t len, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (len == 0)
        return 0;
    unsigned char c = s[0];
    *cp = c;
    if (c < 0x80)
        return 1;
    size_t n;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) {
        n = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > UTF8_MAX_CODEPOINT || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

size_t utf8_length(const char *s, size_t len)
{
    size_t count = 0;
    for (size_t i = 0; i < len; count++) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        i += n ? n : 1;
    }
    return count;
}
