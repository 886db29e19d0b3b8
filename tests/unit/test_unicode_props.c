/* Unit tests of base/unicode_props: the expected members are taken from the
 * Unicode Standard's code charts and property definitions (not from the
 * generated tables): Pc and Zs are listed whole, the others probed. */
#include <stdio.h>
#include <string.h>

#include "base/unicode_props.h"
#include "harness.h"

static bool has(const char *name, uint32_t cp)
{
    const uint32_t *p;
    size_t n;
    if (!unicode_property(name, strlen(name), &p, &n))
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[2 * i] <= cp && cp <= p[2 * i + 1])
            return true;
    return false;
}

/* The ranges of `name` as "lo-hi lo-hi ..." in hex, for the short ones. */
static void check_ranges(const char *name, const char *want)
{
    const uint32_t *p;
    size_t n;
    char got[512] = "";
    CHECK(unicode_property(name, strlen(name), &p, &n));
    if (!unicode_property(name, strlen(name), &p, &n))
        return;
    for (size_t i = 0; i < n && strlen(got) < sizeof got - 32; i++) {
        char one[32];
        if (p[2 * i] == p[2 * i + 1])
            snprintf(one, sizeof one, "%s%X", i ? " " : "", (unsigned)p[2 * i]);
        else
            snprintf(one, sizeof one, "%s%X-%X", i ? " " : "", (unsigned)p[2 * i],
                     (unsigned)p[2 * i + 1]);
        strcat(got, one);
    }
    CHECK_STR(got, want);
}

TEST(unicode_general_categories)
{
    /* Connector punctuation: _ ‿ ⁀ ⁔ ︳ ︴ ﹍ ﹎ ﹏ ＿ */
    check_ranges("Pc", "5F 203F-2040 2054 FE33-FE34 FE4D-FE4F FF3F");
    check_ranges("Zs", "20 A0 1680 2000-200A 202F 205F 3000");
    CHECK(has("Lu", 'A') && has("Lu", 0xC9) && !has("Lu", 'a') && !has("Lu", 0xD7));
    CHECK(has("Ll", 'a') && has("Ll", 0xDF) && !has("Ll", 'A'));
    CHECK(has("Lt", 0x1C5) && !has("Lt", 'A'));
    CHECK(has("L", 'A') && has("L", 0x5D0) && has("L", 0x4E00) && !has("L", '1') && !has("L", '_'));
    CHECK(has("Nd", '7') && has("Nd", 0x663) && !has("Nd", 0xB2) && has("No", 0xB2));
    CHECK(has("Nl", 0x2160) && has("N", 0x2160) && has("N", 0xB2));
    CHECK(has("S", '$') && has("Sc", 0x20AC) && has("Sm", '+') && !has("S", 'A') && !has("S", 0xE9));
    CHECK(has("C", 0x7F) && has("Cc", 0) && has("Cf", 0x200B) && !has("C", 'A') && !has("C", 0xE9));
    CHECK(has("Cn", 0x378) && !has("Cn", 'A') && has("C", 0x378) && has("Co", 0xE000));
    CHECK(has("Mn", 0x301) && has("M", 0x301) && has("Mc", 0x903) && has("Me", 0x20DD));
    CHECK(has("P", '!') && has("Pd", '-') && has("Ps", '(') && has("Pe", ')') && !has("P", '+'));
    CHECK(has("Z", ' ') && has("Zl", 0x2028) && has("Zp", 0x2029) && !has("Z", '\t'));
    /* Long names, L&, gc=, loose matching. */
    CHECK(has("Letter", 0xE9) && has("L&", 'a') && !has("L&", 0x5D0));
    CHECK(has("Nonspacing_Mark", 0x301) && has("General_Category=Enclosing_Mark", 0x20DD));
    CHECK(has("gc=Lu", 'Q') && has("uppercase letter", 'Q') && has("LU", 'Q'));
}

TEST(unicode_binary_properties_scripts_blocks)
{
    check_ranges("White_Space", "9-D 20 85 A0 1680 2000-200A 2028-2029 202F 205F 3000");
    check_ranges("ASCII", "0-7F");
    check_ranges("InBasic_Latin", "0-7F");
    check_ranges("Block=Basic Latin", "0-7F");
    check_ranges("Grapheme_Cluster_Break=CR", "D");
    check_ranges("GCB=LF", "A");
    check_ranges("Pattern_White_Space", "9-D 20 85 200E-200F 2028-2029");
    CHECK(has("ID_Start", 'a') && !has("ID_Start", '1') && has("ID_Continue", '1'));
    CHECK(has("ID_Continue", '_') && !has("ID_Start", '_'));
    CHECK(has("Other_ID_Start", 0x2118) && has("Alphabetic", 0xE9) && has("white-space", ' '));
    CHECK(has("Emoji", 0x1F600) && has("Extended_Pictographic", 0xA9));
    CHECK(has("EmojiPresentation=EmojiDefault", 0x1F600) && !has("EmojiPresentation=EmojiDefault", 0xA9));
    CHECK(has("EmojiPresentation=TextDefault", 0xA9) && !has("EmojiPresentation=TextDefault", 0x1F600));
    CHECK(has("EmojiPresentation=Text", 'x') && !has("EmojiPresentation=Text", 0xA9));
    CHECK(has("Greek", 0x3B1) && !has("Greek", 'a') && has("Latin", 'a') && has("Script=Grek", 0x3B1));
    CHECK(has("Han", 0x4E00) && has("Common", ' ') && has("Inherited", 0x301));
    CHECK(has("InArrows", 0x2192) && has("Any", 0x10FFFF) && has("Assigned", 'A') && !has("Assigned", 0x378));
    const uint32_t *p;
    size_t n;
    CHECK(!unicode_property("Greekk", 6, &p, &n));
    CHECK(!unicode_property("", 0, &p, &n));
    CHECK(!unicode_property("Foo=Lu", 6, &p, &n));
    CHECK(!unicode_property("gc=Latin", 8, &p, &n));
    CHECK(!unicode_property("InNoSuchBlock", 13, &p, &n));
}
