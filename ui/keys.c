/* keys: see keys.h. */
#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "base/utf8.h"

#define BINDING_ENTRY(id, ctx, keys, footer, help) {id, ctx, keys, footer, help},
const struct key_binding key_table[] = {KEY_TABLE(BINDING_ENTRY)};
#undef BINDING_ENTRY
const size_t key_table_len = sizeof key_table / sizeof key_table[0];

#define CONTEXT_TITLE(id, title) title,
const char *const key_context_titles[] = {KEY_CONTEXTS(CONTEXT_TITLE)};
#undef CONTEXT_TITLE

static const struct {
    const char *name;
    int key;
} named_keys[] = {
    {"Tab", K_TAB},       {"Enter", K_ENTER},     {"Esc", K_ESC},       {"Space", ' '},
    {"BS", K_BACKSPACE},  {"Up", K_UP},           {"Down", K_DOWN},     {"Left", K_LEFT},
    {"Right", K_RIGHT},   {"Home", K_HOME},       {"End", K_END},       {"PgUp", K_PGUP},
    {"PgDn", K_PGDN},     {"S-Tab", K_BTAB},      {"Delete", K_DELETE}, {"Insert", K_INSERT},
    {"F1", K_F1},         {"Resize", K_RESIZE},   {"lt", '<'},
};

bool keys_parse(const char *name, size_t len, int *key)
{
    if (len == 0)
        return false;
    if (name[0] != '<' || len == 1) {
        uint32_t cp;
        size_t n = utf8_decode(name, len, &cp);
        if (n == 0 || n != len)
            return false;
        *key = (int)cp;
        return true;
    }
    if (name[len - 1] != '>')
        return false;
    const char *inner = name + 1;
    size_t ilen = len - 2;
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (strlen(named_keys[i].name) == ilen && memcmp(named_keys[i].name, inner, ilen) == 0) {
            *key = named_keys[i].key;
            return true;
        }
    if (ilen == 3 && inner[0] == 'C' && inner[1] == '-') {
        char c = inner[2];
        if (c >= 'a' && c <= 'z') {
            *key = c - 'a' + 1;
            return true;
        }
    }
    return false;
}

void keys_name(int key, struct strbuf *out)
{
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (named_keys[i].key == key && key != '<') {
            strbuf_addf(out, "<%s>", named_keys[i].name);
            return;
        }
    if (key >= 1 && key <= 26) {
        strbuf_addf(out, "<C-%c>", 'a' + key - 1);
        return;
    }
    if (key > 0 && key < K_SPECIAL)
        strbuf_add_utf8(out, (uint32_t)key);
    else
        strbuf_addf(out, "<key %d>", key);
}

/* Does the space-separated key list `keys` contain `key`? */
static bool list_has(const char *keys, int key)
{
    const char *p = keys;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        int k;
        if (end > p && keys_parse(p, (size_t)(end - p), &k) && k == key)
            return true;
        p = end;
    }
    return false;
}

const struct key_binding *keys_binding(enum action a)
{
    for (size_t i = 0; i < key_table_len; i++)
        if (key_table[i].action == a)
            return &key_table[i];
    return NULL;
}

enum action keys_lookup(int key, enum key_context context, bool list)
{
    enum key_context order[3] = {context, CTX_LIST, CTX_GLOBAL};
    for (int o = 0; o < 3; o++) {
        if (o == 1 && !list)
            continue;
        for (size_t i = 0; i < key_table_len; i++)
            if (key_table[i].context == order[o] && list_has(key_table[i].keys, key))
                return key_table[i].action;
    }
    return ACT_NONE;
}

/* Call fn for every key of a binding's key list; false when a name does
 * not parse. */
static bool each_key(const char *keys, void (*fn)(int key, void *arg), void *arg)
{
    const char *p = keys;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        int k;
        if (end > p) {
            if (!keys_parse(p, (size_t)(end - p), &k))
                return false;
            fn(k, arg);
        }
        p = end;
    }
    return true;
}

struct clash_search {
    size_t self;
    const char *clash;
};

static bool is_pane_context(enum key_context c)
{
    return c != CTX_GLOBAL && c != CTX_LIST && c != CTX_COMPARE;
}

/* Does `key` of binding `self` clash with another binding?  Two panes may
 * share a key only when it is Enter (open what is selected); a pane never
 * rebinds a key that is global or for every list. */
static void find_clash(int key, void *arg)
{
    struct clash_search *cs = arg;
    const struct key_binding *b = &key_table[cs->self];
    for (size_t i = 0; i < key_table_len && !cs->clash; i++) {
        const struct key_binding *o = &key_table[i];
        if (i == cs->self || !list_has(o->keys, key))
            continue;
        bool both_panes = is_pane_context(b->context) && is_pane_context(o->context);
        if (o->context == b->context || !both_panes || key != K_ENTER)
            cs->clash = o->keys;
    }
}

static void ignore_key(int key, void *arg)
{
    (void)key;
    (void)arg;
}

const char *keys_check_table(void)
{
    static char bad[160];
    for (size_t i = 0; i < key_table_len; i++) {
        if (!each_key(key_table[i].keys, ignore_key, NULL))
            return key_table[i].keys;
        struct clash_search cs = {i, NULL};
        each_key(key_table[i].keys, find_clash, &cs);
        if (cs.clash) {
            snprintf(bad, sizeof bad, "%s' and '%s", key_table[i].keys, cs.clash);
            return bad;
        }
    }
    return NULL;
}

void keys_list(struct strbuf *out)
{
    for (size_t i = 0; i < key_table_len; i++)
        strbuf_addf(out, "%s\t%s\t%s\n", key_context_titles[key_table[i].context],
                    key_table[i].keys, key_table[i].help);
}
