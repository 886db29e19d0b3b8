/* line_end: see line_end.h. */
#include "base/line_end.h"

#include <string.h>

#include "base/xalloc.h"

bool line_end_lone_cr(const char *s, size_t len, size_t i)
{
    return i < len && s[i] == '\r' && (i + 1 == len || s[i + 1] != '\n');
}

char *line_end_unify(const char *s, size_t len)
{
    const char *cr = len ? memchr(s, '\r', len) : NULL;
    char *out = NULL;
    for (size_t i = cr ? (size_t)(cr - s) : len; i < len; i++) {
        if (!line_end_lone_cr(s, len, i))
            continue;
        if (!out) {
            out = xmalloc(len + 1);
            memcpy(out, s, len);
            out[len] = '\0';
        }
        out[i] = '\n';
    }
    return out;
}

void line_end_unify_in_place(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line_end_lone_cr(s, len, i))
            s[i] = '\n';
}
