/* needs: none */
/* The registry: every engine built in is findable by name, names are known
 * and unique, psync and null are always there, unknown names are not; the
 * --help text lists the known names; fio's ioengine names map onto them;
 * the default choice follows the queue depth. */
#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

static int known_name(const char *name)
{
	for (unsigned i = 0; sb_engine_known(i); i++)
		if (!strcmp(sb_engine_known(i), name))
			return 1;
	return 0;
}

static void every_engine_findable(void **state)
{
	unsigned count = 0, known = 0;

	(void)state;
	for (const struct sb_engine_ops *const *p = sb_engines; *p; p++, count++) {
		const struct sb_engine_ops *ops = *p;
		assert_non_null(ops->name);
		assert_non_null(ops->desc);
		assert_true(known_name(ops->name));
		for (unsigned i = 0; sb_engine_known(i); i++)
			if (!strcmp(sb_engine_known(i), ops->name))
				assert_int_equal(sb_engine_known_flags(i), ops->flags);
		assert_ptr_equal(sb_engine_find(ops->name), ops);
		assert_non_null(ops->available);
		assert_non_null(ops->init);
		assert_non_null(ops->queue);
		assert_non_null(ops->commit);
		assert_non_null(ops->getevents);
		assert_non_null(ops->event);
		assert_non_null(ops->cleanup);
		/* NOIO engines complete inline: nothing to wait for. */
		if (ops->flags & SB_ENGINE_NOIO)
			assert_true(ops->flags & SB_ENGINE_SYNC);
		for (const struct sb_engine_ops *const *q = sb_engines; q != p; q++)
			assert_string_not_equal((*q)->name, ops->name);
	}
	assert_true(count >= 2);
	while (sb_engine_known(known))
		known++;
	assert_true(count <= known);
}

static void always_built_in(void **state)
{
	(void)state;
	assert_non_null(sb_engine_find("psync"));
	assert_non_null(sb_engine_find("null"));
	assert_true(sb_engine_find("psync")->flags & SB_ENGINE_SYNC);
	assert_true(sb_engine_find("null")->flags & SB_ENGINE_NOIO);
	assert_int_equal(sb_engine_find("psync")->available(), 0);
	assert_int_equal(sb_engine_find("null")->available(), 0);
}

static void optional_engines_follow_build(void **state)
{
	(void)state;
#ifdef HAVE_URING
	assert_non_null(sb_engine_find("io_uring"));
#else
	assert_null(sb_engine_find("io_uring"));
#endif
#ifdef HAVE_AIO
	assert_non_null(sb_engine_find("libaio"));
#else
	assert_null(sb_engine_find("libaio"));
#endif
}

static void unknown_names(void **state)
{
	(void)state;
	assert_null(sb_engine_find("nope"));
	assert_null(sb_engine_find(""));
	assert_null(sb_engine_find(NULL));
	assert_null(sb_engine_find("PSYNC"));
	assert_true(known_name("io_uring") && known_name("libaio"));
	assert_true(sb_engine_is_known("io_uring") && !sb_engine_is_known("nope"));
	assert_false(sb_engine_is_known(NULL));
}

/* --help's "psync|io_uring|libaio|null" is the known names, in order. */
static void help_lists_known(void **state)
{
	char buf[256] = "";
	(void)state;
	for (unsigned i = 0; sb_engine_known(i); i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "|" : "",
			 sb_engine_known(i));
	assert_string_equal(sb_engine_choices, buf);
	assert_non_null(strstr(sb_engine_default_text, sb_engine_plain()->name));
}

static void fio_names(void **state)
{
	(void)state;
	for (unsigned i = 0; sb_engine_known(i); i++)
		assert_string_equal(sb_engine_from_fio(sb_engine_known(i)), sb_engine_known(i));
	assert_string_equal(sb_engine_from_fio("sync"), "psync");
	assert_string_equal(sb_engine_from_fio("pvsync2"), "psync");
	assert_string_equal(sb_engine_from_fio("posixaio"), "io_uring");
	assert_null(sb_engine_from_fio("windowsaio"));
	assert_null(sb_engine_from_fio(NULL));
	unsigned n = 0;
	for (; sb_engine_fio_name(n); n++)
		assert_non_null(sb_engine_from_fio(sb_engine_fio_name(n)));
	assert_int_equal(n, 19);
	assert_string_equal(sb_engine_from_fio("filestat"), "filestat");
	assert_string_equal(sb_engine_from_fio("filedelete"), "filedelete");
	assert_string_equal(sb_engine_from_fio("filecreate"), "filecreate");
	assert_string_equal(sb_engine_from_fio("cpuio"), "cpuio");
	assert_string_equal(sb_engine_from_fio("exec"), "exec");
	assert_string_equal(sb_engine_fio_name(1), "sync");
}

static void default_choice(void **state)
{
	struct sb_engine_pick pk;
	(void)state;
	sb_engine_default(1, &pk);
	assert_ptr_equal(pk.ops, sb_engine_plain());
	assert_false(pk.fell_back);
	assert_null(pk.missed);
	sb_engine_default(32, &pk);
	assert_non_null(pk.ops);
	/* the plain engine only when no asynchronous one works, and said so */
	if (pk.ops == sb_engine_plain())
		assert_true(pk.fell_back);
	else
		assert_false(pk.ops->flags & SB_ENGINE_SYNC);
	assert_int_equal(pk.fell_back, pk.ops == sb_engine_plain() || pk.missed != NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_engine_findable),
		cmocka_unit_test(always_built_in),
		cmocka_unit_test(optional_engines_follow_build),
		cmocka_unit_test(unknown_names),
		cmocka_unit_test(help_lists_known),
		cmocka_unit_test(fio_names),
		cmocka_unit_test(default_choice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
