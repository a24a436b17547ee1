/* needs: none */
/* The PTS matrices (METHODS.md 3.2-3.5) as planned: the loops' order (mix
 * outer from 100/0, block size inner from 1024k), the tracked cell, the
 * fixed QD1 T1 of the latency test, throughput as one test per block size,
 * 0.5k left out on 4 KiB-sector devices, the deviations the options make,
 * and a test that stops at the first steady window or at its round limit
 * (round figures made by hand). */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#define GiB (1ull << 30)

static void iops_matrix_order(void **state)
{
	(void)state;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char msg[256];
	sb_pts_opts_default(&o);
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "write through", msg, sizeof(msg)), 0);
	assert_int_equal(r.nparts, 1);
	const struct sb_pts_part *p = &r.parts[0];
	assert_int_equal(p->ncells, 56);
	assert_int_equal(p->cells[0].read_pct, 100);
	assert_int_equal(p->cells[0].bs, 1u << 20);
	assert_int_equal(p->cells[7].bs, 512);
	assert_int_equal(p->cells[8].read_pct, 95);
	assert_int_equal(p->cells[55].read_pct, 0);
	/* 0/100 is the 7th mix, 4k the 7th block size: 6 * 8 + 6 */
	assert_int_equal(p->track_cell, 54);
	assert_int_equal(p->cells[54].bs, 4096);
	assert_int_equal(r.region_bytes, 8 * GiB);
	assert_int_equal(r.ndeviations, 0); /* PTS as written, cache off */
	struct sb_job_opts j;
	sb_pts_cell_job(&r, p, 54, &j);
	assert_int_equal(j.rw, SB_RW_RANDWRITE);
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.iodepth, 32);
	assert_int_equal(j.runtime_ns, 60000000000ull);
	assert_true(j.time_based && j.direct);
	sb_pts_cell_job(&r, p, 10, &j); /* 95/5 64k */
	assert_int_equal(j.rw, SB_RW_RANDRW);
	assert_int_equal(j.rwmixread, 95);
	sb_pts_precondition_job(&r, &j);
	assert_int_equal(j.rw, SB_RW_WRITE);
	assert_int_equal(j.bs, 128u << 10);
	assert_int_equal(j.size, 8 * GiB);
	sb_pts_result_free(&r);
}

static void other_tests(void **state)
{
	(void)state;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char msg[256];
	sb_pts_opts_default(&o);
	o.tests = (1u << SB_PTS_NTESTS) - 1;
	o.threads = 4;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 4096, "write back", msg, sizeof(msg)), 0);
	assert_int_equal(r.nparts, 5);		 /* iops, throughput x2, latency, wsat */
	assert_int_equal(r.parts[0].ncells, 49); /* no 0.5k on a 4Kn device */
	assert_string_equal(r.parts[1].name, "throughput-1024k");
	assert_string_equal(r.parts[2].name, "throughput-128k");
	assert_int_equal(r.parts[2].ncells, 2);
	assert_int_equal(r.parts[2].cells[0].read_pct, 100);
	assert_int_equal(r.parts[2].track_cell, 1);
	assert_int_equal(r.parts[2].track, SB_PTS_M_WRITE_BW);
	assert_false(r.parts[2].random);
	assert_int_equal(r.parts[3].ncells, 6); /* 3 mixes x 8k, 4k */
	assert_int_equal(r.parts[3].threads, 1);
	assert_int_equal(r.parts[3].iodepth, 1);
	assert_int_equal(r.parts[3].track, SB_PTS_M_LAT_MEAN);
	assert_int_equal(r.parts[4].ncells, 1);
	assert_int_equal(r.parts[4].threads, 4);
	/* 0.5k left out, and the enterprise cache is on */
	assert_int_equal(r.ndeviations, 2);
	assert_non_null(strstr(r.deviations[0], "0.5k left out"));
	assert_non_null(strstr(r.deviations[1], "volatile write cache write back"));
	sb_pts_result_free(&r);
}

static void options_deviate(void **state)
{
	(void)state;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char msg[256];
	sb_pts_opts_default(&o);
	o.round_ns = 1000000000ull;
	o.active_pct = 50;
	o.precondition = 0;
	o.bs[0] = 4096;
	o.nbs = 1;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "write through", msg, sizeof(msg)), 0);
	assert_int_equal(r.region_bytes, 4 * GiB);
	assert_int_equal(r.parts[0].ncells, 7);
	const char *want[] = { "iops block sizes 4k only", "round time 1.00 s instead of 60 s",
			       "active range 50% instead of 100%",
			       "no workload-independent preconditioning" };
	assert_int_equal(r.ndeviations, 4);
	for (unsigned i = 0; i < 4; i++)
		assert_string_equal(r.deviations[i], want[i]);
	o.bs[0] = 65536; /* the tracked 4k missing */
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--bs: the iops test tracks 4k"));
	o.nbs = 0;
	o.mix[0] = 100;
	o.nmix = 1;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--mix"));
	o.nmix = 0;
	assert_int_equal(sb_pts_plan(&r, &o, 1u << 20, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--active-range"));
}

/* PTS-C (METHODS.md 3.7): the random tests with rounds confined to 2048
 * segments of amount / 2048 bytes, aligned to the largest block size;
 * throughput and WSAT not; the amount's deviations and refusals. */
static void client_segments(void **state)
{
	(void)state;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char msg[256];
	sb_pts_opts_default(&o);
	o.profile = SB_PTS_CLIENT;
	o.tests = (1u << SB_PTS_NTESTS) - 1;
	o.active_pct = 75;
	o.seed = 42;
	assert_int_equal(sb_pts_plan(&r, &o, 64 * GiB, 512, "write back", msg, sizeof(msg)), 0);
	assert_int_equal(r.segs.n, 2048);
	assert_int_equal(r.segs.seg_bytes, 4u << 20); /* 8 GiB / 2048 */
	assert_int_equal(r.segs.align, 1u << 20);     /* the IOPS test's 1024k */
	assert_int_equal(sb_segments_check(&r.segs, 1u << 20, r.region_bytes), 0);
	assert_int_equal(r.ndeviations, 0); /* 75%, 8 GiB, cache on: PTS-C as written */
	struct sb_job_opts j;
	for (unsigned i = 0; i < r.nparts; i++) {
		const struct sb_pts_part *p = &r.parts[i];
		const int want = p->test == SB_PTS_IOPS || p->test == SB_PTS_LATENCY;
		assert_int_equal(p->segmented, want);
		sb_pts_cell_job(&r, p, 0, &j);
		assert_true(want ? j.segments == &r.segs : j.segments == NULL);
	}
	sb_pts_result_free(&r);
	/* latency alone: aligned to its 8k; a small amount is a deviation */
	o.tests = 1u << SB_PTS_LATENCY;
	o.ar_amount = 64u << 20;
	assert_int_equal(sb_pts_plan(&r, &o, 1 * GiB, 512, "write back", msg, sizeof(msg)), 0);
	assert_int_equal(r.segs.seg_bytes, 32u << 10);
	assert_int_equal(r.segs.align, 8u << 10);
	assert_int_equal(r.ndeviations, 1);
	assert_string_equal(r.deviations[0],
			    "active-range amount 64.0 MiB instead of 8 GiB or 16 GiB");
	sb_pts_result_free(&r);
	/* 8 GiB of segments 1 MiB apart do not fit in 75% of 8 GiB: asked
	 * for, refused; by default, half the active range (6 GiB / 2 in 2048
	 * segments of 1 MiB multiples: 1 MiB each), a deviation */
	o.tests = 1u << SB_PTS_IOPS;
	o.ar_amount = 8 * GiB;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--active-range-amount: 2048 segments of 4.00 MiB"));
	o.ar_amount = 0;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), 0);
	assert_int_equal(r.segs.n, 2048);
	assert_int_equal(r.segs.seg_bytes, 1u << 20);
	assert_non_null(strstr(r.deviations[r.ndeviations - 1], "active-range amount 2.00 GiB"));
	sb_pts_result_free(&r);
	/* too small even for one 1 MiB unit per segment */
	assert_int_equal(sb_pts_plan(&r, &o, 2 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--profile=client: the active range"));
	/* 2048 x 12k: segments not a multiple of 1024k */
	o.ar_amount = 2048 * 12288;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--active-range-amount:"));
	/* not for PTS-E */
	o.profile = SB_PTS_ENTERPRISE;
	o.ar_amount = 16 * GiB;
	assert_int_equal(sb_pts_plan(&r, &o, 64 * GiB, 512, "", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--profile=client"));
}

/* round figures by hand: only the tracked cell's IOPS matter */
static int feed(struct sb_pts_result *r, struct sb_pts_part *p, double iops)
{
	struct sb_pts_fig *row = sb_pts_round_begin(p);
	assert_non_null(row);
	row[p->track_cell].iops = iops;
	return sb_pts_round_end(r, p);
}

static void stops_when_steady(void **state)
{
	(void)state;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char msg[256];
	sb_pts_opts_default(&o);
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), 0);
	struct sb_pts_part *p = &r.parts[0];
	const double y[] = { 300, 250, 200, 170, 150, 140, 130, 104, 98, 101, 97 };
	for (unsigned i = 0; i < SB_ARRAY_SIZE(y); i++)
		assert_int_equal(feed(&r, p, y[i]), 0);
	assert_int_equal(feed(&r, p, 100), 1); /* rounds 8..12 are steady */
	sb_pts_part_close(p);
	assert_true(p->ss.reached);
	assert_int_equal(p->ss.first, 8);
	assert_int_equal(p->ss.last, 12);
	struct sb_pts_fig avg;
	sb_pts_window_average(p, p->track_cell, &avg);
	assert_true(avg.iops > 99.999999 && avg.iops < 100.000001);
	sb_pts_result_free(&r);

	o.max_rounds = 6;
	assert_int_equal(sb_pts_plan(&r, &o, 8 * GiB, 512, "", msg, sizeof(msg)), 0);
	p = &r.parts[0];
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(feed(&r, p, 100.0 + 10 * i), 0);
	assert_int_equal(feed(&r, p, 150), 1); /* the limit */
	sb_pts_part_close(p);
	assert_false(p->ss.reached);
	assert_int_equal(p->ss.first, 2);
	assert_int_equal(p->ss.last, 6);
	sb_pts_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(iops_matrix_order), cmocka_unit_test(other_tests),
		cmocka_unit_test(options_deviate),   cmocka_unit_test(client_segments),
		cmocka_unit_test(stops_when_steady),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
