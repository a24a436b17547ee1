/* needs: none */
/*
 * CRC32C against published vectors (the "123456789" check value and the
 * iSCSI vectors of RFC 3720 B.4), in the table version and in the one
 * sb_crc32c uses (the CPU's instruction where present); chained calls equal
 * one call over the whole, at every split point and alignment.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/crc32c.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

static void vectors(crc_fn crc)
{
	unsigned char b[32];

	assert_int_equal(crc(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(crc(0, "", 0), 0);
	memset(b, 0, sizeof(b));
	assert_int_equal(crc(0, b, 32), 0x8a9136aau);
	memset(b, 0xff, sizeof(b));
	assert_int_equal(crc(0, b, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		b[i] = (unsigned char)i;
	assert_int_equal(crc(0, b, 32), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		b[i] = (unsigned char)(31 - i);
	assert_int_equal(crc(0, b, 32), 0x113fdb5cu);
}

static void test_vectors_table(void **state)
{
	(void)state;
	vectors(sb_crc32c_sw);
}

static void test_vectors_dispatch(void **state)
{
	(void)state;
	vectors(sb_crc32c);
	print_message("CPU instruction: %s\n", sb_crc32c_hw() ? "yes" : "no (table)");
}

/* Random data: both agree for every length and alignment, and chaining
 * at any split gives the CRC of the whole. */
static void test_agree_and_chain(void **state)
{
	unsigned char data[300];
	uint64_t x = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (unsigned char)(x >> 56);
	}
	for (size_t start = 0; start < 9; start++)
		for (size_t len = 0; len + start <= sizeof(data); len += 7) {
			const uint32_t whole = sb_crc32c_sw(0, data + start, len);
			assert_int_equal(sb_crc32c(0, data + start, len), whole);
			for (size_t cut = 0; cut <= len; cut += 13) {
				uint32_t c = sb_crc32c(0, data + start, cut);
				assert_int_equal(sb_crc32c(c, data + start + cut, len - cut),
						 whole);
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors_table),
		cmocka_unit_test(test_vectors_dispatch),
		cmocka_unit_test(test_agree_and_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
