#include "base/json_read.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "base/number.h"

/* An array or object being read: its value and the items so far, kept in a
 * heap vector until the closing bracket, then copied into the arena. */
struct frame {
    struct json_value *value;
    void *items; /* struct json_value * or struct json_member */
    size_t len, cap;
};

struct reader {
    const char *name;
    const char *text;
    size_t len, pos;
    uint32_t line;       /* of pos, once skip_space has passed the newlines */
    size_t line_start;   /* byte offset where that line starts */
    size_t col_line;     /* the line_start that col_pos and col belong to */
    size_t col_pos;      /* a byte offset on that line ... */
    uint32_t col;        /* ... and its column, so columns cost O(1) amortized */
    struct diag_list *diags;
    struct arena *arena;
    struct strbuf scratch;
};

static uint32_t column_at(struct reader *r, size_t pos)
{
    if (r->col_line != r->line_start || r->col_pos > pos) {
        r->col_line = r->line_start;
        r->col_pos = r->line_start;
        r->col = 1;
    }
    r->col += (uint32_t)utf8_length(r->text + r->col_pos, pos - r->col_pos);
    r->col_pos = pos;
    return r->col;
}

static bool fail_at(struct reader *r, size_t pos, const char *message)
{
    diag_add(r->diags, DIAG_ERROR, r->name, r->line, column_at(r, pos), "%s", message);
    return false;
}

static void skip_space(struct reader *r)
{
    while (r->pos < r->len) {
        char c = r->text[r->pos];
        if (c == '\n') {
            r->line++;
            r->line_start = r->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        r->pos++;
    }
}

static struct json_value *new_value(struct reader *r, enum json_type type)
{
    struct json_value *v = arena_alloc(r->arena, sizeof *v);
    v->type = type;
    v->line = r->line;
    v->col = column_at(r, r->pos);
    return v;
}

static bool read_hex4(struct reader *r, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int d = r->pos < r->len ? number_hex_digit(r->text[r->pos]) : -1;
        if (d < 0)
            return fail_at(r, r->pos, "\\u needs four hexadecimal digits");
        v = v * 16 + (uint32_t)d;
        r->pos++;
    }
    *out = v;
    return true;
}

/* A string starting at the opening quote; its unescaped bytes go to
 * r->scratch. */
static bool read_string(struct reader *r)
{
    size_t open = r->pos++;
    strbuf_reset(&r->scratch);
    for (;;) {
        if (r->pos >= r->len)
            return fail_at(r, open, "unterminated string");
        unsigned char c = (unsigned char)r->text[r->pos];
        if (c == '"') {
            r->pos++;
            return true;
        }
        if (c < 0x20)
            return fail_at(r, r->pos, "control character in a string (escape it)");
        if (c != '\\') {
            size_t start = r->pos;
            while (r->pos < r->len && r->text[r->pos] != '"' && r->text[r->pos] != '\\' &&
                   (unsigned char)r->text[r->pos] >= 0x20)
                r->pos++;
            strbuf_add(&r->scratch, r->text + start, r->pos - start);
            continue;
        }
        size_t escape = r->pos++;
        if (r->pos >= r->len)
            return fail_at(r, open, "unterminated string");
        char e = r->text[r->pos++];
        switch (e) {
        case '"': strbuf_addch(&r->scratch, '"'); break;
        case '\\': strbuf_addch(&r->scratch, '\\'); break;
        case '/': strbuf_addch(&r->scratch, '/'); break;
        case 'b': strbuf_addch(&r->scratch, '\b'); break;
        case 'f': strbuf_addch(&r->scratch, '\f'); break;
        case 'n': strbuf_addch(&r->scratch, '\n'); break;
        case 'r': strbuf_addch(&r->scratch, '\r'); break;
        case 't': strbuf_addch(&r->scratch, '\t'); break;
        case 'u': {
            uint32_t cp;
            if (!read_hex4(r, &cp))
                return false;
            if (cp >= 0xD800 && cp <= 0xDBFF && r->pos + 1 < r->len &&
                r->text[r->pos] == '\\' && r->text[r->pos + 1] == 'u') {
                size_t save = r->pos;
                uint32_t low;
                r->pos += 2;
                if (!read_hex4(r, &low))
                    return false;
                if (low >= 0xDC00 && low <= 0xDFFF)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                else
                    r->pos = save; /* not a pair: the high half stands alone */
            }
            strbuf_add_utf8(&r->scratch, cp); /* lone surrogates become U+FFFD */
            break;
        }
        default:
            return fail_at(r, escape, "unknown escape in a string");
        }
    }
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool read_number(struct reader *r, struct json_value *v)
{
    size_t start = r->pos;
    const char *t = r->text;
    size_t p = r->pos;
    if (p < r->len && t[p] == '-')
        p++;
    if (p >= r->len || !is_digit(t[p]))
        return fail_at(r, start, "expected a value");
    if (t[p] == '0')
        p++;
    else
        while (p < r->len && is_digit(t[p]))
            p++;
    bool integer = true;
    if (p < r->len && t[p] == '.') {
        integer = false;
        p++;
        if (p >= r->len || !is_digit(t[p]))
            return fail_at(r, p, "expected a digit after '.'");
        while (p < r->len && is_digit(t[p]))
            p++;
    }
    if (p < r->len && (t[p] == 'e' || t[p] == 'E')) {
        integer = false;
        p++;
        if (p < r->len && (t[p] == '+' || t[p] == '-'))
            p++;
        if (p >= r->len || !is_digit(t[p]))
            return fail_at(r, p, "expected a digit in the exponent");
        while (p < r->len && is_digit(t[p]))
            p++;
    }
    char *copy = xstrndup(t + start, p - start);
    v->u.number.value = strtod(copy, NULL);
    free(copy);
    if (integer && t[start] != '-') {
        uint64_t u = 0;
        bool fits = true;
        for (size_t i = start; i < p && fits; i++) {
            uint64_t d = (uint64_t)(t[i] - '0');
            if (u > (UINT64_MAX - d) / 10)
                fits = false;
            else
                u = u * 10 + d;
        }
        v->u.number.is_uint = fits;
        v->u.number.uint = fits ? u : 0;
    }
    r->pos = p;
    return true;
}

static bool read_word(struct reader *r, const char *word)
{
    size_t n = strlen(word);
    if (r->len - r->pos < n || memcmp(r->text + r->pos, word, n) != 0)
        return fail_at(r, r->pos, "expected a value");
    r->pos += n;
    return true;
}

/* Read `"key" :` into a new member of the object frame. */
static bool read_key(struct reader *r, struct frame *f)
{
    skip_space(r);
    if (r->pos >= r->len || r->text[r->pos] != '"')
        return fail_at(r, r->pos, "expected a string key");
    if (!read_string(r))
        return false;
    f->items = xgrow(f->items, &f->cap, f->len + 1, sizeof(struct json_member));
    struct json_member *m = (struct json_member *)f->items + f->len++;
    m->key = arena_strndup(r->arena, strbuf_str(&r->scratch), r->scratch.len);
    m->key_len = r->scratch.len;
    m->value = NULL;
    skip_space(r);
    if (r->pos >= r->len || r->text[r->pos] != ':')
        return fail_at(r, r->pos, "expected ':' after the key");
    r->pos++;
    return true;
}

/* Move a closed frame's items into the arena. */
static void close_frame(struct reader *r, struct frame *f)
{
    struct json_value *v = f->value;
    if (v->type == JSON_ARRAY) {
        size_t bytes = f->len * sizeof(struct json_value *);
        v->u.array.items = f->len ? arena_alloc(r->arena, bytes) : NULL;
        if (f->len)
            memcpy(v->u.array.items, f->items, bytes);
        v->u.array.len = f->len;
    } else {
        size_t bytes = f->len * sizeof(struct json_member);
        v->u.object.members = f->len ? arena_alloc(r->arena, bytes) : NULL;
        if (f->len)
            memcpy(v->u.object.members, f->items, bytes);
        v->u.object.len = f->len;
    }
    free(f->items);
    f->items = NULL;
}

bool json_parse(struct json_doc *doc, const char *name, uint32_t line_base,
                const char *text, size_t len, struct diag_list *diags)
{
    arena_init(&doc->arena);
    doc->root = NULL;
    struct reader r = {
        .name = name, .text = text, .len = len, .line = line_base ? line_base : 1,
        .col = 1, .diags = diags, .arena = &doc->arena, .scratch = STRBUF_INIT,
    };
    struct frame *stack = NULL;
    size_t depth = 0, stack_cap = 0;
    bool ok = false;
    struct json_value *v;

    for (;;) {
        /* A value is expected here. */
        skip_space(&r);
        if (r.pos >= r.len) {
            fail_at(&r, r.pos, depth ? "unexpected end of text" : "expected a value");
            goto out;
        }
        char c = text[r.pos];
        if (c == '[' || c == '{') {
            v = new_value(&r, c == '[' ? JSON_ARRAY : JSON_OBJECT);
            r.pos++;
            stack = xgrow(stack, &stack_cap, depth + 1, sizeof *stack);
            stack[depth++] = (struct frame){.value = v};
            skip_space(&r);
            if (r.pos < r.len && text[r.pos] == (c == '[' ? ']' : '}')) {
                r.pos++;
                close_frame(&r, &stack[--depth]);
                goto have_value;
            }
            if (c == '{' && !read_key(&r, &stack[depth - 1]))
                goto out;
            continue;
        }
        if (c == '"') {
            v = new_value(&r, JSON_STRING);
            if (!read_string(&r))
                goto out;
            v->u.string.len = r.scratch.len;
            v->u.string.data = arena_strndup(&doc->arena, strbuf_str(&r.scratch), r.scratch.len);
        } else if (c == 't' || c == 'f' || c == 'n') {
            v = new_value(&r, c == 't' ? JSON_TRUE : c == 'f' ? JSON_FALSE : JSON_NULL);
            if (!read_word(&r, c == 't' ? "true" : c == 'f' ? "false" : "null"))
                goto out;
        } else {
            v = new_value(&r, JSON_NUMBER);
            if (!read_number(&r, v))
                goto out;
        }
    have_value:
        while (depth) {
            struct frame *f = &stack[depth - 1];
            bool array = f->value->type == JSON_ARRAY;
            if (array) {
                f->items = xgrow(f->items, &f->cap, f->len + 1, sizeof(struct json_value *));
                ((struct json_value **)f->items)[f->len++] = v;
            } else {
                ((struct json_member *)f->items)[f->len - 1].value = v;
            }
            skip_space(&r);
            if (r.pos < r.len && text[r.pos] == ',') {
                r.pos++;
                if (!array && !read_key(&r, f))
                    goto out;
                break; /* the next value */
            }
            if (r.pos < r.len && text[r.pos] == (array ? ']' : '}')) {
                r.pos++;
                v = f->value;
                close_frame(&r, &stack[--depth]);
                continue; /* the container is a value of its parent */
            }
            fail_at(&r, r.pos, array ? "expected ',' or ']'" : "expected ',' or '}'");
            goto out;
        }
        if (!depth)
            break;
    }
    skip_space(&r);
    if (r.pos < r.len) {
        fail_at(&r, r.pos, "unexpected text after the value");
        goto out;
    }
    doc->root = v;
    ok = true;
out:
    while (depth)
        free(stack[--depth].items);
    free(stack);
    strbuf_free(&r.scratch);
    return ok;
}

void json_doc_free(struct json_doc *doc)
{
    arena_free(&doc->arena);
    doc->root = NULL;
}

const struct json_value *json_get(const struct json_value *object, const char *key)
{
    if (!object || object->type != JSON_OBJECT)
        return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < object->u.object.len; i++) {
        const struct json_member *m = &object->u.object.members[i];
        if (m->key_len == n && memcmp(m->key, key, n) == 0)
            return m->value;
    }
    return NULL;
}

const char *json_string(const struct json_value *v)
{
    return v && v->type == JSON_STRING ? v->u.string.data : NULL;
}

const char *json_type_name(enum json_type type)
{
    switch (type) {
    case JSON_NULL: return "null";
    case JSON_FALSE:
    case JSON_TRUE: return "a boolean";
    case JSON_NUMBER: return "a number";
    case JSON_STRING: return "a string";
    case JSON_ARRAY: return "an array";
    case JSON_OBJECT: return "an object";
    }
    return "a value";
}
