/*
 * fio's command line written down as a job file (fio_cmdline.h). The text
 * is built line by line, each line remembering the argument it came from,
 * so that jobfile_opts.c's "line N: ..." can be said back in the user's words.
 */
#include "lib/job/fio_cmdline.h"
#include "lib/job/fio_names.h"

#include <assert.h>
#include <stdarg.h>

#define QUOTE_MAX 64

/* Lines [first, first + n) of the combined text came from what: an
 * argument of the command line (key: the job option it set) or a job file. */
struct sb_fio_src {
	unsigned first, n;
	char *what; /* "-bs", "--name=x", "a.fio"; NULL: the [global] line */
	char key[64];
	int file;
};

/* fio's own process options, storbench's flags, and what they do here. */
enum pkind {
	P_OUTPUT,
	P_FORMAT,
	P_HELP,
	P_VERSION,
	P_PARSE_ONLY,
	P_READONLY,
	P_NOOP,
	P_MINIMAL,
	P_APPEND_TERSE,
	P_TERSE_VERSION,
	P_DESTROY,
	P_KEEP,
	P_QUIET,
	P_STATUS,
	P_REFUSED,
};

struct popt {
	const char *name;
	enum pkind kind;
	int arg; /* takes a value (fio's required_argument) */
};

static const struct popt popts[] = {
	{ "output", P_OUTPUT, 1 },
	{ "output-format", P_FORMAT, 1 },
	{ "help", P_HELP, 0 },
	{ "version", P_VERSION, 0 },
	{ "parse-only", P_PARSE_ONLY, 0 },
	{ "readonly", P_READONLY, 0 },
	/* fio's progress line, memory and warnings: nothing measured changes */
	{ "eta", P_NOOP, 1 },
	{ "eta-newline", P_NOOP, 1 },
	{ "eta-interval", P_NOOP, 1 },
	{ "alloc-size", P_NOOP, 1 },
	{ "max-jobs", P_NOOP, 1 },
	{ "warnings-fatal", P_NOOP, 0 },
	{ "minimal", P_MINIMAL, 0 },
	{ "append-terse", P_APPEND_TERSE, 0 },
	{ "terse-version", P_TERSE_VERSION, 1 },
	{ "destroy-data", P_DESTROY, 0 },
	{ "keep", P_KEEP, 0 },
	{ "quiet", P_QUIET, 0 },
	/* fio's, with no storbench counterpart */
	{ "latency-log", P_REFUSED, 0 },
	{ "bandwidth-log", P_REFUSED, 0 },
	{ "cmdhelp", P_REFUSED, 1 },
	{ "enghelp", P_REFUSED, 1 },
	{ "showcmd", P_REFUSED, 0 },
	{ "debug", P_REFUSED, 1 },
	{ "section", P_REFUSED, 1 },
	{ "inflate-log", P_REFUSED, 1 },
	{ "profile", P_REFUSED, 1 },
	{ "server", P_REFUSED, 1 },
	{ "server-internal", P_REFUSED, 1 },
	{ "daemonize", P_REFUSED, 1 },
	{ "client", P_REFUSED, 1 },
	{ "remote-config", P_REFUSED, 1 },
	{ "cpuclock-test", P_REFUSED, 0 },
	{ "crctest", P_REFUSED, 1 },
	{ "memcpytest", P_REFUSED, 1 },
	{ "idle-prof", P_REFUSED, 1 },
	{ "status-interval", P_STATUS, 1 },
	{ "trigger-file", P_REFUSED, 1 },
	{ "trigger-timeout", P_REFUSED, 1 },
	{ "trigger", P_REFUSED, 1 },
	{ "trigger-remote", P_REFUSED, 1 },
	{ "aux-path", P_REFUSED, 1 },
	{ "merge-blktrace-only", P_REFUSED, 0 },
};

/* fio's FIO_OPT_STR_SET options (options.c): getopt never gives them the
 * next argument, only "-thread=1". */
static const char *const bare_flags[] = {
	"bs_unaligned",	    "norandommap",  "time_based",	 "verify_only", "exitall",
	"exitall_on_error", "stonewall",    "wait_for_previous", "new_group",	"thread",
	"group_reporting",  "zero_buffers", "refill_buffers",
};

/* Options whose note would only say what storbench always does: it runs
 * jobs as threads of one process and reports a job's numjobs together. */
static const char *const quiet_noops[] = { "thread", "group_reporting" };

struct bld {
	struct sb_fio_cmdline *cl;
	char *msg;
	size_t msglen;
	size_t cap;
	unsigned lines;
};

static int fail(char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;
	if (msg && msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int in_list(const char *const *l, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

static int add_src(struct sb_fio_cmdline *cl, unsigned first, unsigned n, const char *what,
		   size_t wlen, const char *key, int file)
{
	if (cl->nsrc == cl->srccap) {
		unsigned cap = cl->srccap ? cl->srccap * 2 : 16;
		struct sb_fio_src *s = realloc(cl->src, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		cl->src = s;
		cl->srccap = cap;
	}
	struct sb_fio_src *s = &cl->src[cl->nsrc];
	memset(s, 0, sizeof(*s));
	s->first = first;
	s->n = n;
	s->file = file;
	if (key)
		snprintf(s->key, sizeof(s->key), "%s", key);
	if (what) {
		s->what = malloc(wlen + 1);
		if (!s->what)
			return -ENOMEM;
		memcpy(s->what, what, wlen);
		s->what[wlen] = 0;
	}
	cl->nsrc++;
	return 0;
}

static int append(struct bld *b, const char *s, size_t n)
{
	struct sb_fio_cmdline *cl = b->cl;
	if (cl->len + n + 1 > b->cap) {
		size_t cap = SB_MAX(b->cap * 2, cl->len + n + 1024);
		char *t = realloc(cl->text, cap);
		if (!t)
			return -ENOMEM;
		cl->text = t;
		b->cap = cap;
	}
	memcpy(cl->text + cl->len, s, n);
	cl->len += n;
	cl->text[cl->len] = 0;
	return 0;
}

/* One line of the text, from the argument what (wlen bytes of it). */
static int add_line(struct bld *b, const char *what, size_t wlen, const char *key, const char *l1,
		    const char *l2, const char *l3)
{
	int r = append(b, l1, strlen(l1));
	if (!r && l2)
		r = append(b, l2, strlen(l2));
	if (!r && l3)
		r = append(b, l3, strlen(l3));
	if (!r)
		r = append(b, "\n", 1);
	if (!r)
		r = add_src(b->cl, ++b->lines, 1, what, wlen, key, 0);
	return r;
}

/* A value a job file line can carry as it is: no line break, no ${ (the
 * shell already replaced what it would), no " ;" or " #" (a comment). */
static int value_ok(struct bld *b, const char *opt, size_t olen, const char *v)
{
	const char *why = NULL;
	if (strpbrk(v, "\n\r"))
		why = "a line break";
	else if (strstr(v, "${"))
		why = "'${' (storbench reads it as a job file's ${NAME})";
	for (size_t i = 1; v[i] && !why; i++)
		if ((v[i] == ';' || v[i] == '#') && (v[i - 1] == ' ' || v[i - 1] == '\t'))
			why = "a blank before ';' or '#' (a comment in a job file)";
	if (!why)
		return 0;
	return fail(b->msg, b->msglen, "%.*s: a value with %s is not supported", (int)olen, opt,
		    why);
}

static int is_number(const char *s)
{
	if (*s == '-')
		s++;
	return *s >= '0' && *s <= '9';
}

static int set_formats(struct bld *b, const char *opt, size_t olen, const char *v)
{
	struct sb_fio_cmdline *cl = b->cl;
	const char *p = v;
	cl->formats = 0;
	while (1) {
		size_t n = strcspn(p, ",");
		if (n == 6 && !strncmp(p, "normal", 6))
			cl->formats |= SB_FIO_OUT_NORMAL;
		else if (n == 4 && !strncmp(p, "json", 4))
			cl->formats |= SB_FIO_OUT_JSON;
		else if (n == 5 && !strncmp(p, "json+", 5))
			cl->formats |= SB_FIO_OUT_JSONPLUS;
		else if ((n == 5 && !strncmp(p, "terse", 5)) ||
			 (n == 7 && !strncmp(p, "minimal", 7)) || (n == 3 && !strncmp(p, "csv", 3)))
			cl->formats |= SB_FIO_OUT_TERSE;
		else
			return fail(b->msg, b->msglen,
				    "%.*s: '%.*s' is not valid (expected normal, json, json+ or "
				    "terse, or a comma list of them)",
				    (int)olen, opt, QUOTE_MAX, v);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int process_opt(struct bld *b, const struct popt *p, const char *opt, size_t olen,
		       const char *v)
{
	struct sb_fio_cmdline *cl = b->cl;
	if (p->arg && !v)
		return fail(b->msg, b->msglen, "%.*s: needs a value (%s=VALUE)", (int)olen, opt,
			    p->name);
	if (!p->arg && v && p->kind != P_REFUSED)
		return fail(b->msg, b->msglen, "%.*s: takes no value", (int)olen, opt);
	switch (p->kind) {
	case P_OUTPUT:
		if (!*v)
			return fail(b->msg, b->msglen,
				    "%.*s: '' is not valid (expected a file name)", (int)olen, opt);
		cl->output = v;
		return 0;
	case P_FORMAT: return set_formats(b, opt, olen, v);
	case P_HELP: cl->help = 1; return 0;
	case P_VERSION: cl->version = 1; return 0;
	case P_PARSE_ONLY: cl->parse_only = 1; return 0;
	case P_READONLY: cl->readonly = 1; return 0;
	case P_NOOP: return 0;
	case P_DESTROY: cl->destroy_data = 1; return 0;
	case P_KEEP: cl->keep = 1; return 0;
	case P_QUIET: cl->quiet = 1; return 0;
	case P_MINIMAL: cl->formats = SB_FIO_OUT_TERSE; return 0;
	case P_APPEND_TERSE: cl->formats |= SB_FIO_OUT_TERSE; return 0;
	case P_TERSE_VERSION:
		/* fio's terse versions: 2 to 5, each written as fio writes it */
		if (strlen(v) != 1 || v[0] < '2' || v[0] > '5')
			return fail(b->msg, b->msglen,
				    "%.*s: '%.*s' is not valid (expected 2, 3, 4 or 5)", (int)olen,
				    opt, QUOTE_MAX, v);
		cl->terse_version = v[0] - '0';
		return 0;
	case P_STATUS: {
		/* fio's check_str_time: seconds unless a unit is given; at
		 * least 1 ms (fio's "status interval too small") */
		uint64_t ns;
		if (sb_parse_duration_ns(v, &ns) < 0 || ns < 1000000)
			return fail(b->msg, b->msglen,
				    "%.*s: '%.*s' is not valid (expected a time of at least 1ms: "
				    "seconds, or with a unit: 500ms, 2s, 1m)",
				    (int)olen, opt, QUOTE_MAX, v);
		cl->status_ns = ns;
		return 0;
	}
	case P_REFUSED: break;
	}
	return fail(b->msg, b->msglen, "%.*s: fio option not supported by storbench", (int)olen,
		    opt);
}

/* argv[*i] is an option: "-key", "--key", "-key=value". */
static int option(struct bld *b, int argc, char *const *argv, int *i, int *in_job)
{
	const char *arg = argv[*i];
	const char *name = arg + (arg[1] == '-' ? 2 : 1);
	const char *eq = strchr(name, '=');
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg); /* the option as written */
	char key[64];
	size_t klen = eq ? (size_t)(eq - name) : strlen(name);
	const char *v = eq ? eq + 1 : NULL;

	if (!klen || klen >= sizeof(key))
		return fail(b->msg, b->msglen, "%.*s: unknown fio option", QUOTE_MAX, arg);
	memcpy(key, name, klen);
	key[klen] = 0;
	const struct popt *p = NULL;
	for (size_t k = 0; k < SB_ARRAY_SIZE(popts) && !p; k++)
		if (!strcmp(popts[k].name, key))
			p = &popts[k];
	const int job_opt = !p && sb_fio_option_known(key);
	if (!p && !job_opt)
		return fail(b->msg, b->msglen, "%.*s: unknown fio option", (int)nlen, arg);
	/* the value may be the next argument */
	const int takes = p ? p->arg : !in_list(bare_flags, SB_ARRAY_SIZE(bare_flags), key);
	if (!v && takes && *i + 1 < argc &&
	    (p || argv[*i + 1][0] != '-' || is_number(argv[*i + 1])))
		v = argv[++*i];
	if (p)
		return process_opt(b, p, arg, nlen, v);
	if (v) {
		int r = value_ok(b, arg, nlen, v);
		if (r)
			return r;
	}
	if (!strcmp(key, "name")) {
		if (!v || !*v)
			return fail(b->msg, b->msglen, "%.*s: needs a value (name=NAME)", (int)nlen,
				    arg);
		*in_job = 1;
		/* the message names "--name=x" whole */
		size_t wlen = eq ? strlen(arg) : nlen;
		return add_line(b, arg, wlen, "name", "[", v, "]");
	}
	return add_line(b, arg, nlen, key, key, v ? "=" : NULL, v);
}

int sb_fio_cmdline_parse(int argc, char *const *argv, struct sb_fio_cmdline **out, char *msg,
			 size_t msglen)
{
	assert(out);
	*out = NULL;
	if (msg && msglen)
		msg[0] = 0;
	struct sb_fio_cmdline *cl = calloc(1, sizeof(*cl));
	if (!cl || !(cl->files = calloc((size_t)argc + 1, sizeof(*cl->files)))) {
		free(cl);
		return -ENOMEM;
	}
	struct bld b = { cl, msg, msglen, 0, 0 };
	cl->formats = SB_FIO_OUT_NORMAL; /* fio's default; --append-terse adds to it */
	cl->terse_version = 3;
	int in_job = 0, r = add_line(&b, NULL, 0, NULL, "[global]", NULL, NULL);
	int opts_end = 0;
	for (int i = 0; i < argc && !r; i++) {
		const char *a = argv[i];
		if (!opts_end && !strcmp(a, "--"))
			opts_end = 1;
		else if (!opts_end && a[0] == '-' && a[1] && (a[1] != '-' || a[2]))
			r = option(&b, argc, argv, &i, &in_job);
		else
			cl->files[cl->nfiles++] = a;
	}
	if (!cl->formats)
		cl->formats = SB_FIO_OUT_NORMAL;
	if (r) {
		if (r == -ENOMEM)
			fail(msg, msglen, "out of memory");
		sb_fio_cmdline_free(cl);
		return r;
	}
	*out = cl;
	return 0;
}

static const struct sb_fio_src *src_of(const struct sb_fio_cmdline *cl, unsigned line)
{
	for (unsigned i = 0; i < cl->nsrc; i++)
		if (line >= cl->src[i].first && line < cl->src[i].first + cl->src[i].n)
			return &cl->src[i];
	return NULL;
}

const char *sb_fio_cmdline_where(const struct sb_fio_cmdline *cl, unsigned line, char *buf,
				 size_t len)
{
	const struct sb_fio_src *s = src_of(cl, line);
	if (!s || !s->what)
		snprintf(buf, len, "command line");
	else if (s->file)
		snprintf(buf, len, "%s: line %u", s->what, line - s->first + 1);
	else
		snprintf(buf, len, "%s", s->what);
	return buf;
}

/* "line N: KEY: rest" in the user's words, into out. Returns 1 when the
 * line is a command-line option in quiet_noops (a note not worth saying). */
static int reword(const struct sb_fio_cmdline *cl, const char *in, char *out, size_t outlen)
{
	unsigned line;
	int off = 0;
	if (sscanf(in, "line %u: %n", &line, &off) < 1 || !off) {
		snprintf(out, outlen, "%s", in);
		return 0;
	}
	const char *rest = in + off;
	const struct sb_fio_src *s = src_of(cl, line);
	char where[256];
	sb_fio_cmdline_where(cl, line, where, sizeof(where));
	if (s && !s->file && s->key[0]) {
		size_t k = strlen(s->key);
		if (!strncmp(rest, s->key, k) && rest[k] == ':' && rest[k + 1] == ' ')
			rest += k + 2;
		if (in_list(quiet_noops, SB_ARRAY_SIZE(quiet_noops), s->key))
			return 1;
	}
	snprintf(out, outlen, "%s: %s", where, rest);
	return 0;
}

/* The first line of a job file that is not blank nor a comment must be a
 * section: appended to the command line's text, an option there would
 * silently join the job before it. 0, or -EINVAL with msg. */
static int starts_with_section(const char *path, const char *t, size_t n, char *msg, size_t msglen)
{
	unsigned line = 1;
	size_t i = 0;
	while (i < n) {
		size_t e = i;
		while (e < n && t[e] != '\n')
			e++;
		size_t s = i;
		while (s < e && strchr(" \t\r\v\f", t[s]))
			s++;
		if (s < e && t[s] != ';' && t[s] != '#') {
			if (t[s] == '[')
				return 0;
			size_t l = e - s;
			while (l && strchr(" \t\r\v\f", t[s + l - 1]))
				l--;
			return fail(msg, msglen,
				    "%s: line %u: '%.*s' comes before any section (a [global] or "
				    "[name] line)",
				    path, line, (int)SB_MIN(l, (size_t)QUOTE_MAX), t + s);
		}
		i = e + 1;
		line++;
	}
	return 0;
}

/* fio's --name=X is an option (the job's "job options" start with
 * "name": "X"); a job file's [X] is not. The jobs --name began get it. */
static int name_options(const struct sb_fio_cmdline *cl, struct sb_jobfile *jf)
{
	for (unsigned i = 0; i < jf->njobs; i++) {
		struct sb_jobfile_job *j = &jf->jobs[i];
		const struct sb_fio_src *s = src_of(cl, j->line);
		if (!s || s->file || strcmp(s->key, "name"))
			continue;
		struct sb_fio_rawopts o = { NULL, 0 };
		if (sb_fio_rawopts_add(&o, "name", j->name) < 0)
			return -ENOMEM;
		char *kv = realloc(o.kv, o.len + j->raw.len);
		if (!kv) {
			free(o.kv);
			return -ENOMEM;
		}
		if (j->raw.len)
			memcpy(kv + o.len, j->raw.kv, j->raw.len);
		free(j->raw.kv);
		j->raw.kv = kv;
		j->raw.len += o.len;
	}
	return 0;
}

int sb_fio_cmdline_jobs(struct sb_fio_cmdline *cl, const char *const *texts, const size_t *lens,
			const char *(*env)(const char *name), struct sb_jobfile **out, char *msg,
			size_t msglen)
{
	assert(out);
	*out = NULL;
	size_t total = cl->len + 1;
	for (unsigned i = 0; i < cl->nfiles; i++)
		total += lens[i] + 1;
	char *all = malloc(total);
	if (!all)
		return fail(msg, msglen, "out of memory"), -ENOMEM;
	memcpy(all, cl->text, cl->len);
	size_t len = cl->len;
	/* one line per command-line source; job-file sources from an earlier
	 * call are made again */
	unsigned nsrc0 = cl->nsrc;
	for (unsigned i = 0; i < cl->nsrc; i++)
		if (cl->src[i].file) {
			nsrc0 = i;
			break;
		}
	while (cl->nsrc > nsrc0)
		free(cl->src[--cl->nsrc].what);
	unsigned lines = nsrc0;
	for (unsigned i = 0; i < cl->nfiles; i++) {
		const char *t = texts[i];
		size_t n = lens[i];
		if (n >= 3 && !memcmp(t, "\xef\xbb\xbf", 3)) {
			t += 3;
			n -= 3;
		}
		int r = starts_with_section(cl->files[i], t, n, msg, msglen);
		if (r) {
			free(all);
			return r;
		}
		unsigned nl = 0;
		for (size_t k = 0; k < n; k++)
			nl += t[k] == '\n';
		memcpy(all + len, t, n);
		len += n;
		if (n && t[n - 1] != '\n') {
			all[len++] = '\n';
			nl++;
		}
		if (add_src(cl, lines + 1, nl, cl->files[i], strlen(cl->files[i]), NULL, 1) < 0) {
			free(all);
			return fail(msg, msglen, "out of memory"), -ENOMEM;
		}
		lines += nl;
	}
	char raw[512];
	struct sb_jobfile *jf = NULL;
	int r = sb_jobfile_parse(all, len, env, &jf, raw, sizeof(raw));
	free(all);
	if (r == -EINVAL && !strcmp(raw, "no job section (a [name] line followed by options)"))
		return fail(msg, msglen,
			    "no job: give --name=NAME before the job's options, or a job file");
	if (r < 0) {
		reword(cl, raw, msg, msglen);
		return r;
	}
	unsigned kept = 0;
	for (unsigned i = 0; i < jf->nnotes; i++) {
		char note[sizeof(jf->notes[0])];
		if (!reword(cl, jf->notes[i], note, sizeof(note)))
			memcpy(jf->notes[kept++], note, sizeof(note));
	}
	jf->nnotes = kept;
	r = name_options(cl, jf);
	if (r < 0) {
		sb_jobfile_free(jf);
		return fail(msg, msglen, "out of memory"), r;
	}
	*out = jf;
	return 0;
}

void sb_fio_cmdline_free(struct sb_fio_cmdline *cl)
{
	if (!cl)
		return;
	for (unsigned i = 0; i < cl->nsrc; i++)
		free(cl->src[i].what);
	free(cl->src);
	free(cl->files);
	free(cl->text);
	free(cl);
}
