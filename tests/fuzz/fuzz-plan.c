/*
 * Fuzz target of the plan reader (libFuzzer: make fuzz). Any input must
 * be read or refused without a crash, a leak or undefined behaviour; a
 * refusal names the file (and its line); what is read is consistent:
 * steps with a command and a criterion on status, every criterion with a
 * figure its command has, a unit, and a word's compared with == or !=;
 * overrides (sb_plan_set: the input's first line as one, and a few of
 * every kind) keep each step whole, and what a step asks of its target
 * (sb_plan_step_need) is read from any words.
 * tests/unit/plan-corpus.c runs this same function over the corpus and
 * its mutations in make check, without clang.
 */
#include "lib/plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_plan p;
	struct sb_error err;
	const int e = sb_plan_parse((const char *)data, size, "fuzz.ini", &p, &err);

	if (e) {
		CHECK(e == -EINVAL || e == -ENOMEM);
		CHECK(e == -ENOMEM || !strncmp(err.msg, "fuzz.ini", 8));
	} else {
		CHECK(p.nsteps >= 1);
		for (size_t i = 0; i < p.nsteps; i++) {
			const struct sb_plan_step *st = &p.steps[i];
			int status = 0;
			CHECK(st->argc >= 1 && st->argv[0][0] && st->argv[0][0] != '-');
			CHECK(st->name[0] && st->run);
			for (size_t k = 0; k < st->nex; k++) {
				const struct sb_plan_expect *ex = &st->ex[k];
				CHECK(ex->unit);
				CHECK(sb_figure_def_of(st->argv[0], ex->figure));
				if (!strcmp(ex->unit, "word"))
					CHECK(ex->word[0] &&
					      (ex->op == SB_PLAN_EQ || ex->op == SB_PLAN_NE));
				status += !strcmp(ex->figure, "status");
			}
			CHECK(status >= 1);
		}
		char spec[256], first[128];
		size_t n = 0;
		while (n < size && n + 1 < sizeof(first) && data[n] != '\n')
			first[n] = (char)data[n], n++;
		first[n] = 0;
		const char *specs[] = { first, "*.size=1M", spec, "*.wait=1s", "x.y=" };
		snprintf(spec, sizeof(spec), "%s.run=%s --a='b c' \"d'e\"", p.steps[0].name,
			 p.steps[0].argv[0]);
		for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
			struct sb_error er;
			const int se = sb_plan_set(&p, specs[i], &er);
			CHECK(se == 0 || se == -EINVAL || se == -ENOMEM);
		}
		for (size_t i = 0; i < p.nsteps; i++) {
			struct sb_plan_need nd;
			CHECK(p.steps[i].argc >= 1 && p.steps[i].run &&
			      !p.steps[i].argv[p.steps[i].argc]);
			CHECK(sb_plan_step_need(&p.steps[i], &nd) == 0);
		}
	}
	sb_plan_free(&p);
	return 0;
}
