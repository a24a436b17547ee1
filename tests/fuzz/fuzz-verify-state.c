/*
 * Fuzz target of the verify state file's reader (verify_state_load=,
 * lib/verify/verify_state.h; libFuzzer: make fuzz). Any input is read or
 * refused without a crash, a leak or undefined behaviour; a refusal says
 * why; what is read is a state of whole blocks whose text reads back as
 * the same state.
 */
#include "lib/verify/verify_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_verify_state s, t;
	char msg[256];
	static char text[40000]; /* a state with the most files: sb_verify_state_format */
	if (sb_verify_state_parse((const char *)data, size, &s, msg, sizeof(msg)) < 0) {
		CHECK(msg[0]);
		return 0;
	}
	CHECK(s.done <= s.size && s.fmt.block_size && s.size % s.fmt.block_size == 0);
	CHECK(s.offset % s.fmt.block_size == 0);
	CHECK(sb_verify_state_format(&s, text, sizeof(text)) == 0);
	CHECK(sb_verify_state_parse(text, strlen(text), &t, msg, sizeof(msg)) == 0);
	CHECK(s.fmt.seed == t.fmt.seed && s.fmt.block_size == t.fmt.block_size &&
	      s.fmt.generation == t.fmt.generation && s.fmt.csum == t.fmt.csum);
	CHECK(s.offset == t.offset && s.size == t.size && s.done == t.done && s.ended == t.ended);
	CHECK(!strcmp(s.job, t.job) && !strcmp(s.file, t.file));
	CHECK(s.nmore == t.nmore && !memcmp(s.more, t.more, sizeof(s.more)));
	return 0;
}
