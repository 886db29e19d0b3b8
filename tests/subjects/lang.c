/* lang: oracles whose languages are known exactly, for the tests of
 * kpath generalize.  `lang MODE` reads standard input (one trailing newline
 * is ignored) and exits 0 when it is in the language of MODE, else 1:
 *
 *   digits     "n=" [0-9]+
 *   optional   "a" "b"? "c"
 *   list       "x" ("," "x")*
 *   ident      [a-z_] [a-z0-9_]* "=" [0-9]+ ("," [0-9]+)* ";"?
 *   nested     L, where L = "[" (L ("," L)*)? "]" | [0-9]+
 *   dotted     [a-z]+ ("." [a-z]+)*
 *   arith      E, where E = T (("+" | "-") T)*, T = F ("*" F)*,
 *              F = [0-9]+ | "(" E ")"
 *   either     "a" ("b" | "c" | "bc"): "b" and "c" may each be left out,
 *              but not both
 *   jsonlite   V, where V = "{" (S ":" V ("," S ":" V)*)? "}"
 *              | "[" (V ("," V)*)? "]" | S | [0-9]+ | "true" | "null",
 *              S = "\"" [a-z]* "\""  (JSON without blanks, escapes,
 *              signs or fractions)
 *   signed     S (("+" | "*") S)*, where S = "+"* [0-9]+  (a "+" is also a
 *              sign, a "*" never)
 *   authority  "s://" ([a-z]+ "@")? H ("/" P)?, where H = [a-z]+ ("." [a-z]+)*
 *              and P = [a-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]* (a URL in small:
 *              the path holds what a host may not)
 *   jsonws     jsonlite with blanks (" ", "\t", "\n") between any two
 *              tokens and at both ends: a token is "{", "}", "[", "]", ",",
 *              ":", a string, a run of digits, "true" or "null"; no blank
 *              inside a token (so "1 2" and "tr ue" are no members)
 *   arithws    arith with blanks (" ", "\t") after any token, none before
 *              the first: a token is "(", ")", "+", "-", "*" or a run of
 *              digits
 *   arithsign  arith with unary signs: F = [0-9]+ | "(" E ")" | ("+" | "-") F
 *   jsonesc    jsonlite with JSON's strings in ASCII: S = "\"" (C | "\\" E |
 *              "\\u" [0-9A-Fa-f]{4})* "\"", C = [ !#-[\]-~] (printable ASCII
 *              but the quote and the backslash), E = ["\\/bfnrt]
 *
 * nested, arith and jsonlite recurse once per level of nesting, at most MAX_DEPTH
 * levels (deeper is rejected; the inputs are at most 64 KiB).
 * A subject, not part of kpath. */
#include <stdio.h>
#include <string.h>

static char buf[1 << 16];
static size_t len, pos;

static int eat(char c)
{
    if (pos < len && buf[pos] == c) {
        pos++;
        return 1;
    }
    return 0;
}

static int digits(void)
{
    size_t from = pos;
    while (pos < len && buf[pos] >= '0' && buf[pos] <= '9')
        pos++;
    return pos > from;
}

static int lower_or_underscore(char c)
{
    return (c >= 'a' && c <= 'z') || c == '_';
}

#define MAX_DEPTH 2000

static int nested(int depth)
{
    if (depth > MAX_DEPTH)
        return 0;
    if (!eat('['))
        return digits();
    if (eat(']'))
        return 1;
    do {
        if (!nested(depth + 1))
            return 0;
    } while (eat(','));
    return eat(']');
}

static int expr(int depth);
static int signs; /* factor() takes unary signs (mode arithsign) */

static int factor(int depth)
{
    if (depth > MAX_DEPTH)
        return 0;
    if (eat('('))
        return expr(depth + 1) && eat(')');
    if (signs && (eat('+') || eat('-')))
        return factor(depth + 1);
    return digits();
}

static int term(int depth)
{
    if (!factor(depth))
        return 0;
    while (eat('*'))
        if (!factor(depth))
            return 0;
    return 1;
}

static int expr(int depth)
{
    if (!term(depth))
        return 0;
    while (eat('+') || eat('-'))
        if (!term(depth))
            return 0;
    return 1;
}

static int lower_run(void)
{
    size_t from = pos;
    while (pos < len && buf[pos] >= 'a' && buf[pos] <= 'z')
        pos++;
    return pos > from;
}

static int word(const char *w)
{
    size_t n = strlen(w);
    if (len - pos < n || memcmp(buf + pos, w, n) != 0)
        return 0;
    pos += n;
    return 1;
}

static int escapes; /* jstring() takes JSON's strings in ASCII (mode jsonesc) */

static int hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int jstring(void)
{
    if (!eat('"'))
        return 0;
    while (pos < len && !escapes && buf[pos] >= 'a' && buf[pos] <= 'z')
        pos++;
    while (pos < len && escapes && buf[pos] != '"') {
        char c = buf[pos++];
        if (c < 0x20 || c > 0x7e)
            return 0;
        if (c != '\\')
            continue;
        if (pos < len && strchr("\"\\/bfnrt", buf[pos]) && buf[pos]) {
            pos++;
            continue;
        }
        if (!eat('u'))
            return 0;
        for (int k = 0; k < 4; k++)
            if (pos >= len || !hex(buf[pos++]))
                return 0;
    }
    return eat('"');
}

static int jvalue(int depth)
{
    if (depth > MAX_DEPTH)
        return 0;
    if (eat('{')) {
        if (eat('}'))
            return 1;
        do {
            if (!jstring() || !eat(':') || !jvalue(depth + 1))
                return 0;
        } while (eat(','));
        return eat('}');
    }
    if (eat('[')) {
        if (eat(']'))
            return 1;
        do {
            if (!jvalue(depth + 1))
                return 0;
        } while (eat(','));
        return eat(']');
    }
    if (pos < len && buf[pos] == '"')
        return jstring();
    return digits() || word("true") || word("null");
}

/* Remove the blanks (characters of `set`) between tokens from buf: 0
 * when a blank stands inside a string or between two word characters, or
 * (when !lead) before the first token. */
static int unblank(const char *set, int lead)
{
    size_t out = 0;
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        if (c && strchr(set, c) && !quoted) {
            size_t j = i;
            while (j < len && buf[j] && strchr(set, buf[j]))
                j++;
            int word_before = out > 0 && ((buf[out - 1] >= '0' && buf[out - 1] <= '9') ||
                                          (buf[out - 1] >= 'a' && buf[out - 1] <= 'z'));
            int word_after = j < len && ((buf[j] >= '0' && buf[j] <= '9') ||
                                         (buf[j] >= 'a' && buf[j] <= 'z'));
            if ((word_before && word_after) || (!lead && out == 0))
                return 0;
            i = j - 1;
            continue;
        }
        if (c == '"')
            quoted = !quoted;
        buf[out++] = c;
    }
    len = out;
    return 1;
}

static int path_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c && strchr("-._~:/?#[]@!$&'()*+,;=%", c));
}

/* authority: "s://" ([a-z]+ "@")? H ("/" P)? */
static int authority(void)
{
    if (!word("s://"))
        return 0;
    size_t at = pos;
    if (lower_run() && eat('@'))
        at = pos; /* the user; else what was read is the host */
    pos = at;
    if (!lower_run())
        return 0;
    while (eat('.'))
        if (!lower_run())
            return 0;
    if (eat('/'))
        while (pos < len && path_char(buf[pos]))
            pos++;
    return pos == len;
}

static int valid(const char *mode)
{
    if (strcmp(mode, "nested") == 0)
        return nested(0) && pos == len;
    if (strcmp(mode, "arith") == 0)
        return expr(0) && pos == len;
    if (strcmp(mode, "dotted") == 0) {
        if (!lower_run())
            return 0;
        while (eat('.'))
            if (!lower_run())
                return 0;
        return pos == len;
    }
    if (strcmp(mode, "digits") == 0)
        return eat('n') && eat('=') && digits() && pos == len;
    if (strcmp(mode, "optional") == 0) {
        if (!eat('a'))
            return 0;
        eat('b');
        return eat('c') && pos == len;
    }
    if (strcmp(mode, "list") == 0) {
        if (!eat('x'))
            return 0;
        while (eat(','))
            if (!eat('x'))
                return 0;
        return pos == len;
    }
    if (strcmp(mode, "ident") == 0) {
        if (pos >= len || !lower_or_underscore(buf[pos]))
            return 0;
        while (pos < len && (lower_or_underscore(buf[pos]) || (buf[pos] >= '0' && buf[pos] <= '9')))
            pos++;
        if (!eat('=') || !digits())
            return 0;
        while (eat(','))
            if (!digits())
                return 0;
        eat(';');
        return pos == len;
    }
    if (strcmp(mode, "either") == 0) {
        if (!eat('a'))
            return 0;
        int b = eat('b'), c = eat('c');
        return (b || c) && pos == len;
    }
    if (strcmp(mode, "jsonlite") == 0)
        return jvalue(0) && pos == len;
    if (strcmp(mode, "signed") == 0) {
        do {
            while (eat('+'))
                ;
            if (!digits())
                return 0;
        } while (eat('+') || eat('*'));
        return pos == len;
    }
    if (strcmp(mode, "jsonws") == 0)
        return unblank(" \t\n", 1) && jvalue(0) && pos == len;
    if (strcmp(mode, "arithws") == 0)
        return unblank(" \t", 0) && expr(0) && pos == len;
    if (strcmp(mode, "jsonesc") == 0) {
        escapes = 1;
        return jvalue(0) && pos == len;
    }
    if (strcmp(mode, "arithsign") == 0) {
        signs = 1;
        return expr(0) && pos == len;
    }
    if (strcmp(mode, "authority") == 0)
        return authority();
    fprintf(stderr, "lang: unknown mode %s\n", mode);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lang digits|optional|list|ident|nested|dotted|arith|either|jsonlite|signed|jsonws|arithws|arithsign|jsonesc|authority <input\n");
        return 2;
    }
    len = fread(buf, 1, sizeof buf, stdin);
    if (len && buf[len - 1] == '\n')
        len--;
    return valid(argv[1]) ? 0 : 1;
}
