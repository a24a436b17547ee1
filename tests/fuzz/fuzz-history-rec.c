/*
 * Fuzz target of the history's reading of a result (lib/history/
 * history_rec.c: storbench's JSON, with its device's identity and its
 * figures, a soak's JSON Lines log, or fio's JSON output; libFuzzer: make
 * fuzz). Any input must be
 * read or refused without a crash, a leak or undefined behaviour; a
 * refusal is bad input with a message; what is read has a command, the
 * JSON text it came from, and figures with names. tests/unit/
 * history-rec-corpus.c runs this same function over the corpus and its
 * mutations in make check, without clang.
 */
#include "lib/history/history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_history_rec r;
	struct sb_error err;
	memset(&err, 0, sizeof(err));
	int e = sb_history_rec_read((const char *)data, size, &r, &err);
	if (e < 0) {
		CHECK(e == -ENOMEM || (e == -EINVAL && err.cls == SB_ERR_INPUT && err.msg[0]));
	} else {
		CHECK(e == 0 && r.command && r.json && r.json_len <= size);
		CHECK(r.json[0] == '{' && strlen(r.json) <= r.json_len);
		for (size_t i = 0; i < r.figs.n; i++)
			CHECK(r.figs.v[i].name[0] && r.figs.v[i].unit);
		CHECK(sb_history_rec_label(&r, "k=v", &err) == 0 && r.nlabels == 1);
	}
	sb_history_rec_free(&r);
	return 0;
}
