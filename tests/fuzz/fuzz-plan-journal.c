/*
 * Fuzz target of a plan's journal (libFuzzer: make fuzz): lib/plan's
 * reader and report's plan of the journal alone (report/plan_load.c:
 * each step on a target once, the last entry of it, the targets grouped).
 * Any input must be read or refused without a crash, a leak or undefined
 * behaviour; a refusal names the file; what is read is consistent: every
 * entry whole with a status 0 or 1, as many report steps as distinct
 * (target, step) pairs at most, and every step in exactly one target's.
 */
#include "lib/plan/plan.h"
#include "report/report.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void check_report(const char *path, const struct sb_plan_journal *j)
{
	struct rep_plan *p;
	char *why = NULL;
	const int e = rep_plan_load(path, &p, &why);
	if (e) {
		CHECK(e == 1 || e == -ENOMEM || why);
		free(why);
		return;
	}
	size_t seen = 0;
	CHECK(p->doc.nsteps <= j->n);
	for (size_t t = 0; t < p->ntargets; t++) {
		const struct rep_plan_target *tg = &p->targets[t];
		CHECK(tg->nsteps >= 1 && rep_plan_target_of(p, tg->target) == tg);
		for (size_t k = 0; k < tg->nsteps; k++) {
			CHECK(!strcmp(p->doc.steps[tg->step[k]].target, tg->target));
			CHECK(!k || tg->step[k] > tg->step[k - 1]);
		}
		CHECK(!t || tg->step[0] > p->targets[t - 1].step[0]);
		seen += tg->nsteps;
	}
	CHECK(seen == p->doc.nsteps);
	rep_plan_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct sb_plan_journal j;
	struct sb_error err;
	if (fd < 0 && (fd = memfd_create("journal.json", 0)) < 0)
		abort();
	CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	const int e = sb_plan_journal_read(path, &j, &err);
	if (e) {
		CHECK(e == -EINVAL || e == -ENOMEM);
		CHECK(e == -ENOMEM || strstr(err.msg, path));
		return 0;
	}
	for (size_t i = 0; i < j.n; i++)
		CHECK(j.d[i].target && j.d[i].step && j.d[i].run && j.d[i].result &&
		      (j.d[i].status == 0 || j.d[i].status == 1));
	if (size)
		check_report(path, &j);
	sb_plan_journal_free(&j);
	return 0;
}
