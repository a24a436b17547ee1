/*
 * The results' "spo" section: what storbench spo --check found
 * (docs/spo.md, docs/results.md). Counts are of blocks (--bs bytes): the
 * slots the journal mentions and the canary's.
 */
#include "lib/spo/spo.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"

static void header_json(struct sb_json *j, const struct sb_spo_header *h)
{
	char id[24];
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)h->run_id);
	sb_json_str(j, "run_id", id);
	sb_json_u64(j, "bs", h->bs);
	sb_json_u64(j, "offset", h->offset);
	sb_json_u64(j, "size", h->size);
	sb_json_u64(j, "canary", h->canary);
	sb_json_str(j, "sync", sb_spo_sync_name(h->sync));
	sb_json_str(j, "rw", sb_spo_rw_name(h->rw));
	sb_json_u64(j, "iodepth", h->iodepth);
	sb_json_u64(j, "start_unix_ns", h->start_unix_ns);
}

static void lists_json(struct sb_json *j, const struct sb_spo_check *c)
{
	sb_json_arr_open(j, "ranges");
	for (size_t i = 0; i < c->nranges; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "offset", c->ranges[i].offset);
		sb_json_u64(j, "length", c->ranges[i].length);
		sb_json_str(j, "class", sb_spo_class_name(c->ranges[i].cls));
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_u64(j, "ranges_omitted", c->ranges_omitted);
	sb_json_arr_open(j, "lost_acked");
	for (size_t i = 0; i < c->nlost; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "offset", c->lost[i].offset);
		sb_json_u64(j, "acked_seq", c->lost[i].seq);
		sb_json_u64(j, "found_seq", c->lost[i].found_seq);
		sb_json_u64(j, "ack_to_cut_ns", c->lost[i].ack_to_cut_ns);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_arr_open(j, "ack_to_cut_histogram");
	for (int i = 0; i < SB_SPO_HIST_N; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "bucket", sb_spo_hist_label[i]);
		sb_json_u64(j, "count", c->hist[i]);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

void sb_spo_check_json(struct sb_json *j, const struct sb_spo_check *c)
{
	sb_json_str(j, "phase", "check");
	header_json(j, &c->h);
	sb_json_obj_open(j, "journal");
	sb_json_u64(j, "writes", c->writes);
	sb_json_u64(j, "acknowledged", c->acked);
	sb_json_bool(j, "cut_recorded", c->cut_known);
	sb_json_u64(j, "cut_ns", c->t_cut);
	sb_json_bool(j, "torn_last_line", c->torn_tail);
	sb_json_obj_close(j);
	sb_json_u64(j, "blocks", c->blocks);
	sb_json_u64(j, "canary_blocks", c->canary_blocks);
	if (c->short_target)
		sb_json_u64(j, "target_size", c->target_size);
	else
		sb_json_null(j, "target_size");
	sb_json_u64(j, "missing_blocks", c->missing_blocks);
	sb_json_obj_open(j, "classes");
	for (int i = 0; i < SB_SPO_NCLASS; i++)
		sb_json_u64(j, sb_spo_class_name(i), c->count[i]);
	sb_json_obj_close(j);
	sb_json_u64(j, "allow_torn", c->allow_torn);
	sb_json_u64(j, "torn_allowed", c->torn_allowed);
	lists_json(j, c);
	sb_json_bool(j, "pass", c->pass);
	sb_json_arr_open(j, "recommendations");
	for (unsigned i = 0; i < c->nrec; i++)
		sb_json_str(j, NULL, c->rec[i]);
	sb_json_arr_close(j);
}

static void extra_json(struct sb_json *j, const void *ctx)
{
	sb_spo_check_json(j, ctx);
}

void sb_results_spo(struct sb_results *res, const struct sb_spo_check *c)
{
	res->extra_key = sb_section_name(SB_SECTION_SPO);
	res->extra_json = extra_json;
	res->extra_ctx = c;
}
