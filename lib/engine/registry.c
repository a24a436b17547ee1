/*
 * The registry: which engines are built in, every engine name storbench
 * knows (built in or not), the ioengine names of fio job files, and which
 * engine a job gets when it names none. The one list of engine names: an
 * engine's own file spells only its own (ops.name), and everything else
 * (--engine, job files, --help, the default choice) asks here.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

extern const struct sb_engine_ops sb_engine_psync;
#ifdef HAVE_URING
extern const struct sb_engine_ops sb_engine_io_uring;
#endif
#ifdef HAVE_AIO
extern const struct sb_engine_ops sb_engine_libaio;
#endif
extern const struct sb_engine_ops sb_engine_null;
extern const struct sb_engine_ops sb_engine_filestat;
extern const struct sb_engine_ops sb_engine_filedelete;
extern const struct sb_engine_ops sb_engine_ftruncate;
extern const struct sb_engine_ops sb_engine_falloc;
extern const struct sb_engine_ops sb_engine_filecreate;
extern const struct sb_engine_ops sb_engine_mmap;
extern const struct sb_engine_ops sb_engine_vsync;
extern const struct sb_engine_ops sb_engine_splice;
extern const struct sb_engine_ops sb_engine_cpuio;
extern const struct sb_engine_ops sb_engine_exec;
extern const struct sb_engine_ops sb_engine_e4defrag;

/* Built in, in the order `storbench --help` lists them; the asynchronous
 * ones in the order a job without --engine prefers them. An explicit array
 * rather than constructors: it survives static linking. */
const struct sb_engine_ops *const sb_engines[] = {
	&sb_engine_psync,
#ifdef HAVE_URING
	&sb_engine_io_uring,
#endif
#ifdef HAVE_AIO
	&sb_engine_libaio,
#endif
	&sb_engine_null,     &sb_engine_filestat,   &sb_engine_filedelete, &sb_engine_ftruncate,
	&sb_engine_falloc,   &sb_engine_filecreate, &sb_engine_mmap,	   &sb_engine_vsync,
	&sb_engine_splice,   &sb_engine_cpuio,	    &sb_engine_exec,	   &sb_engine_e4defrag, NULL,
};

/* Every engine storbench knows, built in or not, in the same order, with
 * its flags (as its ops have them) and the other ioengine names of fio that
 * run as it. */
static const struct known_engine {
	const char *name;
	unsigned flags;
	const char *fio[4]; /* NULL-terminated */
} known[] = {
	{ "psync", SB_ENGINE_SYNC, { "sync", "pvsync", "pvsync2", NULL } },
	/* fio's posixaio: requests in flight up to iodepth, buffered or direct,
	 * done by threads (glibc's); io_uring does the same in the kernel */
	{ "io_uring", 0, { "posixaio", NULL } },
	{ "libaio", 0, { NULL } },
	{ "null", SB_ENGINE_SYNC | SB_ENGINE_NOIO, { NULL } },
	{ "filestat", SB_ENGINE_SYNC | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES, { NULL } },
	{ "filedelete", SB_ENGINE_SYNC | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES, { NULL } },
	{ "ftruncate", SB_ENGINE_SYNC | SB_ENGINE_OWNFILES, { NULL } },
	{ "falloc", SB_ENGINE_SYNC | SB_ENGINE_OWNFILES, { NULL } },
	{ "filecreate",
	  SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES,
	  { NULL } },
	{ "mmap", SB_ENGINE_SYNC, { NULL } },
	{ "vsync", SB_ENGINE_SYNC | SB_ENGINE_DEEP, { NULL } },
	{ "splice", SB_ENGINE_SYNC, { NULL } },
	{ "cpuio", SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_TIMED, { NULL } },
	{ "exec", SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_TIMED, { NULL } },
	{ "e4defrag", SB_ENGINE_SYNC | SB_ENGINE_DONOR, { NULL } },
};

/* For --help: the names of known[] and the default policy of
 * sb_engine_default (tests/unit/engine-registry.c keeps them equal). */
const char sb_engine_choices[] =
	"psync|io_uring|libaio|null|filestat|filedelete|ftruncate|falloc|filecreate|mmap|vsync|splice|cpuio|"
	"exec|e4defrag";
const char sb_engine_default_text[] = "io_uring when iodepth > 1, else psync";

const struct sb_engine_ops *sb_engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct sb_engine_ops *const *p = sb_engines; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

const char *sb_engine_known(unsigned i)
{
	return i < SB_ARRAY_SIZE(known) ? known[i].name : NULL;
}

unsigned sb_engine_known_flags(unsigned i)
{
	return i < SB_ARRAY_SIZE(known) ? known[i].flags : 0;
}

int sb_engine_is_known(const char *name)
{
	for (size_t i = 0; name && i < SB_ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].name, name))
			return 1;
	return 0;
}

/* Each engine's own name, then fio's others for it. */
const char *sb_engine_fio_name(unsigned i)
{
	for (size_t k = 0; k < SB_ARRAY_SIZE(known); k++) {
		if (i-- == 0)
			return known[k].name;
		for (const char *const *f = known[k].fio; *f; f++)
			if (i-- == 0)
				return *f;
	}
	return NULL;
}

const char *sb_engine_from_fio(const char *fio_name)
{
	for (size_t k = 0; fio_name && k < SB_ARRAY_SIZE(known); k++) {
		if (!strcmp(known[k].name, fio_name))
			return known[k].name;
		for (const char *const *f = known[k].fio; *f; f++)
			if (!strcmp(*f, fio_name))
				return known[k].name;
	}
	return NULL;
}

const struct sb_engine_ops *sb_engine_plain(void)
{
	return &sb_engine_psync;
}

int sb_engine_available(const struct sb_engine_ops *ops)
{
	return ops->available ? ops->available() : 0;
}

/* More than one request in flight: the first asynchronous engine built in
 * that works here (io_uring, then libaio), else the plain one, which does
 * one request at a time. */
void sb_engine_default(unsigned iodepth, struct sb_engine_pick *pick)
{
	*pick = (struct sb_engine_pick){ sb_engine_plain(), NULL, 0, 0 };
	if (iodepth <= 1)
		return;
	pick->fell_back = 1;
	for (const struct sb_engine_ops *const *p = sb_engines; *p; p++) {
		if ((*p)->flags & SB_ENGINE_SYNC)
			continue;
		const int e = sb_engine_available(*p);
		if (e == 0) {
			pick->ops = *p;
			pick->fell_back = !!pick->missed;
			return;
		}
		if (!pick->missed) {
			pick->missed = *p;
			pick->err = e;
		}
	}
}
