#include "base/json.h"

#include <string.h>

#include "base/utf8.h"

void json_add_string(struct strbuf *out, const char *s, size_t len)
{
    strbuf_addch(out, '"');
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            strbuf_addch(out, '\\');
            strbuf_addch(out, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            switch (c) {
            case '\n': strbuf_addstr(out, "\\n"); break;
            case '\r': strbuf_addstr(out, "\\r"); break;
            case '\t': strbuf_addstr(out, "\\t"); break;
            default: strbuf_addf(out, "\\u%04x", c); break;
            }
            i++;
        } else if (c < 0x80) {
            strbuf_addch(out, (char)c);
            i++;
        } else {
            uint32_t cp;
            size_t n = utf8_decode(s + i, len - i, &cp);
            if (n) {
                strbuf_add(out, s + i, n);
                i += n;
            } else {
                strbuf_add_utf8(out, 0xFFFD);
                i++;
            }
        }
    }
    strbuf_addch(out, '"');
}

void json_add_cstring(struct strbuf *out, const char *s)
{
    json_add_string(out, s, strlen(s));
}
