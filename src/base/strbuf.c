#include "base/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

static void reserve(struct strbuf *sb, size_t extra)
{
    sb->data = xgrow(sb->data, &sb->cap, sb->len + extra + 1, 1);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
    reserve(sb, len);
    if (len)
        memcpy(sb->data + sb->len, data, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
    strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
    strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_add_tail(struct strbuf *sb, const char *s, size_t room)
{
    size_t len = strlen(s);
    if (len <= room) {
        strbuf_add(sb, s, len);
        return;
    }
    if (room < 4)
        return;
    const char *end = s + len - (room - 3);
    while (*end && ((unsigned char)*end & 0xC0) == 0x80)
        end++;
    strbuf_addstr(sb, "...");
    strbuf_addstr(sb, end);
}

void strbuf_add_utf8(struct strbuf *sb, uint32_t cp)
{
    char tmp[4];
    size_t n = utf8_encode(cp, tmp);
    strbuf_add(sb, tmp, n);
}

void strbuf_reset(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

void strbuf_free(struct strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
    if (!sb->data)
        strbuf_add(sb, "", 0);
    char *p = sb->data;
    if (len)
        *len = sb->len;
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return p;
}
