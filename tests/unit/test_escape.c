/* escape: what kpath echoes of a program's or a sample's bytes cannot drive
 * the terminal (issue 38 item 5).  Golden values written by hand. */
#include <string.h>

#include "base/escape.h"
#include "harness.h"

static void check_escaped(const char *in, size_t len, const char *want)
{
    struct strbuf sb = STRBUF_INIT;
    escape_add(&sb, in, len);
    CHECK_STR(strbuf_str(&sb), want);
    strbuf_free(&sb);
}

TEST(escape_controls_and_invisible_characters)
{
    /* ESC ]0;title BEL: a window title; ESC [2J: clear the screen */
    check_escaped("\x1b]0;pwned\x07", 10, "\\x1B]0;pwned\\x07");
    check_escaped("\x1b[2J", 4, "\\x1B[2J");
    check_escaped("a\tb\r\nc\\d", 8, "a\\tb\\r\\nc\\\\d");
    check_escaped("\x7f", 1, "\\x7F");
    /* C1: U+009B (CSI) as UTF-8, and a lone 0x9B byte (not UTF-8) */
    check_escaped("\xc2\x9b" "2J", 4, "\\u{009B}2J");
    check_escaped("\x9b" "2J", 3, "\\x9B2J");
    /* BOM, right-to-left override, line separator */
    check_escaped("\xef\xbb\xbfx", 4, "\\u{FEFF}x");
    check_escaped("\xe2\x80\xae" "abc", 6, "\\u{202E}abc");
    check_escaped("\xe2\x80\xa8", 3, "\\u{2028}");
    /* a NUL inside */
    check_escaped("a\0b", 3, "a\\x00b");
    /* printable text, accents and CJK kept */
    check_escaped("caf\xc3\xa9 \xe4\xb8\xad", 9, "caf\xc3\xa9 \xe4\xb8\xad");
    CHECK(escape_is_safe('a') && escape_is_safe(0xE9) && escape_is_safe(0x4E2D));
    CHECK(!escape_is_safe(0x1B) && !escape_is_safe(0x85) && !escape_is_safe(0xFEFF));
}
