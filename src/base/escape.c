#include "base/escape.h"

#include "base/utf8.h"

bool escape_is_safe(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
        return false; /* C0, DEL, C1 */
    if (cp == 0xAD || cp == 0xFEFF || cp == 0x061C || cp == 0x180E)
        return false; /* soft hyphen, BOM, Arabic letter mark, Mongolian vowel separator */
    if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
        (cp >= 0x2060 && cp <= 0x206F))
        return false; /* zero widths, direction marks, separators, overrides, isolates */
    if ((cp >= UTF8_SURROGATE_LO && cp <= UTF8_SURROGATE_HI) || cp > UTF8_MAX_CODEPOINT)
        return false;
    if (cp >= 0xFFF9 && cp <= 0xFFFB)
        return false; /* interlinear annotation controls */
    return true;
}

void escape_add_code_point(struct strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    default: break;
    }
    if (escape_is_safe(cp))
        strbuf_add_utf8(out, cp);
    else if (cp < 0x80)
        strbuf_addf(out, "\\x%02X", (unsigned)cp);
    else
        strbuf_addf(out, "\\u{%04X}", (unsigned)cp);
}

void escape_add(struct strbuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) { /* not UTF-8: the byte */
            strbuf_addf(out, "\\x%02X", (unsigned)(unsigned char)s[i]);
            i++;
            continue;
        }
        if (cp == '\\')
            strbuf_addstr(out, "\\\\");
        else
            escape_add_code_point(out, cp);
        i += n;
    }
}
