/* sha256: the SHA-256 hash (FIPS 180-4), for fingerprinting grammar files in
 * the manifests kpath writes.
 *
 * Contract: a streaming hash.  sha256_init, then sha256_update any number of
 * times with any split of the data, then sha256_final gives the same 32-byte
 * digest as hashing the whole message at once.  After sha256_final the context
 * must be initialized again before reuse.  Nothing here allocates.
 *
 * sha256_file hashes a file's bytes; it is the only function that can fail,
 * and it reports why as a diagnostic (FILE: error: ...) instead of printing. */
#ifndef KPATH_SHA256_H
#define KPATH_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define SHA256_DIGEST_SIZE 32
#define SHA256_HEX_SIZE 65 /* 64 lowercase hex digits and a NUL */

struct sha256 {
    uint32_t state[8];
    uint64_t length;       /* bytes hashed so far */
    uint8_t block[64];     /* a partial block waiting for more data */
    size_t fill;           /* bytes in `block` */
};

void sha256_init(struct sha256 *ctx);
void sha256_update(struct sha256 *ctx, const void *data, size_t len);
void sha256_final(struct sha256 *ctx, uint8_t digest[SHA256_DIGEST_SIZE]);

/* The digest as 64 lowercase hex digits, NUL-terminated. */
void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[SHA256_HEX_SIZE]);
/* Hash a buffer in one call; hex as sha256_to_hex. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_SIZE]);
/* Hash the file at `path`.  Returns false, with a diagnostic for `path` in
 * `diags` and hex set to "", when the file cannot be opened or read. */
bool sha256_file(const char *path, char hex[SHA256_HEX_SIZE], struct diag_list *diags);

#endif
