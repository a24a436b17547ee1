/*
 * Fuzz target of the spo journal reader (libFuzzer: make fuzz). Any input
 * must be read or refused without a crash, a leak or undefined behaviour;
 * a refusal names a line; what is read is consistent: sequence numbers 1,
 * 2, 3 ..., offsets aligned inside the region after the canary, no
 * acknowledgement before its intent. tests/unit/spo-journal-corpus.c runs
 * this same function over the corpus and its mutations in make check,
 * without clang.
 */
#include "lib/spo/spo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_spo_journal jn;
	char msg[256];
	const int e = sb_spo_journal_parse((const char *)data, size, &jn, msg, sizeof(msg));

	if (e) {
		CHECK(e == -EINVAL || e == -ENOMEM);
		CHECK(!strncmp(msg, "journal", 7));
	} else {
		const struct sb_spo_header *h = &jn.h;
		uint64_t acked = 0;
		CHECK(h->bs >= SB_SPO_SECTOR && h->bs % SB_SPO_SECTOR == 0);
		CHECK(h->canary < h->size);
		for (size_t i = 0; i < jn.nw; i++) {
			const struct sb_spo_write *w = &jn.w[i];
			CHECK(w->seq == i + 1);
			CHECK(w->offset >= h->offset + h->canary);
			CHECK(w->offset + h->bs <= h->offset + h->size);
			CHECK((w->offset - h->offset) % h->bs == 0);
			CHECK(w->t_ack == UINT64_MAX || w->t_ack >= w->t_intent);
			acked += w->t_ack != UINT64_MAX;
		}
		CHECK(acked == jn.nacked);
	}
	sb_spo_journal_free(&jn);
	return 0;
}
