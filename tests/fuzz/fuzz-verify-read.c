/*
 * Fuzz target of a results file's "verify" section read back (libFuzzer:
 * make fuzz): lib/verify's reader (verify_json.h), which report/ reads
 * verify, run --verify, --probe and a soak iteration's blocks through. Any
 * input must be read or refused without a crash, a leak or undefined
 * behaviour; a refusal names a key path, and what is read is consistent:
 * every range of a known class, every class listed a known one.
 */
#include "lib/verify/verify_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void blocks_ok(const struct sb_verify_doc_blocks *b)
{
	CHECK(!(b->classes >> SB_VERIFY_NCLASS));
	CHECK(!b->nranges || b->ranges);
	for (size_t i = 0; i < b->nranges; i++)
		CHECK(b->ranges[i].g.cls < SB_VERIFY_NCLASS && b->ranges[i].g.err >= 0 &&
		      b->ranges[i].g.err < 4096);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_jdoc *tree = NULL;
	struct sb_verify_doc d;
	struct sb_error err;
	if (sb_json_parse((const char *)data, size, NULL, &tree, NULL) < 0)
		return 0;
	const int e = sb_verify_read(sb_jdoc_root(tree), &d, &err);
	CHECK(e == 0 || e == -EINVAL || e == -ENOMEM);
	if (e == -EINVAL)
		CHECK(strstr(err.msg, ": ") && err.cls == SB_ERR_INPUT);
	if (!e) {
		CHECK(d.kind == SB_VDOC_PROBE || d.has_blocks ||
		      sb_jv_get(sb_jdoc_root(tree), "blocks_checked"));
		blocks_ok(&d.b);
		CHECK(!d.nranks || d.ranks);
		for (size_t i = 0; i < d.nranks; i++) {
			blocks_ok(&d.ranks[i].b);
			CHECK(d.ranks[i].rank >= 0 &&
			      strlen(d.ranks[i].host) < sizeof(d.ranks[i].host));
		}
		CHECK(d.phase >= 0 && d.phase <= SB_VPHASE_BOTH);
	}
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);
	return 0;
}
