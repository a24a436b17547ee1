/* A bad range of verification in JSON. */
#include "lib/verify/verify_range_json.h"

void sb_verify_range_json(struct sb_json *j, const struct sb_verify_range *g, int file)
{
	sb_json_obj_open(j, NULL);
	if (file >= 0)
		sb_json_u64(j, "file", (uint64_t)file);
	sb_json_u64(j, "offset", g->offset);
	sb_json_u64(j, "length", g->length);
	sb_json_str(j, "class", sb_verify_class_name(g->cls));
	if (g->cls == SB_VERIFY_MISPLACED)
		sb_json_u64(j, "expected_offset", g->expected_offset);
	if (g->cls == SB_VERIFY_MISPLACED || g->cls == SB_VERIFY_STALE || g->cls == SB_VERIFY_NEWER)
		sb_json_u64(j, "generation", g->generation);
	if (g->cls == SB_VERIFY_UNREADABLE) {
		sb_json_u64(j, "errno", (uint64_t)g->err);
		sb_json_str(j, "error", strerror(g->err));
	}
	sb_json_obj_close(j);
}

int sb_verify_range_from_json(const struct sb_jv *v, struct sb_verify_range *g)
{
	uint64_t err = 0;
	memset(g, 0, sizeof(*g));
	g->cls = sb_verify_class_by_name(sb_jv_str(sb_jv_get(v, "class")));
	if (g->cls <= SB_VERIFY_INTACT || sb_jv_u64(sb_jv_get(v, "offset"), &g->offset) < 0 ||
	    sb_jv_u64(sb_jv_get(v, "length"), &g->length) < 0)
		return -EINVAL;
	sb_jv_u64(sb_jv_get(v, "expected_offset"), &g->expected_offset);
	sb_jv_u64(sb_jv_get(v, "generation"), &g->generation);
	if (sb_jv_u64(sb_jv_get(v, "errno"), &err) == 0 && err < 4096)
		g->err = (int)err;
	return 0;
}
