/*
 * Fuzz target of fio's I/O log reader (read_iolog=, libFuzzer: make fuzz).
 * Any input must be read or refused without a crash, a leak or undefined
 * behaviour; a refusal names a line; what is read is consistent: every
 * request inside the log's reach, its counts and bytes those of its
 * entries, the longest read or write its max_len.
 */
#include "lib/job/iolog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_iolog l;
	char msg[256];
	const int one = size ? data[0] & 1 : 1;
	const int e = sb_iolog_parse((const char *)data, size, one, size > 1 ? data[1] % 4 : 0,
				     size > 2 ? (uint64_t)(data[2] % 3) * 512 : 0, &l, msg,
				     sizeof(msg));
	if (e) {
		CHECK(e == -EINVAL || e == -ENOMEM);
		CHECK(!strncmp(msg, "line ", 5));
		CHECK(!l.e && !l.n);
		return 0;
	}
	uint64_t bytes = 0;
	uint32_t max_len = 0;
	unsigned rw[3] = { 0, 0, 0 };
	CHECK(l.version == 2 || l.version == 3);
	for (size_t i = 0; i < l.n; i++) {
		const struct sb_iolog_entry *x = &l.e[i];
		if (x->wait)
			continue;
		CHECK(x->ddir <= SB_DDIR_DATASYNC);
		if (x->ddir > SB_DDIR_TRIM)
			continue;
		CHECK(x->len && x->offset + x->len <= l.end);
		bytes += x->len;
		rw[x->ddir]++;
		if (x->ddir != SB_DDIR_TRIM)
			max_len = SB_MAX(max_len, x->len);
	}
	CHECK(bytes == l.bytes && max_len == l.max_len);
	CHECK(rw[0] == l.reads && rw[1] == l.writes && rw[2] == l.trims);
	CHECK(l.reads + l.writes + l.trims > 0);
	sb_iolog_free(&l);
	return 0;
}
