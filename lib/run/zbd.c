/*
 * fio's zonemode=zbd emulated on a target without zones (zbd.h): the
 * zones' write pointers, open zones and resets: the behaviour of fio
 * 3.33's zbd.c (read to learn it), in storbench's own code.
 */
#include "lib/run/zbd.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_zbd_create(struct sb_zbd **out, uint64_t file_size, uint64_t zone_size, uint64_t cap,
		  unsigned max_open)
{
	*out = NULL;
	if (!cap)
		cap = zone_size;
	if (zone_size < 512 || cap > zone_size || file_size < zone_size ||
	    max_open > SB_ZBD_MAX_OPEN || (file_size - 1) / zone_size + 1 > UINT32_MAX - 1)
		return -EINVAL;
	struct sb_zbd *z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->nzones = (uint32_t)((file_size - 1) / zone_size + 1);
	z->z = calloc((size_t)z->nzones + 1, sizeof(*z->z));
	z->open = calloc(max_open ? max_open : 1, sizeof(*z->open));
	if (!z->z || !z->open || pthread_mutex_init(&z->lock, NULL)) {
		free(z->z);
		free(z->open);
		free(z);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i <= z->nzones; i++)
		z->z[i].start = z->z[i].wp = (uint64_t)i * zone_size;
	z->zone_size = zone_size;
	z->cap = cap;
	z->max_open = max_open;
	z->write_cnt = UINT32_MAX;
	*out = z;
	return 0;
}

void sb_zbd_free(struct sb_zbd *z)
{
	if (!z)
		return;
	pthread_mutex_destroy(&z->lock);
	free(z->z);
	free(z->open);
	free(z);
}

uint32_t sb_zbd_zone_of(const struct sb_zbd *z, uint64_t off)
{
	const uint64_t i = off / z->zone_size;
	return i < z->nzones ? (uint32_t)i : z->nzones;
}

static uint64_t cap_end(const struct sb_zbd *z, uint32_t i)
{
	return z->z[i].start + z->cap;
}

/* fewer than need bytes left below the zone's capacity */
static int full(const struct sb_zbd *z, uint32_t i, uint64_t need)
{
	return z->z[i].wp + need > cap_end(z, i);
}

static void close_zone(struct sb_zbd_job *j, uint32_t i)
{
	struct sb_zbd *z = j->zbd;
	if (!z->z[i].open)
		return;
	z->z[i].open = 0;
	for (unsigned k = 0; k < z->nopen; k++)
		if (z->open[k] == i) { /* in order: a pick by place stays as fio's */
			memmove(z->open + k, z->open + k + 1, (z->nopen - k - 1) * sizeof(*z->open));
			z->nopen--;
			break;
		}
	if (j->nopen)
		j->nopen--;
}

static void reset_zone(struct sb_zbd_job *j, uint32_t i)
{
	struct sb_zbd *z = j->zbd;
	struct sb_zbd_zone *zn = &z->z[i];
	if (zn->wp == zn->start)
		return;
	z->with_data -= zn->wp - zn->start;
	zn->wp = zn->start;
	j->resets++;
}

/* The zone opened for writing (or open already with room): 1, else 0
 * (a limit reached, or open and about to be full) */
static int open_zone(struct sb_zbd_job *j, uint32_t i)
{
	struct sb_zbd *z = j->zbd;
	if (!z->max_open)
		return 1;
	if (z->z[i].open)
		return z->z[i].wp < cap_end(z, i);
	if ((j->o.job_max_open && j->nopen >= j->o.job_max_open) || z->nopen >= z->max_open)
		return 0;
	z->open[z->nopen++] = i;
	z->z[i].open = 1;
	j->nopen++;
	return 1;
}

/* Which of the open zones a request at off goes to: its place in the
 * region, as a share of the open zones */
static unsigned pick_open(const struct sb_zbd_job *j, uint64_t off)
{
	const unsigned n = j->zbd->nopen;
	const uint64_t rel = off - j->off;
	if (!j->size || !n)
		return 0;
	const unsigned k = (unsigned)((double)rel / (double)j->size * n);
	return k < n ? k : n - 1;
}

static uint32_t clamp_zone(const struct sb_zbd_job *j, uint32_t i)
{
	return i < j->zmin ? j->zmin : i >= j->zmax ? j->zmax - 1 : i;
}

/* A write whose zone is not open: an open zone of the region with room,
 * or the next zone that can be opened (wrapping at the region's end), or
 * any open zone with room; UINT32_MAX: none */
static uint32_t to_open_zone(struct sb_zbd_job *j, uint64_t off)
{
	struct sb_zbd *z = j->zbd;
	const uint64_t need = j->min_bs[SB_DDIR_WRITE];
	uint32_t i;
	if (!z->max_open) {
		i = clamp_zone(j, sb_zbd_zone_of(z, off));
		if (!full(z, i, need))
			return i;
	} else {
		i = clamp_zone(j, z->nopen ? z->open[pick_open(j, off)] : j->zmin);
		if (z->nopen) {
			const unsigned first = pick_open(j, off);
			uint32_t cand = UINT32_MAX;
			for (unsigned k = 0; k < z->nopen && cand == UINT32_MAX; k++) {
				const uint32_t t = z->open[(first + k) % z->nopen];
				if (t >= j->zmin && t < j->zmax)
					cand = t;
			}
			if (cand == UINT32_MAX)
				return UINT32_MAX;
			i = cand;
			if (!full(z, i, need))
				return i;
		}
	}
	for (uint64_t n = j->size / z->zone_size; n > 0; n--) {
		if (++i >= j->zmax || z->z[i].start - j->off >= j->size)
			i = j->zmin;
		if (z->z[i].open)
			continue;
		if (open_zone(j, i))
			return i;
	}
	for (unsigned k = 0; k < z->nopen; k++) {
		const uint32_t t = z->open[k];
		if (t >= j->zmin && t < j->zmax && !full(z, t, need))
			return t;
	}
	return UINT32_MAX;
}

/* A zone near i with at least need bytes written: the next ones, and for
 * random I/O the ones before too, nearest first; UINT32_MAX: none */
static uint32_t find_data(const struct sb_zbd_job *j, uint32_t i, uint64_t need)
{
	const struct sb_zbd *z = j->zbd;
	for (uint32_t up = i + 1, down = i; up < j->zmax || (j->random && down > j->zmin); up++) {
		if (up < j->zmax) {
			if (z->z[up].start + need <= z->z[up].wp)
				return up;
		} else if (!j->random) {
			break;
		}
		if (j->random && down > j->zmin) {
			down--;
			if (z->z[down].start + need <= z->z[down].wp)
				return down;
		}
	}
	return UINT32_MAX;
}

int sb_zbd_job_init(struct sb_zbd_job *j, struct sb_zbd *z, const struct sb_zbd_opts *o,
		    uint64_t off, uint64_t size, const uint32_t min_bs[3], int random, int mixed,
		    char *msg, size_t msglen)
{
	*j = (struct sb_zbd_job){ .zbd = z, .off = off, .size = size, .random = random,
				  .mixed = mixed, .o = *o };
	for (int d = 0; d < 3; d++)
		j->min_bs[d] = min_bs[d] ? min_bs[d] : 512;
	j->zmin = sb_zbd_zone_of(z, off);
	j->zmax = sb_zbd_zone_of(z, off + size);
	if (j->zmax <= j->zmin) {
		snprintf(msg, msglen,
			 "zonemode=zbd: the region (offset %" PRIu64 ", size %" PRIu64
			 ") holds no whole zone of %" PRIu64 " bytes",
			 off, size, z->zone_size);
		return -EINVAL;
	}
	if (o->job_max_open && !z->max_open) {
		snprintf(msg, msglen,
			 "job_max_open_zones: needs max_open_zones (a limit for the file)");
		return -EINVAL;
	}
	pthread_mutex_lock(&z->lock);
	uint64_t data = 0;
	for (uint32_t i = j->zmin; i < j->zmax; i++)
		data += z->z[i].wp - z->z[i].start;
	z->with_data = data;
	const double f = o->reset_frequency;
	z->write_cnt = f > 0 ? (uint32_t)SB_MIN(1.0 / f, (double)UINT32_MAX) : UINT32_MAX;
	pthread_mutex_unlock(&z->lock);
	return 0;
}

/* the reset frequency's count down: 1 when this write resets its zone */
static int reset_due(struct sb_zbd_job *j)
{
	struct sb_zbd *z = j->zbd;
	if (!(j->o.reset_frequency > 0) ||
	    (double)z->with_data < (double)j->size * j->o.reset_threshold)
		return 0;
	if (z->write_cnt)
		z->write_cnt--;
	if (z->write_cnt)
		return 0;
	const double f = j->o.reset_frequency;
	z->write_cnt = (uint32_t)SB_MIN(1.0 / f, (double)UINT32_MAX);
	return 1;
}

static int do_write(struct sb_zbd_job *j, uint64_t *off, uint32_t *len)
{
	struct sb_zbd *z = j->zbd;
	const uint64_t mb = j->min_bs[SB_DDIR_WRITE];
	if (*len > z->zone_size)
		return SB_ZBD_EOF;
	uint32_t i = clamp_zone(j, sb_zbd_zone_of(z, *off));
	if (!open_zone(j, i) && (i = to_open_zone(j, *off)) == UINT32_MAX)
		return SB_ZBD_EOF;
	if (reset_due(j) || full(z, i, mb))
		reset_zone(j, i);
	if (z->cap < mb)
		return SB_ZBD_EOF;
	struct sb_zbd_zone *zn = &z->z[i];
	uint64_t n = SB_MIN((uint64_t)*len, cap_end(z, i) - zn->wp) / mb * mb;
	if (n < mb)
		return SB_ZBD_EOF;
	*off = zn->wp;
	*len = (uint32_t)n;
	zn->wp += n;
	z->with_data += n;
	if (zn->wp >= cap_end(z, i))
		close_zone(j, i); /* full: fio closes it once the write is done */
	return SB_ZBD_ACCEPT;
}

static int do_read(struct sb_zbd_job *j, uint64_t *off, uint32_t *len)
{
	const struct sb_zbd *z = j->zbd;
	const uint64_t mb = j->min_bs[SB_DDIR_READ];
	const uint32_t orig = sb_zbd_zone_of(z, *off);
	uint32_t i = orig;
	if (i >= z->nzones)
		return SB_ZBD_EOF;
	uint64_t range = z->z[i].wp - z->z[i].start;
	if (range < mb || (!j->random && *off + mb > z->z[i].wp)) {
		if ((i = find_data(j, i, mb)) == UINT32_MAX)
			return SB_ZBD_EOF;
		range = z->z[i].wp - z->z[i].start;
		if (!j->random)
			*off = z->z[i].start;
	}
	if (range <= *len)
		*off = z->z[i].start;
	else if (j->random)
		*off = z->z[i].start + (*off - z->z[orig].start) % (range - *len) / mb * mb;
	const uint64_t n = SB_MIN((uint64_t)*len, z->z[i].wp - *off) / mb * mb;
	if (n < mb)
		return SB_ZBD_EOF;
	*len = (uint32_t)n;
	return SB_ZBD_ACCEPT;
}

static int do_trim(struct sb_zbd_job *j, uint64_t *off)
{
	const struct sb_zbd *z = j->zbd;
	uint32_t i = sb_zbd_zone_of(z, *off);
	if (i >= z->nzones)
		return SB_ZBD_EOF;
	if (j->random && z->z[i].wp == z->z[i].start) {
		if ((i = find_data(j, i, 1)) == UINT32_MAX)
			return SB_ZBD_EOF;
		*off = z->z[i].start;
	}
	if (*off != z->z[i].start)
		return SB_ZBD_EOF;
	reset_zone(j, i);
	return SB_ZBD_ACCEPT;
}

int sb_zbd_adjust(struct sb_zbd_job *j, int *ddir, uint64_t *off, uint32_t *len)
{
	struct sb_zbd *z = j->zbd;
	int r = SB_ZBD_ACCEPT;
	if (*ddir == SB_DDIR_READ && j->o.read_beyond_wp)
		return SB_ZBD_ACCEPT;
	pthread_mutex_lock(&z->lock);
	if (*ddir == SB_DDIR_READ && j->mixed && !z->with_data && !j->o.read_beyond_wp)
		*ddir = SB_DDIR_WRITE;
	switch (*ddir) {
	case SB_DDIR_WRITE: r = do_write(j, off, len); break;
	case SB_DDIR_READ: r = do_read(j, off, len); break;
	case SB_DDIR_TRIM: r = do_trim(j, off); break;
	default: break;
	}
	pthread_mutex_unlock(&z->lock);
	return r;
}
