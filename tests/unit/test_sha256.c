/* SHA-256: the FIPS 180-2/NIST example vectors, streaming in arbitrary pieces,
 * the padding boundaries, and hashing files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "base/sha256.h"

TEST(sha256_empty_message)
{
    char hex[SHA256_HEX_SIZE];
    sha256_hex("", 0, hex);
    CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(sha256_abc)
{
    char hex[SHA256_HEX_SIZE];
    sha256_hex("abc", 3, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(sha256_448_bit_message)
{
    /* 56 bytes: the padding needs a second block. */
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char hex[SHA256_HEX_SIZE];
    CHECK_INT(strlen(m), 56);
    sha256_hex(m, strlen(m), hex);
    CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(sha256_896_bit_message)
{
    const char *m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                    "klmnopqrlmnopqrsmnopqrstnopqrstu";
    char hex[SHA256_HEX_SIZE];
    CHECK_INT(strlen(m), 112);
    sha256_hex(m, strlen(m), hex);
    CHECK_STR(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(sha256_one_million_a_streamed)
{
    /* Fed in pieces of 1000 bytes, as the NIST example suggests, and once in
     * uneven pieces that straddle block boundaries. */
    static const char expect[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    char piece[1000];
    memset(piece, 'a', sizeof piece);
    struct sha256 ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    char hex[SHA256_HEX_SIZE];

    sha256_init(&ctx);
    for (int i = 0; i < 1000; i++)
        sha256_update(&ctx, piece, sizeof piece);
    sha256_final(&ctx, digest);
    sha256_to_hex(digest, hex);
    CHECK_STR(hex, expect);

    sha256_init(&ctx);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t n = step < left ? step : left;
        if (n > sizeof piece)
            n = sizeof piece;
        sha256_update(&ctx, piece, n);
        left -= n;
        step = step * 7 % 997 + 1;
    }
    sha256_final(&ctx, digest);
    sha256_to_hex(digest, hex);
    CHECK_STR(hex, expect);

    char *all = malloc(1000000);
    memset(all, 'a', 1000000);
    sha256_hex(all, 1000000, hex);
    CHECK_STR(hex, expect);
    free(all);
}

TEST(sha256_byte_by_byte_equals_one_call_at_padding_boundaries)
{
    /* Lengths around the 55/56-byte padding edge and whole blocks. */
    static const size_t lengths[] = {1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129};
    uint8_t data[129];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 31 + 7);
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        size_t len = lengths[l];
        char whole[SHA256_HEX_SIZE], bytes[SHA256_HEX_SIZE];
        sha256_hex(data, len, whole);
        struct sha256 ctx;
        uint8_t digest[SHA256_DIGEST_SIZE];
        sha256_init(&ctx);
        for (size_t i = 0; i < len; i++)
            sha256_update(&ctx, data + i, 1);
        sha256_final(&ctx, digest);
        sha256_to_hex(digest, bytes);
        if (!CHECK_STR(bytes, whole))
            fprintf(stderr, "  at length %zu\n", len);
        CHECK_INT(strlen(whole), 64);
    }
}

TEST(sha256_file_hashes_contents_and_reports_missing_files)
{
    char path[] = "/tmp/kpath-sha256-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    CHECK_INT(write(fd, "abc", 3), 3);
    close(fd);

    struct diag_list diags = DIAG_LIST_INIT;
    char hex[SHA256_HEX_SIZE];
    CHECK(sha256_file(path, hex, &diags));
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_INT(diags.len, 0);
    unlink(path);

    CHECK(!sha256_file(path, hex, &diags));
    CHECK_STR(hex, "");
    if (CHECK_INT(diags.len, 1)) {
        CHECK_STR(diags.items[0].file, path);
        CHECK(strstr(diags.items[0].message, "cannot read") != NULL);
        CHECK_INT(diags.errors, 1);
    }
    diag_list_free(&diags);

    /* A directory opens but cannot be read. */
    CHECK(!sha256_file("/tmp", hex, &diags));
    CHECK_INT(diags.errors, 1);
    diag_list_free(&diags);
}
