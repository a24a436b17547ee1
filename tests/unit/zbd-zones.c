/* needs: none */
/*
 * fio's zonemode=zbd emulated (lib/run/zbd.c), without I/O: writes go at
 * their zone's write pointer, each zone written from its start; a full
 * zone is reset before it is written again; max_open_zones and
 * job_max_open_zones keep writes within that many zones; reads with
 * read_beyond_wp=0 stay below the write pointers and end where nothing is
 * written; trims reset zones; zone_reset_threshold/frequency reset zones
 * as writes pass the threshold; bad geometries are refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/run/zbd.h"

#define ZS (1u << 20)
#define BS 65536u

static const uint32_t bs3[3] = { BS, BS, BS };

static struct sb_zbd *mk(uint64_t file, uint64_t zs, uint64_t cap, unsigned max_open)
{
	struct sb_zbd *z;
	assert_int_equal(sb_zbd_create(&z, file, zs, cap, max_open), 0);
	return z;
}

static void job(struct sb_zbd_job *j, struct sb_zbd *z, const struct sb_zbd_opts *o,
		uint64_t off, uint64_t size, int random)
{
	char msg[160];
	struct sb_zbd_opts none = { 0 };
	assert_int_equal(sb_zbd_job_init(j, z, o ? o : &none, off, size, bs3, random, 0, msg,
					 sizeof(msg)),
			 0);
}

static int io(struct sb_zbd_job *j, int ddir, uint64_t *off, uint32_t *len)
{
	int d = ddir;
	const int r = sb_zbd_adjust(j, &d, off, len);
	assert_int_equal(d, ddir);
	return r;
}

/* Writes at random offsets land at their zone's write pointer; a zone is
 * written from its start, in order; 16 writes per zone fill 8 zones
 * exactly, and the next write to a full zone resets it. */
static void test_write_at_wp(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(8 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_job j;
	job(&j, z, NULL, 0, 8 * (uint64_t)ZS, 1);
	uint64_t expect[8];
	for (int i = 0; i < 8; i++)
		expect[i] = (uint64_t)i * ZS;
	/* each zone chosen 16 times, in a scrambled order */
	for (unsigned k = 0; k < 128; k++) {
		const unsigned zi = (k * 5 + k / 8) % 8;
		uint64_t off = (uint64_t)zi * ZS + (k * 12345u) % ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
		assert_int_equal(len, BS);
		assert_int_equal(off, expect[zi]);
		expect[zi] += BS;
	}
	for (int i = 0; i < 8; i++)
		assert_int_equal(z->z[i].wp, (uint64_t)(i + 1) * ZS);
	assert_int_equal(z->with_data, 8 * (uint64_t)ZS);
	assert_int_equal(j.resets, 0);
	/* zone 3 is full: written again from its start, after a reset */
	uint64_t off = 3 * (uint64_t)ZS + 777;
	uint32_t len = BS;
	assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 3 * (uint64_t)ZS);
	assert_int_equal(j.resets, 1);
	assert_int_equal(z->with_data, 7 * (uint64_t)ZS + BS);
	sb_zbd_free(z);
}

/* zonecapacity: the zone is full once less than a block is left below
 * its capacity (not its size) */
static void test_capacity(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(4 * (uint64_t)ZS, ZS, ZS - BS / 2, 0);
	struct sb_zbd_job j;
	job(&j, z, NULL, 0, 4 * (uint64_t)ZS, 0);
	uint64_t off = 0;
	uint32_t len;
	for (unsigned k = 0; k < 15; k++) {
		len = BS;
		off = 0;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	}
	len = BS;
	off = 0;
	/* half a block left, less than the smallest: the zone is full, reset */
	assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 0);
	assert_int_equal(j.resets, 1);
	sb_zbd_free(z);
}

/* The write pointers account for the data: each zone's below its
 * capacity, their sum what the zones hold */
static void consistent(const struct sb_zbd *z)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < z->nzones; i++) {
		assert_true(z->z[i].wp >= z->z[i].start && z->z[i].wp <= z->z[i].start + z->cap);
		sum += z->z[i].wp - z->z[i].start;
	}
	assert_int_equal(sum, z->with_data);
}

/* max_open_zones=2: writes spread over 8 zones go to 2 open zones at a
 * time; a zone closes once full and another opens (a write whose offset
 * falls in a full zone opens it again, reset, as fio's) */
static void test_max_open(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(8 * (uint64_t)ZS, ZS, 0, 2);
	struct sb_zbd_job j;
	job(&j, z, NULL, 0, 8 * (uint64_t)ZS, 1);
	for (unsigned k = 0; k < 128; k++) {
		uint64_t off = (uint64_t)((k * 3) % 8) * ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
		assert_true(z->nopen <= 2);
		unsigned partial = 0;
		for (int i = 0; i < 8; i++)
			partial += z->z[i].wp != z->z[i].start && z->z[i].wp < z->z[i].start + ZS;
		assert_true(partial <= 2);
		assert_int_equal(off % BS, 0);
	}
	assert_true(j.resets > 0);
	consistent(z);
	sb_zbd_free(z);
}

/* job_max_open_zones=1 under max_open_zones=4: one zone at a time */
static void test_job_max_open(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(8 * (uint64_t)ZS, ZS, 0, 4);
	struct sb_zbd_opts o = { .job_max_open = 1 };
	struct sb_zbd_job j;
	job(&j, z, &o, 0, 8 * (uint64_t)ZS, 1);
	for (unsigned k = 0; k < 40; k++) {
		uint64_t off = (uint64_t)(k % 8) * ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
		assert_true(j.nopen <= 1);
		unsigned partial = 0;
		for (int i = 0; i < 8; i++)
			partial += z->z[i].wp != z->z[i].start && z->z[i].wp < z->z[i].start + ZS;
		assert_true(partial <= 1);
	}
	consistent(z);
	/* without a file's limit, a job's is refused */
	struct sb_zbd *z0 = mk(8 * (uint64_t)ZS, ZS, 0, 0);
	char msg[160];
	assert_int_equal(sb_zbd_job_init(&j, z0, &o, 0, 8 * (uint64_t)ZS, bs3, 1, 0, msg,
					 sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "max_open_zones"));
	sb_zbd_free(z0);
	sb_zbd_free(z);
}

/* read_beyond_wp=0: reads stay below the write pointers; a sequential
 * read goes on in the next zone with data and ends where none is left;
 * read_beyond_wp=1 reads anywhere */
static void test_read_below_wp(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(4 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_job w, r, rr, rb;
	job(&w, z, NULL, 0, 4 * (uint64_t)ZS, 0);
	/* zone 0: 3 blocks, zone 2: 1 block; zones 1 and 3 empty */
	for (unsigned k = 0; k < 4; k++) {
		uint64_t off = k < 3 ? 0 : 2 * (uint64_t)ZS;
		uint32_t len = BS;
		assert_int_equal(io(&w, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	}
	job(&r, z, NULL, 0, 4 * (uint64_t)ZS, 0);
	uint64_t pos = 0, got = 0;
	for (;;) {
		uint64_t off = pos;
		uint32_t len = BS;
		if (io(&r, SB_DDIR_READ, &off, &len) != SB_ZBD_ACCEPT)
			break;
		const uint32_t zi = sb_zbd_zone_of(z, off);
		assert_true(off + len <= z->z[zi].wp);
		got += len;
		pos = off + len;
	}
	assert_int_equal(got, 4 * (uint64_t)BS);
	/* a larger read is cut at the write pointer */
	uint64_t off = 2 * (uint64_t)ZS;
	uint32_t len = 4 * BS;
	assert_int_equal(io(&r, SB_DDIR_READ, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 2 * (uint64_t)ZS);
	assert_int_equal(len, BS);
	/* random reads of an empty zone move to the nearest zone with data */
	job(&rr, z, NULL, 0, 4 * (uint64_t)ZS, 1);
	off = 3 * (uint64_t)ZS + 5 * BS;
	len = BS;
	assert_int_equal(io(&rr, SB_DDIR_READ, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 2 * (uint64_t)ZS);
	off = 1 * (uint64_t)ZS + 9 * BS;
	len = BS;
	assert_int_equal(io(&rr, SB_DDIR_READ, &off, &len), SB_ZBD_ACCEPT);
	assert_true(off + len <= z->z[sb_zbd_zone_of(z, off)].wp);
	/* nothing written anywhere: the read ends the job */
	struct sb_zbd *e = mk(4 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_job er;
	job(&er, e, NULL, 0, 4 * (uint64_t)ZS, 0);
	off = 0;
	len = BS;
	assert_int_equal(io(&er, SB_DDIR_READ, &off, &len), SB_ZBD_EOF);
	/* read_beyond_wp=1: as asked */
	struct sb_zbd_opts o = { .read_beyond_wp = 1 };
	job(&rb, e, &o, 0, 4 * (uint64_t)ZS, 0);
	off = 3 * (uint64_t)ZS;
	len = BS;
	assert_int_equal(io(&rb, SB_DDIR_READ, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 3 * (uint64_t)ZS);
	/* a mixed job's first read of an empty target writes */
	struct sb_zbd_job m;
	char msg[160];
	struct sb_zbd_opts none = { 0 };
	assert_int_equal(sb_zbd_job_init(&m, e, &none, 0, 4 * (uint64_t)ZS, bs3, 1, 1, msg,
					 sizeof(msg)),
			 0);
	int d = SB_DDIR_READ;
	off = 0;
	len = BS;
	assert_int_equal(sb_zbd_adjust(&m, &d, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(d, SB_DDIR_WRITE);
	sb_zbd_free(e);
	sb_zbd_free(z);
}

/* a trim resets its zone; a random trim of an empty zone moves to one
 * with data, and with none left the job ends */
static void test_trim_resets(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(4 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_job w, t;
	job(&w, z, NULL, 0, 4 * (uint64_t)ZS, 1);
	uint64_t off = 2 * (uint64_t)ZS;
	uint32_t len = BS;
	assert_int_equal(io(&w, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	job(&t, z, NULL, 0, 4 * (uint64_t)ZS, 1);
	off = 0;
	len = ZS;
	assert_int_equal(io(&t, SB_DDIR_TRIM, &off, &len), SB_ZBD_ACCEPT);
	assert_int_equal(off, 2 * (uint64_t)ZS);
	assert_int_equal(z->z[2].wp, z->z[2].start);
	assert_int_equal(z->with_data, 0);
	assert_int_equal(t.resets, 1);
	off = 0;
	assert_int_equal(io(&t, SB_DDIR_TRIM, &off, &len), SB_ZBD_EOF);
	sb_zbd_free(z);
}

/* zone_reset_threshold=0.5, zone_reset_frequency=0.25: once half the
 * region holds data, every 4th write resets its zone first */
static void test_reset_threshold(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(4 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_opts o = { .reset_threshold = 0.5, .reset_frequency = 0.25 };
	struct sb_zbd_job j;
	job(&j, z, &o, 0, 4 * (uint64_t)ZS, 1);
	for (unsigned k = 0; k < 32; k++) { /* 2 zones full: the threshold */
		uint64_t off = (uint64_t)(k % 2) * ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	}
	assert_int_equal(j.resets, 0);
	for (unsigned k = 0; k < 4; k++) {
		uint64_t off = 3 * (uint64_t)ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
	}
	/* the 4th write past the threshold reset zone 3 (it held 3 blocks) */
	assert_int_equal(j.resets, 1);
	assert_int_equal(z->z[3].wp, z->z[3].start + BS);
	sb_zbd_free(z);
}

/* a region of zones [2, 4) of the file: writes stay there; a region
 * holding no whole zone is refused; bad geometries are refused */
static void test_region_and_refusals(void **state)
{
	(void)state;
	struct sb_zbd *z = mk(8 * (uint64_t)ZS, ZS, 0, 0);
	struct sb_zbd_job j;
	job(&j, z, NULL, 2 * (uint64_t)ZS, 2 * (uint64_t)ZS, 1);
	assert_int_equal(j.zmin, 2);
	assert_int_equal(j.zmax, 4);
	for (unsigned k = 0; k < 32; k++) {
		uint64_t off = 2 * (uint64_t)ZS + (k % 2) * (uint64_t)ZS;
		uint32_t len = BS;
		assert_int_equal(io(&j, SB_DDIR_WRITE, &off, &len), SB_ZBD_ACCEPT);
		assert_true(off >= 2 * (uint64_t)ZS && off + len <= 4 * (uint64_t)ZS);
	}
	char msg[160];
	struct sb_zbd_opts none = { 0 };
	assert_int_equal(sb_zbd_job_init(&j, z, &none, ZS / 4, ZS / 2, bs3, 1, 0, msg,
					 sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "no whole zone"));
	sb_zbd_free(z);
	struct sb_zbd *bad;
	assert_int_equal(sb_zbd_create(&bad, 8 * (uint64_t)ZS, 256, 0, 0), -EINVAL);
	assert_int_equal(sb_zbd_create(&bad, 8 * (uint64_t)ZS, ZS, ZS + 1, 0), -EINVAL);
	assert_int_equal(sb_zbd_create(&bad, ZS - 1, ZS, 0, 0), -EINVAL);
	assert_int_equal(sb_zbd_create(&bad, 8 * (uint64_t)ZS, ZS, 0, SB_ZBD_MAX_OPEN + 1),
			 -EINVAL);
	/* a file not a multiple of the zone size: its last zone passes its end */
	assert_int_equal(sb_zbd_create(&bad, 5 * (uint64_t)ZS / 2, ZS, 0, 0), 0);
	assert_int_equal(bad->nzones, 3);
	sb_zbd_free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_at_wp),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_max_open),
		cmocka_unit_test(test_job_max_open),
		cmocka_unit_test(test_read_below_wp),
		cmocka_unit_test(test_trim_resets),
		cmocka_unit_test(test_reset_threshold),
		cmocka_unit_test(test_region_and_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
