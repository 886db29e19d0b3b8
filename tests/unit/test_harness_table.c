/* run/harness: the bytes of --harness-prefix/--harness-suffix escapes, worked
 * out by hand from C's escapes; the fork server's table of guards read into
 * feature names (a module without symbols names each guard by its offset;
 * without edges only function entries are features; with edges the K-th
 * guard of a function is edge:NAME:K), and malformed tables refused rather
 * than read past their end. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/strbuf.h"
#include "run/harness.h"

static bool bytes(const char *text, const char *want, size_t want_len)
{
    struct strbuf b = STRBUF_INIT;
    bool ok = harness_parse_bytes(text, &b);
    ok = ok && b.len == want_len && memcmp(b.data ? b.data : "", want, want_len) == 0;
    strbuf_free(&b);
    return ok;
}

TEST(harness_bytes_with_escapes)
{
    CHECK(bytes("1111", "1111", 4));
    CHECK(bytes("\\0", "\0", 1));
    CHECK(bytes("a\\nb\\t\\r", "a\nb\t\r", 5));
    CHECK(bytes("\\x41\\x7", "A\x07", 2));
    CHECK(bytes("\\101\\0012", "A\0012", 3)); /* octal: at most three digits */
    CHECK(bytes("\\\\\\\"", "\\\"", 2));
    CHECK(bytes("", "", 0));
    struct strbuf b = STRBUF_INIT;
    CHECK(!harness_parse_bytes("\\q", &b));
    CHECK(!harness_parse_bytes("\\x", &b));
    CHECK(!harness_parse_bytes("\\777", &b));
    CHECK(!harness_parse_bytes("end\\", &b));
    strbuf_free(&b);
}

/* A table of three guards in one module, /nonexistent (no symbols):
 * guard 1 a function's entry at 0x10, guard 2 an edge at 0x18, guard 3
 * the entry of another function at 0x40. */
static size_t make_table(unsigned char *mem, size_t cap)
{
    struct harness_shm h = {.magic = HARNESS_MAGIC, .nguards = 3, .nmodules = 1};
    struct harness_entry e[3] = {{0x10, 0, 1}, {0x18, 0, 0}, {0x40, 0, 1}};
    size_t at = 0;
    memset(mem, 0, cap);
    memcpy(mem, &h, sizeof h);
    at += sizeof h + 3 * sizeof(uint32_t);
    memcpy(mem + at, e, sizeof e);
    at += sizeof e;
    memcpy(mem + at, "/nonexistent", 13);
    return at + 13;
}

TEST(harness_table_to_feature_names)
{
    static unsigned char mem[256];
    size_t size = make_table(mem, sizeof mem);
    char **names = NULL;
    uint32_t n = 0;
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(harness_names(mem, size, "/nonexistent-exe", false, &names, &n, &diags));
    CHECK_INT(n, 3);
    if (names) {
        CHECK_STR(names[1], "fn:0x10");
        CHECK(names[2] == NULL);
        CHECK_STR(names[3], "fn:0x40");
    }
    harness_names_free(names, n);
    CHECK(harness_names(mem, size, "/nonexistent-exe", true, &names, &n, &diags));
    if (names) {
        CHECK_STR(names[1], "fn:0x10");
        CHECK_STR(names[2], "edge:0x18:1"); /* the guard after the entry (K = 0) */
        CHECK_STR(names[3], "fn:0x40");
    }
    harness_names_free(names, n);
    CHECK_INT(diags.len, 0);
    diag_list_free(&diags);
}

TEST(harness_malformed_tables_refused)
{
    static unsigned char mem[256];
    size_t size = make_table(mem, sizeof mem);
    char **names = NULL;
    uint32_t n = 0;
    struct diag_list diags = DIAG_LIST_INIT;
    /* Cut before the module name ends. */
    CHECK(!harness_names(mem, size - 1, "x", false, &names, &n, &diags));
    /* Too small for its header. */
    CHECK(!harness_names(mem, 8, "x", false, &names, &n, &diags));
    /* More guards than the memory holds. */
    uint32_t many = 1000;
    memcpy(mem + 4, &many, sizeof many);
    CHECK(!harness_names(mem, size, "x", false, &names, &n, &diags));
    /* Not the driver's magic. */
    size = make_table(mem, sizeof mem);
    mem[0] ^= 1;
    CHECK(!harness_names(mem, size, "x", false, &names, &n, &diags));
    CHECK(names == NULL);
    CHECK_INT(diags.len, 4);
    diag_list_free(&diags);
}
