/*
 * spo --cycles's log written (spo.h; docs/spo.md "Cycles from a controlling
 * host"): its header, a line per cycle that ran to its check, a line per
 * cycle that could not run. spo_cycles_read.c reads each back.
 */
#include "lib/spo/spo.h"
#include "lib/json/json_write.h"

void sb_spo_cycle_rec_of(struct sb_spo_cycle_rec *r, uint64_t n, uint64_t of, uint64_t unix_ns,
			 uint64_t cut_after_ns, int pass, const struct sb_spo_check *c)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->of = of;
	r->unix_ns = unix_ns;
	r->cut_after_ns = cut_after_ns;
	r->pass = pass;
	r->has_counts = r->has_hist = 1;
	r->writes = c->writes;
	r->acked = c->acked;
	memcpy(r->count, c->count, sizeof(r->count));
	memcpy(r->hist, c->hist, sizeof(r->hist));
	for (size_t i = 0; i < c->nlost && i < SB_SPO_CYCLE_LOST_MAX; i++)
		r->lost_ns[r->nlost++] = c->lost[i].ack_to_cut_ns;
}

void sb_spo_cycles_header_json(struct sb_json *j, const struct sb_spo_cycles_header *h)
{
	/* also a log's configuration line, as soak's, for storbench report */
	sb_json_str(j, "type", "config");
	sb_json_str(j, "command", "spo-cycles");
	sb_json_u64(j, "log_version", h->log_version);
	sb_json_str(j, "storbench", h->storbench);
	sb_json_u64(j, "spo_cycles", 1);
	sb_json_str(j, "target", h->target);
	sb_json_u64(j, "cycles", h->cycles);
	sb_json_u64(j, "bs", h->bs);
	sb_json_str(j, "writer", h->writer);
	sb_json_str(j, "check", h->check);
	sb_json_str(j, "cut_cmd", h->cut_cmd);
	sb_json_u64(j, "cut_min_ns", h->cut_min_ns);
	sb_json_u64(j, "cut_max_ns", h->cut_max_ns);
	sb_json_u64(j, "started_unix_ns", h->started_unix_ns);
}

void sb_spo_cycle_json(struct sb_json *j, const struct sb_spo_cycle_rec *r)
{
	sb_json_u64(j, "cycle", r->n);
	sb_json_u64(j, "of", r->of); /* a resumed log may ask for more */
	sb_json_u64(j, "unix_ns", r->unix_ns);
	sb_json_u64(j, "cut_after_ns", r->cut_after_ns);
	sb_json_bool(j, "pass", r->pass);
	/* the cycle's figures from what the check found (its "spo" section) */
	sb_json_u64(j, "writes", r->writes);
	sb_json_u64(j, "acknowledged", r->acked);
	sb_json_obj_open(j, "classes");
	for (int i = 0; i < SB_SPO_NCLASS; i++)
		sb_json_u64(j, sb_spo_class_name(i), r->count[i]);
	sb_json_obj_close(j);
	/* every lost write's bucket, where the list below keeps 100 */
	sb_json_arr_open(j, "ack_to_cut_histogram");
	for (size_t i = 0; i < SB_SPO_HIST_N; i++)
		sb_json_u64(j, NULL, r->hist[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "lost_ack_to_cut_ns");
	for (size_t i = 0; i < r->nlost; i++)
		sb_json_u64(j, NULL, r->lost_ns[i]);
	sb_json_arr_close(j);
}

void sb_spo_cycle_error_json(struct sb_json *j, uint64_t n, const char *why)
{
	sb_json_u64(j, "cycle_error", n);
	sb_json_str(j, "error", why);
}
