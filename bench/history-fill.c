/*
 * A results history of many results for bench/history: n results recorded
 * through the library (sb_history_record, each its own transaction, as a
 * command records one), then copied by SQL until the history holds total
 * (the same rows under new ids: the library's own schema, filled in
 * seconds rather than hours). Each result: one of 4 models, 10 firmwares,
 * 2 labels (board, chamber), 64 figures (quick's), a 1 KiB JSON text.
 * Prints the library's time per record.
 *   history-fill DB N TOTAL
 */
#include "lib/storbench.h"

#include <math.h>
#include <sqlite3.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: history-fill DB N TOTAL\n");
		return 2;
	}
	const long n = atol(argv[2]), total = atol(argv[3]);
	struct sb_history *h;
	struct sb_error err = { 0 };
	if (sb_history_open(argv[1], &h, &err) < 0) {
		fprintf(stderr, "history-fill: %s\n", err.msg);
		return 3;
	}
	static const char *const tests[] = { "SEQ1M-Q8T1", "SEQ1M-Q1T1", "RND4K-Q32T1",
					     "RND4K-Q1T1" };
	static const char *const kinds[] = { "bw", "iops", "lat_mean", "lat_p99" };
	static const char *const units[] = { "B/s", "IOPS", "ns", "ns" };
	static const char *const dirs[] = { "read", "write" };
	char json[1024];
	memset(json, ' ', sizeof(json));
	json[0] = '{';
	json[sizeof(json) - 2] = '}';
	json[sizeof(json) - 1] = 0;
	srand(1);
	double t0 = now();
	for (long i = 0; i < n; i++) {
		struct sb_history_rec r;
		char fw[16], model[16], kv[32];
		memset(&r, 0, sizeof(r));
		r.ext_csd_rev = r.fw_slot = -1;
		r.started = 1796000000 + i * 60;
		snprintf(fw, sizeof(fw), "1.%ld", i % 10);
		snprintf(model, sizeof(model), "MODEL-%ld", i % 4);
		r.command = "quick";
		r.host = "bench";
		r.version = "0.1.0";
		r.model = model;
		r.serial = "0x1234";
		r.firmware = fw;
		r.json = json;
		r.json_len = strlen(json);
		snprintf(kv, sizeof(kv), "board=b%ld", i % 3);
		if (sb_history_rec_label(&r, kv, &err) < 0 ||
		    sb_history_rec_label(&r, "chamber=85C", &err) < 0)
			return 3;
		struct sb_figure f[64];
		size_t k = 0;
		for (size_t t = 0; t < 4; t++)
			for (size_t d = 0; d < 2; d++)
				for (size_t m = 0; m < 4; m++)
					for (size_t x = 0; x < 2; x++, k++) {
						memset(&f[k], 0, sizeof(f[k]));
						snprintf(f[k].name, sizeof(f[k].name), "%s.%s.%s%s",
							 tests[t], dirs[d], kinds[m],
							 x ? "_min" : "");
						f[k].unit = units[m];
						f[k].value = 1000 + rand() % 100 + (double)(i % 10);
					}
		r.figs.v = f;
		r.figs.n = k;
		int e = sb_history_record(h, &r, NULL, &err);
		for (size_t l = 0; l < r.nlabels; l++) {
			free(r.labels[l].key);
			free(r.labels[l].value);
		}
		free(r.labels);
		if (e < 0) {
			fprintf(stderr, "history-fill: %s\n", err.msg);
			return 3;
		}
	}
	double per = (now() - t0) / (double)n;
	sb_history_close(h);
	printf("recorded %ld results through the library: %.2f ms each (64 figures, 2 labels, "
	       "its own transaction)\n",
	       n, per * 1e3);

	/* copies: the same rows under new ids, a minute apart */
	sqlite3 *db;
	if (sqlite3_open(argv[1], &db) != SQLITE_OK)
		return 3;
	t0 = now();
	for (long have = n; have < total;) {
		long add = SB_MIN(have, total - have);
		char sql[2048];
		snprintf(
			sql, sizeof(sql),
			"BEGIN;"
			"INSERT INTO results SELECT id + %ld, started + %ld * 60, recorded, command, "
			"options, host, version, model, serial, firmware, capacity, cid, ext_csd_rev, "
			"fw_slot, state, write_cache, source, result FROM results WHERE id <= %ld;"
			"INSERT INTO labels SELECT result + %ld, key, value FROM labels WHERE result "
			"<= %ld;"
			"INSERT INTO figures SELECT result + %ld, name, value, unit, word FROM figures "
			"WHERE result <= %ld;"
			"COMMIT;",
			have, have, add, have, add, have, add);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			fprintf(stderr, "history-fill: %s\n", sqlite3_errmsg(db));
			return 3;
		}
		have += add;
	}
	sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); ANALYZE;", NULL, NULL, NULL);
	sqlite3_close(db);
	printf("copied to %ld results in %.1f s\n", total, now() - t0);
	return 0;
}
