/*
 * storbench bonnie: bonnie++'s text table (bonnie++ 2.00a, as it prints
 * it; the same layout as its bon_csv2txt), drawn from the run's CSV line so
 * that the table and the line always show the same figures. Rates of the
 * block and per-char tests are K/sec shown with k, m or g; "+++++" and
 * "+++" mark a test under 0.5 s, an empty field a test not run.
 */
#include "report/report.h"

#define NF SB_META_CSV_FIELDS

const char rep_bonnie_csv_header[] =
	"format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,"
	"putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,"
	"get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,"
	"seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,"
	"ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,"
	"put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,"
	"seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,"
	"ran_stat_latency,ran_del_latency";

/* Split the line in place at commas; returns the number of fields. */
static int fields(char *line, char **f)
{
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	for (char *s = line; n < NF; n++) {
		f[n] = s;
		char *c = strchr(s, ',');
		if (!c)
			return n + 1;
		*c = '\0';
		s = c + 1;
	}
	return n;
}

/* K/sec as bonnie++ shows it: 4 characters and a unit. */
static const char *speed(const char *v, char *buf, size_t len)
{
	if (!*v || *v == '+')
		return v;
	const double k = strtod(v, NULL);
	if (k < 10000)
		snprintf(buf, len, "%4dk", (int)k);
	else if (k / 1024 < 100)
		snprintf(buf, len, "%4.1fm", k / 1024);
	else if (k / 1024 < 1000)
		snprintf(buf, len, "%4dm", (int)(k / 1024 + 0.5));
	else
		snprintf(buf, len, "%4.1fg", k / 1024 / 1024);
	return buf;
}

/* bonnie++'s "Version %5s       " (bon_time.cpp): the version number alone
 * (the CSV's field keeps "storbench-"), so that the table has bonnie++'s
 * width */
static void version(FILE *f, const char *v)
{
	if (!strncmp(v, "storbench-", 10))
		v += 10;
	fprintf(f, "Version %5s       ", v);
}

/* The left column: name, then what was measured, right-aligned in 19. */
static void desc(FILE *f, const char *name, const char *what)
{
	const size_t w = strlen(what);
	if (w < 18)
		fprintf(f, "%-*.*s %s", (int)(18 - w), (int)(18 - w), name, what);
	else
		fprintf(f, "%19s", what);
}

static void latency(FILE *f, char **lat)
{
	fprintf(f, "Latency           %9s %9s %9s %9s %9s %9s\n", lat[0], lat[1], lat[2], lat[3],
		lat[4], lat[5]);
}

static void io_table(FILE *f, char **v)
{
	char what[96], b[6][16];
	version(f, v[1]);
	fprintf(f,
		"------Sequential Output------ --Sequential Input- --Random-\n"
		"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec "
		"%%CP\n");
	snprintf(what, sizeof(what), "%s%s%s", v[5], v[6][0] ? ":" : "", v[6]);
	desc(f, v[2], what);
	for (int t = 0; t < 5; t++)
		fprintf(f, " %5s %3s", speed(v[9 + 2 * t], b[t], sizeof(b[t])), v[10 + 2 * t]);
	fprintf(f, " %5s %3s\n", v[19], v[20]);
	latency(f, v + 38);
}

static void file_table(FILE *f, char **v)
{
	char what[128];
	version(f, v[1]);
	fprintf(f, "------Sequential Create------ --------Random Create--------\n");
	fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", v[2]);
	fprintf(f, "              files  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  "
		   "/sec %%CP\n");
	snprintf(what, sizeof(what), "%s%s%s%s%s%s%s", v[21], v[22][0] ? ":" : "", v[22],
		 v[23][0] ? ":" : "", v[23], v[25][0] ? "/" : "", v[25]);
	fprintf(f, "%19s", what);
	for (int t = 0; t < 6; t++)
		fprintf(f, " %5s %3s", v[26 + 2 * t], v[27 + 2 * t]);
	fprintf(f, "\n");
	latency(f, v + 44);
}

void rep_bonnie_run_text(FILE *f, const struct sb_meta_run *m)
{
	char line[2048], *v[NF];
	sb_meta_run_csv(m, line, sizeof(line));
	if (fields(line, v) != NF)
		return;
	if (v[5][0])
		io_table(f, v);
	if (v[21][0])
		file_table(f, v);
}
