/*
 * storbench bonnie: bonnie++'s command line (bonnie++ -d DIR -s 1024 -m S3
 * -u 0:0), run as storbench meta (lib's sb_bonnie_args translates it), with
 * bonnie++'s text table and CSV line on stdout (-q: the CSV alone there).
 */
#include "cli/cmd_meta.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

static void help(const struct cli_command *cmd)
{
	printf("usage: storbench bonnie [bonnie++ options]\n\n"
	       "bonnie++'s command line, run by storbench meta: bonnie++'s text table and its\n"
	       "CSV line (format 1.98, bonnie++ 2.00a) on stdout, for bon_csv2html and\n"
	       "bon_csv2txt. Per-character tests write and read a byte per syscall, and block\n"
	       "data is bonnie++'s zeros with a byte changed per chunk, as bonnie++ does.\n\n"
	       "options (bonnie++'s):\n"
	       "  -d DIR        directory to work in [.]; storbench works in a directory\n"
	       "                of its own inside it and removes it\n"
	       "  -s SIZE[:CHUNK[:SEEKS[:SEEKERS]]]\n"
	       "                block test file in MiB (64 = 64 MiB; 2G), 0: no block tests\n"
	       "                [twice the RAM, as bonnie++; less is refused, as bonnie++\n"
	       "                refuses it, unless -r says less RAM]\n"
	       "  -n N[:MAX[:MIN[:DIRS[:CHUNK]]]]\n"
	       "                N x 1024 files of MIN..MAX bytes in DIRS directories [16]\n"
	       "  -m NAME       machine name in the table and CSV [host name]\n"
	       "  -r MIB        RAM size: without -s, the file is twice it; -s must be at\n"
	       "                least twice it; -r 0: no such rule\n"
	       "  -x N          N runs: bonnie++'s CSV header, then a line a run\n"
	       "  -u USER[:GROUP], -g GROUP\n"
	       "                accepted when they name the user storbench runs as; storbench\n"
	       "                does not switch users (run it as that user instead)\n"
	       "  -q            CSV line alone on stdout, the table on stderr\n"
	       "  -f[MIB]       -f: no per-character tests; -f20: their size [20]\n"
	       "  -b            fsync after every write\n"
	       "  -D            O_DIRECT for the block and seek tests\n"
	       "  -z SEED       repeat a run's random choices\n"
	       "  -c 1          one copy (more: use storbench meta --threads=N)\n"
	       "  --output=FILE storbench's JSON results as well\n"
	       "  --stonewall, --per-rank-dir=0|1\n"
	       "                under mpirun, as storbench meta's (docs/mpi.md)\n\n"
	       "refused, with what to use instead: -c above 1, -p, -y, -Z, -n with a negative\n"
	       "max size (links). Nothing is created before the whole line is accepted.\n"
	       "Under mpirun (make MPI=1) every rank runs it in a directory of its own; rank 0\n"
	       "prints the ranks together: the table, each rank, one CSV line (docs/mpi.md).\n"
	       "docs/bonnie-cli.md maps every option and lists the differences.\n\n"
	       "example:\n"
	       "  storbench bonnie -d /data -s 1024 -m S3 -u 0:0\n"
	       "  storbench bonnie -d /mnt/sd -s 64 -n 1 -q | bon_csv2html > sd.html\n");
	cli_print_exit_status(stdout, cmd);
}

/* One of -u's or -g's names or numbers: is it id? */
static int names_id(const char *v, unsigned id, int group)
{
	char *end;
	if (!*v)
		return 1;
	const unsigned long n = strtoul(v, &end, 10);
	if (!*end && *v >= '0' && *v <= '9')
		return n == id;
	if (group) {
		const struct group *g = getgrnam(v);
		return g && g->gr_gid == id;
	}
	const struct passwd *p = getpwnam(v);
	return p && p->pw_uid == id;
}

/* -u USER[:GROUP] and -g GROUP: only the user and group we run as. */
static int check_user(const struct sb_bonnie_args *a)
{
	char user[256] = "";
	const char *group = a->group;
	if (a->user) {
		snprintf(user, sizeof(user), "%s", a->user);
		char *c = strchr(user, ':');
		if (c) {
			*c = '\0';
			group = c + 1;
		}
	}
	if (!names_id(user, (unsigned)getuid(), 0)) {
		sb_err("-u: storbench does not switch users and runs as uid %u, not '%s': run "
		       "it as that user (e.g. sudo -u %s storbench bonnie ...)",
		       (unsigned)getuid(), user, user);
		return SB_EXIT_USAGE;
	}
	if (group && !names_id(group, (unsigned)getgid(), 1)) {
		sb_err("%s: storbench does not switch groups and runs as gid %u, not '%s': run "
		       "it as that group (e.g. sg %s)",
		       a->user && strchr(a->user, ':') ? "-u" : "-g", (unsigned)getgid(), group,
		       group);
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* bonnie++'s RAM rule: without -s the file is twice the RAM (rounded up to
 * a GiB), and a -s smaller than that is refused with bonnie++'s words; -r
 * names another RAM size, -r 0 turns the rule off (bonnie++.cpp). The
 * default size goes into *size (a meta option), or "" when -s or -r gave
 * one. 0 or an exit code. */
static int ram_rule(const struct sb_bonnie_args *a, char *size, size_t len)
{
	const uint64_t ram = a->ram_given ? a->ram_mib : sb_bonnie_ram_mib();
	size[0] = '\0';
	if (!ram)
		return 0;
	if (!a->size_given && !a->ram_given)
		snprintf(size, len, "--size=%lluM", (unsigned long long)sb_bonnie_size(ram));
	if (a->size_given && a->size_mib && a->size_mib < 2 * ram) {
		sb_err("-s: file size should be double RAM for good results, RAM is %lluM "
		       "(bonnie++'s rule: -r MIB names the RAM, -r 0 runs anyway)",
		       (unsigned long long)ram);
		return SB_EXIT_USAGE;
	}
	return 0;
}

int cmd_bonnie(const struct cli_command *cmd, int argc, char **argv)
{
	static struct sb_bonnie_args a;
	char msg[512], size[48], *margv[SB_BONNIE_MAX_ARGS + 2];
	int e = sb_bonnie_args(argc, argv, &a, msg, sizeof(msg));
	if (e == 1) {
		help(cmd);
		return SB_EXIT_OK;
	}
	if (e) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	/* meta's checks name meta's options: here they are bonnie++'s */
	static const char *const names[][2] = {
		{ "--size", "-s" },    { "--chunk", "-s" },	 { "--seeks", "-s" },
		{ "--seekers", "-s" }, { "--files", "-n" },	 { "--file-size", "-n" },
		{ "--dirs", "-n" },    { "--file-chunk", "-n" }, { "--char-size", "-f" },
		{ "--fsync", "-b" },   { "--direct", "-D" },	 { "--name", "-m" },
		{ "--seed", "-z" },    { "--per-char", "-f" },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(names); i++)
		cli_msg_alias(names[i][0], names[i][1]);
	if ((e = check_user(&a)) || (e = ram_rule(&a, size, sizeof(size))))
		return e;
	int n = 0;
	margv[n++] = argv[0];
	for (int i = 0; i < a.n; i++) {
		if (i == a.n - 1 && size[0]) /* before DIR, the last */
			margv[n++] = size;
		margv[n++] = a.argv[i];
	}
	margv[n] = NULL;
	const struct cli_bonnie_out bo = { a.quiet, a.reps };
	return cli_meta_main(cmd, n, margv, &bo);
}
