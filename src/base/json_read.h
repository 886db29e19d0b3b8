/* json_read: reading JSON text (RFC 8259) into a tree of values.
 *
 * Contract: json_parse reads exactly one JSON value (surrounded by optional
 * white space) and builds it in the document's arena; on any error it appends
 * one diagnostic "NAME:LINE:COL: message" (positions count characters from
 * line_base/1) and returns false.  Strings are unescaped into UTF-8 (\uXXXX
 * pairs combined; a lone surrogate becomes U+FFFD) and may hold NUL bytes, so
 * each carries its length.  Numbers keep their double value and, when the text
 * is a non-negative integer that fits, the exact uint64_t.  Object members
 * keep their order; a repeated key is kept twice and json_get finds the first.
 *
 * Nesting is handled with an explicit stack: no recursion on the input's
 * depth.  Ownership: everything hangs off the json_doc and dies with
 * json_doc_free. */
#ifndef KPATH_JSON_READ_H
#define KPATH_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_member;

struct json_value {
    enum json_type type;
    uint32_t line, col; /* where the value starts, 1-based */
    union {
        struct {
            double value;
            bool is_uint;  /* a non-negative integer literal that fits in 64 bits */
            uint64_t uint;
        } number;
        struct {
            char *data; /* NUL-terminated; may contain NUL (see len) */
            size_t len;
        } string;
        struct {
            struct json_value **items;
            size_t len;
        } array;
        struct {
            struct json_member *members;
            size_t len;
        } object;
    } u;
};

struct json_member {
    char *key; /* NUL-terminated */
    size_t key_len;
    struct json_value *value;
};

struct json_doc {
    struct arena arena;      /* owns every value, string and array */
    struct json_value *root; /* NULL until a successful json_parse */
};

/* Parse text[0..len).  `name` is the FILE of diagnostics; line_base is the
 * line number of the text's first line (for one line of a JSON Lines file). */
bool json_parse(struct json_doc *doc, const char *name, uint32_t line_base,
                const char *text, size_t len, struct diag_list *diags);
void json_doc_free(struct json_doc *doc);

/* The value of the first member called `key`, or NULL (also when `object` is
 * NULL or not an object). */
const struct json_value *json_get(const struct json_value *object, const char *key);
/* The string, or NULL when v is NULL or not a string. */
const char *json_string(const struct json_value *v);
/* Short name of a type for messages: "a string", "an array", ... */
const char *json_type_name(enum json_type type);

#endif
