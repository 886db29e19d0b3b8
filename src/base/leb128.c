#include "base/leb128.h"

void leb128_put(struct strbuf *out, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        strbuf_addch(out, (char)(byte | (v ? 0x80 : 0)));
    } while (v);
}

uint64_t leb128_get(const uint8_t *bytes, size_t len, size_t *at)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *at < len && shift < 64; shift += 7) {
        uint8_t byte = bytes[(*at)++];
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            break;
    }
    return v;
}
