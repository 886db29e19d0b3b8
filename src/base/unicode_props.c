/* unicode_props: property names looked up in the generated tables. */
#include "base/unicode_props.h"

#include <string.h>

struct unicode_property {
    const char *key;     /* kind:name, name loosely normalized */
    uint32_t first;      /* index of its first pair in unicode_ranges */
    uint32_t count;      /* pairs */
};

#include "base/unicode_tables.inc"

#define MAX_NAME 80

/* Lower case without spaces, '_' and '-' (Unicode's loose matching). */
static size_t normalize(const char *s, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == ' ' || c == '_' || c == '-' || c == '\t')
            continue;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (n + 1 >= cap)
            return 0;
        out[n++] = c;
    }
    out[n] = '\0';
    return n;
}

static bool find(const char *kind, const char *name, const uint32_t **pairs, size_t *count)
{
    size_t kl = strlen(kind);
    for (size_t i = 0; i < sizeof unicode_properties / sizeof unicode_properties[0]; i++) {
        const char *k = unicode_properties[i].key;
        if (strncmp(k, kind, kl) == 0 && k[kl] == ':' && strcmp(k + kl + 1, name) == 0) {
            *pairs = unicode_ranges + 2 * (size_t)unicode_properties[i].first;
            *count = unicode_properties[i].count;
            return true;
        }
    }
    return false;
}

bool unicode_property(const char *name, size_t len, const uint32_t **pairs, size_t *count)
{
    char prop[MAX_NAME], value[MAX_NAME];
    const char *eq = memchr(name, '=', len);
    if (eq) {
        if (!normalize(name, (size_t)(eq - name), prop, sizeof prop) ||
            !normalize(eq + 1, len - (size_t)(eq + 1 - name), value, sizeof value))
            return false;
        static const char *const kinds[][3] = {
            {"gc", "generalcategory", "gc"}, {"sc", "script", "sc"},
            {"blk", "block", "blk"},         {"gcb", "graphemeclusterbreak", "gcb"},
            {"ep", "emojipresentation", "ep"},
        };
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if (strcmp(prop, kinds[i][0]) == 0 || strcmp(prop, kinds[i][1]) == 0)
                return find(kinds[i][2], value, pairs, count);
        return false;
    }
    if (!normalize(name, len, value, sizeof value))
        return false;
    if (find("gc", value, pairs, count) || find("bin", value, pairs, count) ||
        find("sc", value, pairs, count))
        return true;
    return strncmp(value, "in", 2) == 0 && find("blk", value + 2, pairs, count);
}

const char *unicode_tables_version(void)
{
    return UNICODE_TABLES_VERSION;
}
