/* sha256: FIPS 180-4, section 6.2, written from the standard. */
#include "base/sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64
 * primes (FIPS 180-4, 4.2.2). */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* The first 32 bits of the fractional parts of the square roots of the first
 * 8 primes (FIPS 180-4, 5.3.3). */
static const uint32_t initial_state[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t t1 = h + big_s1 + choose + round_constants[t] + w[t];
        uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = big_s0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void sha256_init(struct sha256 *ctx)
{
    memcpy(ctx->state, initial_state, sizeof ctx->state);
    ctx->length = 0;
    ctx->fill = 0;
}

void sha256_update(struct sha256 *ctx, const void *data, size_t len)
{
    const uint8_t *p = data;
    ctx->length += len;
    if (ctx->fill) {
        size_t take = 64 - ctx->fill;
        if (take > len)
            take = len;
        memcpy(ctx->block + ctx->fill, p, take);
        ctx->fill += take;
        p += take;
        len -= take;
        if (ctx->fill < 64)
            return;
        compress(ctx->state, ctx->block);
        ctx->fill = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        compress(ctx->state, p);
    if (len) {
        memcpy(ctx->block, p, len);
        ctx->fill = len;
    }
}

void sha256_final(struct sha256 *ctx, uint8_t digest[SHA256_DIGEST_SIZE])
{
    /* Padding (5.1.1): a 1 bit, zeros up to 56 mod 64 bytes, then the message
     * length in bits as a 64-bit big-endian integer. */
    uint64_t bits = ctx->length * 8;
    ctx->block[ctx->fill++] = 0x80;
    if (ctx->fill > 56) {
        memset(ctx->block + ctx->fill, 0, 64 - ctx->fill);
        compress(ctx->state, ctx->block);
        ctx->fill = 0;
    }
    memset(ctx->block + ctx->fill, 0, 56 - ctx->fill);
    store_be32(ctx->block + 56, (uint32_t)(bits >> 32));
    store_be32(ctx->block + 60, (uint32_t)bits);
    compress(ctx->state, ctx->block);
    for (int i = 0; i < 8; i++)
        store_be32(digest + 4 * i, ctx->state[i]);
    memset(ctx, 0, sizeof *ctx);
}

void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[SHA256_HEX_SIZE])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * SHA256_DIGEST_SIZE] = '\0';
}

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_SIZE])
{
    struct sha256 ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, data, len);
    sha256_final(&ctx, digest);
    sha256_to_hex(digest, hex);
}

bool sha256_file(const char *path, char hex[SHA256_HEX_SIZE], struct diag_list *diags)
{
    hex[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    struct sha256 ctx;
    uint8_t buf[1 << 14];
    size_t n;
    sha256_init(&ctx);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&ctx, buf, n);
    int read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (read_errno) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(read_errno));
        return false;
    }
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_final(&ctx, digest);
    sha256_to_hex(digest, hex);
    return true;
}
