/*
 * What storbench meta and bonnie are asked, judged before anything is
 * made: the values of the options that are bonnie++'s own (sizes in MiB,
 * power-of-two chunks, a file size range), the counts together, and the
 * directory the run is to work in.
 */
#include "lib/meta/meta.h"
#include "lib/base/units.h"
#include "lib/target/target.h"
#include "lib/target/cache.h"
#include "lib/base/sysinfo.h"

#include <stdarg.h>
#include <unistd.h>

#define MIB (1ull << 20)

static int size_in(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, uint64_t mult)
{
	return sb_parse_size(v, out) < 0 || *out < lo || *out > hi || (mult && *out % mult)
		       ? -EINVAL
		       : 0;
}

int sb_meta_parse_mib(const char *v, uint64_t *out)
{
	char *end;
	if (*v >= '0' && *v <= '9') {
		errno = 0;
		const unsigned long long n = strtoull(v, &end, 10);
		if (!*end)
			return errno || n > (1ull << 40) ? -EINVAL : (*out = n * MIB, 0);
	}
	return size_in(v, out, 0, UINT64_MAX, MIB);
}

int sb_meta_parse_pow2(const char *v, uint64_t *out)
{
	return size_in(v, out, 256, MIB, 0) || (*out & (*out - 1)) ? -EINVAL : 0;
}

int sb_meta_parse_file_size(const char *v, uint64_t *min, uint64_t *max)
{
	char a[64];
	const char *colon = strchr(v, ':');
	if (!colon)
		return size_in(v, min, 0, 1ull << 30, 0) ? -EINVAL : (*max = *min, 0);
	if ((size_t)(colon - v) >= sizeof(a))
		return -EINVAL;
	snprintf(a, sizeof(a), "%.*s", (int)(colon - v), v);
	if (size_in(a, min, 0, 1ull << 30, 0) || size_in(colon + 1, max, 0, 1ull << 30, 0))
		return -EINVAL;
	return *min <= *max ? 0 : -EINVAL;
}

static int refuse(int e, char *msg, size_t ml, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, ml, fmt, ap);
	va_end(ap);
	return e;
}

int sb_meta_check_counts(uint64_t files, uint64_t size, int dirs_set, uint64_t *dirs,
			 uint64_t threads, char *msg, size_t ml)
{
	if (!files && !size)
		return refuse(-EINVAL, msg, ml,
			      "--files: nothing to do with --files=0 and --size=0");
	if (dirs_set && *dirs < threads)
		return refuse(-EINVAL, msg, ml,
			      "--dirs: %llu directories for %llu threads; each thread needs its "
			      "own (give at least --dirs=%llu)",
			      (unsigned long long)*dirs, (unsigned long long)threads,
			      (unsigned long long)threads);
	if (!dirs_set)
		*dirs = threads;
	if (files && *dirs > files)
		return refuse(-EINVAL, msg, ml, "--dirs: more directories (%llu) than files (%llu)",
			      (unsigned long long)*dirs, (unsigned long long)files);
	return 0;
}

int sb_meta_check_dir(const struct sb_target_info *ti, const char *dir, int direct, uint64_t chunk,
		      uint64_t need, char *msg, size_t ml)
{
	char a[32], b[32];
	if (ti->kind != SB_TARGET_DIR)
		return refuse(-EINVAL, msg, ml, "meta needs a directory: '%s' is not one", dir);
	if (direct && (ti->direct_ok == 0 || chunk % SB_MAX(ti->logical_bs, 1u)))
		return refuse(-EINVAL, msg, ml, "--direct: %s",
			      ti->direct_ok == 0
				      ? "the filesystem does not support direct I/O"
				      : "--chunk must be a multiple of the logical block size");
	if (ti->fs_free && need > ti->fs_free)
		return refuse(-ENOSPC, msg, ml,
			      "--size: not enough space in '%s': %s needed, %s free (lower --size "
			      "or --files)",
			      dir, sb_fmt_size(need, a, sizeof(a)),
			      sb_fmt_size(ti->fs_free, b, sizeof(b)));
	return 0;
}

void sb_meta_size_here(int size_set, uint64_t *size, uint64_t *twice_ram,
		       enum sb_meta_size_rule *rule)
{
	struct sb_host h;
	memset(&h, 0, sizeof(h));
	sb_host_info(&h);
	*twice_ram = sb_meta_twice_ram(h.mem_total);
	*rule = SB_META_SIZE_GIVEN;
	if (!size_set)
		*size = sb_meta_default_size(h.mem_total, sb_cache_can_drop_all(), rule);
}

void sb_meta_machine_name(const char *given, char *name, size_t nl)
{
	if (given)
		snprintf(name, nl, "%s", given);
	else if (gethostname(name, nl) < 0 || !name[0])
		snprintf(name, nl, "localhost");
	name[nl - 1] = '\0';
	for (char *p = name; *p; p++)
		if (*p == ',')
			*p = '_';
}
