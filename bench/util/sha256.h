/*
 * sha256.h - SHA-256 (FIPS 180-4), small and dependency-free: the suite hash
 * in plan.json/manifest and the serial-number hash of device fingerprints.
 */
#ifndef IOMATRIX_SHA256_H
#define IOMATRIX_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* One call: lower-case hex digest of data into hex (65 bytes with NUL). */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
