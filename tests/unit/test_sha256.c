/*
 * test_sha256.c - SHA-256 against the FIPS 180-4 test vectors, and
 * incremental updates equal one-shot hashing.
 */
#include "testutil.h"

#include <string.h>

#include "util/sha256.h"

static void test_vectors(void **state)
{
	char h[65];
	(void)state;
	sha256_hex("", 0, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(m, strlen(m), h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a_incremental(void **state)
{
	struct sha256 s;
	unsigned char d[32], a[1001];
	(void)state;
	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sha256_update(&s, a, i % 2 ? 999 : 1001); /* odd chunk sizes */
	sha256_final(&s, d);
	assert_int_equal(d[0], 0xcd);
	assert_int_equal(d[1], 0xc7);
	assert_int_equal(d[31], 0xd0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_million_a_incremental),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
