/* json_read: values of every type, escapes and surrogate pairs, exact
 * integers, positions of errors, and depth without recursion. */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "harness.h"
#include "base/json_read.h"
#include "base/strbuf.h"

static bool parse(struct json_doc *doc, const char *text, struct diag_list *diags)
{
    return json_parse(doc, "t.json", 1, text, strlen(text), diags);
}

/* The first diagnostic, formatted. */
static char *first_error(const char *text)
{
    struct json_doc doc;
    struct diag_list diags = DIAG_LIST_INIT;
    bool ok = parse(&doc, text, &diags);
    struct strbuf out = STRBUF_INIT;
    if (!ok && diags.len)
        diag_format(&diags.items[0], &out);
    json_doc_free(&doc);
    diag_list_free(&diags);
    return strbuf_detach(&out, NULL);
}

TEST(json_read_every_type)
{
    struct json_doc doc;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(parse(&doc, " {\"a\": [1, -2.5e1, true, false, null], \"b\": {\"c\": \"d\"}, \"\": []}\n",
                &diags));
    const struct json_value *a = json_get(doc.root, "a");
    CHECK(a && a->type == JSON_ARRAY && a->u.array.len == 5);
    if (a && a->u.array.len == 5) {
        CHECK(a->u.array.items[0]->u.number.is_uint);
        CHECK_INT(a->u.array.items[0]->u.number.uint, 1);
        CHECK(!a->u.array.items[1]->u.number.is_uint);
        CHECK(a->u.array.items[1]->u.number.value == -25.0);
        CHECK_INT(a->u.array.items[2]->type, JSON_TRUE);
        CHECK_INT(a->u.array.items[3]->type, JSON_FALSE);
        CHECK_INT(a->u.array.items[4]->type, JSON_NULL);
    }
    CHECK_STR(json_string(json_get(json_get(doc.root, "b"), "c")), "d");
    const struct json_value *empty = json_get(doc.root, "");
    CHECK(empty && empty->type == JSON_ARRAY && empty->u.array.len == 0);
    CHECK(json_get(doc.root, "missing") == NULL);
    CHECK_INT(diags.len, 0);
    json_doc_free(&doc);
    diag_list_free(&diags);
}

TEST(json_read_string_escapes)
{
    struct json_doc doc;
    struct diag_list diags = DIAG_LIST_INIT;
    /* \u00e9 is two UTF-8 bytes, the pair D83D DE00 is U+1F600 (four bytes),
     * \u0000 is a NUL inside the string, a lone D800 becomes U+FFFD. */
    CHECK(parse(&doc, "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\u0000\\ud800x\"", &diags));
    const char expect[] = "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\0\xef\xbf\xbdx";
    CHECK_INT(doc.root->u.string.len, sizeof expect - 1);
    CHECK(memcmp(doc.root->u.string.data, expect, sizeof expect - 1) == 0);
    json_doc_free(&doc);
    diag_list_free(&diags);
}

TEST(json_read_integers_exact_up_to_64_bits)
{
    struct json_doc doc;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(parse(&doc, "[18446744073709551615, 18446744073709551616, 0, 1.0]", &diags));
    struct json_value **v = doc.root->u.array.items;
    CHECK(v[0]->u.number.is_uint && v[0]->u.number.uint == UINT64_MAX);
    CHECK(!v[1]->u.number.is_uint); /* 2^64 does not fit */
    CHECK(v[2]->u.number.is_uint && v[2]->u.number.uint == 0);
    CHECK(!v[3]->u.number.is_uint); /* 1.0 is written as a fraction */
    json_doc_free(&doc);
    diag_list_free(&diags);
}

TEST(json_read_errors_have_positions)
{
    struct {
        const char *text, *expect;
    } cases[] = {
        {"", "t.json:1:1: error: expected a value"},
        {"[1,]", "t.json:1:4: error: expected a value"},
        {"{\"a\" 1}", "t.json:1:6: error: expected ':' after the key"},
        {"{1: 2}", "t.json:1:2: error: expected a string key"},
        {"[1 2]", "t.json:1:4: error: expected ',' or ']'"},
        {"{\"a\":1 \"b\"}", "t.json:1:8: error: expected ',' or '}'"},
        {"\n  \"abc", "t.json:2:3: error: unterminated string"},
        {"\"a\tb\"", "t.json:1:3: error: control character in a string (escape it)"},
        {"\"\\q\"", "t.json:1:2: error: unknown escape in a string"},
        {"\"\\u12G4\"", "t.json:1:6: error: \\u needs four hexadecimal digits"},
        {"01", "t.json:1:2: error: unexpected text after the value"},
        {"1.", "t.json:1:3: error: expected a digit after '.'"},
        {"1e+", "t.json:1:4: error: expected a digit in the exponent"},
        {"tru", "t.json:1:1: error: expected a value"},
        {"[[[", "t.json:1:4: error: unexpected end of text"},
        /* Columns count characters: "é" is one. */
        {"[\"\xc3\xa9\" x]", "t.json:1:6: error: expected ',' or ']'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = first_error(cases[i].text);
        CHECK_STR(got, cases[i].expect);
        free(got);
    }
}

TEST(json_read_deep_nesting_without_recursion)
{
    /* A million nested arrays: a recursive reader would overflow the stack. */
    size_t depth = 1000000;
    char *text = malloc(2 * depth + 1);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = '\0';
    struct json_doc doc;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(json_parse(&doc, "deep", 1, text, 2 * depth, &diags));
    size_t seen = 0;
    for (const struct json_value *v = doc.root; v && v->type == JSON_ARRAY;
         v = v->u.array.len ? v->u.array.items[0] : NULL)
        seen++;
    CHECK_INT(seen, depth);
    json_doc_free(&doc);
    diag_list_free(&diags);
    free(text);
}
