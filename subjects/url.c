/* url: a URL validator written for kpath as a program under test (see
 * README, "Learning a grammar").  It reads one URL on standard input (a
 * trailing newline is ignored) and exits 0 when it is valid, 1 when not.
 *
 * Valid is the subset of RFC 3986 that grammars/url.ebnf describes, checked
 * by hand-written code rather than by a grammar:
 *
 *   url       scheme "://" (userinfo "@")? host (":" port)? path
 *             ("?" query)? ("#" fragment)?
 *   scheme    a letter, then letters, digits, "+", "-", "."
 *   userinfo  unreserved, %XX, sub-delims and ":"
 *   host      "[" hex digits and ":" (at least one ":") "]", or reg-name:
 *             unreserved, %XX and sub-delims (IPv4 addresses are reg-names)
 *   port      digits (none is allowed, as RFC 3986 allows)
 *   path      ("/" pchar*)*  where pchar is unreserved, %XX, sub-delims,
 *             ":" and "@"
 *   query, fragment  pchar, "/" and "?"
 *
 * A subject, not part of kpath. */
#include <stdio.h>
#include <string.h>

static char buf[1 << 16];
static size_t len, pos;

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_unreserved(char c) { return is_alpha(c) || is_digit(c) || strchr("-._~", c); }
static int is_sub_delim(char c) { return c && strchr("!$&'()*+,;=", c); }

/* One character of the set `extra` adds to unreserved, %XX and sub-delims;
 * 0 when there is none at pos. */
static int eat_char(const char *extra)
{
    if (pos >= len)
        return 0;
    char c = buf[pos];
    if (c == '%') {
        if (pos + 2 < len && is_hex(buf[pos + 1]) && is_hex(buf[pos + 2])) {
            pos += 3;
            return 1;
        }
        return 0;
    }
    if (is_unreserved(c) || is_sub_delim(c) || (c && strchr(extra, c))) {
        pos++;
        return 1;
    }
    return 0;
}

static int has_at_before_host_end(void)
{
    for (size_t i = pos; i < len && !strchr("/?#", buf[i]); i++)
        if (buf[i] == '@')
            return 1;
    return 0;
}

static int valid(void)
{
    if (pos >= len || !is_alpha(buf[pos]))
        return 0;
    while (pos < len && (is_alpha(buf[pos]) || is_digit(buf[pos]) || strchr("+-.", buf[pos])))
        pos++;
    if (len - pos < 3 || strncmp(buf + pos, "://", 3) != 0)
        return 0;
    pos += 3;
    if (has_at_before_host_end()) {
        while (eat_char(":"))
            ;
        if (pos >= len || buf[pos] != '@')
            return 0;
        pos++;
    }
    if (pos < len && buf[pos] == '[') {
        pos++;
        int colons = 0;
        while (pos < len && (is_hex(buf[pos]) || buf[pos] == ':'))
            colons += buf[pos++] == ':';
        if (!colons || pos >= len || buf[pos] != ']')
            return 0;
        pos++;
    } else {
        while (eat_char(""))
            ;
    }
    if (pos < len && buf[pos] == ':') {
        pos++;
        while (pos < len && is_digit(buf[pos]))
            pos++;
    }
    while (pos < len && buf[pos] == '/') {
        pos++;
        while (eat_char(":@"))
            ;
    }
    if (pos < len && buf[pos] == '?') {
        pos++;
        while (eat_char(":@/?"))
            ;
    }
    if (pos < len && buf[pos] == '#') {
        pos++;
        while (eat_char(":@/?"))
            ;
    }
    return pos == len;
}

int main(void)
{
    len = fread(buf, 1, sizeof buf, stdin);
    if (len && buf[len - 1] == '\n')
        len--;
    if (memchr(buf, '\0', len))
        return 1;
    return valid() ? 0 : 1;
}
