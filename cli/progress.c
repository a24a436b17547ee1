/*
 * The live progress line every command shares (its rate over the last
 * second: lib/stats/live_rate.h), one line shape,
 *
 *   LABEL[ WORD i of N][, WHAT]: [ramp ]PCT% [DONE of TOTAL ]RATE OPS  elapsed E  ETA T | parts
 *
 * fitted to the terminal's width by dropping the least needed figures
 * first. On a terminal it is redrawn in place at most 4 times a second; on
 * anything else a plain line every 10 s; nothing when quiet.
 */
#include "cli/cli.h"
#include "report/report.h"

#include <stdarg.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define TTY_EVERY_NS 250000000ull
#define PLAIN_EVERY_NS 10000000000ull

char *cli_fmt_dur(double ns, char *buf, size_t len)
{
	return rep_fmt_dur(ns, buf, len);
}

/* ---- the line ---- */

enum { SEG_MAX = 12 + 2 * CLI_LINE_PARTS, SEG_LEN = 96 };

struct seg {
	char text[SEG_LEN];
	int prio; /* the lowest goes first when the line is too wide; < 0 gone */
	int part; /* one of the per-job parts */
};

struct segs {
	struct seg s[SEG_MAX];
	unsigned n;
};

static struct seg *seg_add(struct segs *ss, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct seg *seg_add(struct segs *ss, int prio, const char *fmt, ...)
{
	if (ss->n == SEG_MAX)
		return NULL;
	struct seg *g = &ss->s[ss->n++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->text, sizeof(g->text), fmt, ap);
	va_end(ap);
	g->prio = prio;
	g->part = 0;
	return g;
}

/* "LABEL WORD i of N, WHAT:", WHAT cut to fit when it must be. */
static void head(const struct cli_line *l, size_t what_max, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", l->label ? l->label : "");
	if (l->step && n < len) {
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%llu", n ? " " : "",
				      l->step_word ? l->step_word : "", l->step_word ? " " : "",
				      (unsigned long long)l->step);
		if (l->nsteps && n < len)
			n += (size_t)snprintf(buf + n, len - n, " of %llu",
					      (unsigned long long)l->nsteps);
	}
	if (l->what && *l->what && what_max > 3 && n < len) {
		const size_t w = strlen(l->what);
		const char *sep = n ? (l->step ? ", " : " ") : "";
		if (w <= what_max)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, l->what);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s...", sep,
					      (int)(what_max - 3), l->what);
	}
	if (n < len)
		snprintf(buf + n, len - n, ":");
}

static void body(const struct cli_line *l, struct segs *ss)
{
	char a[32], b[32];
	if (l->state)
		seg_add(ss, 100, " %s", l->state);
	if (l->pct >= 0)
		seg_add(ss, 100, " %.0f%%", l->pct > 100 ? 100 : l->pct);
	if (l->total)
		seg_add(ss, 70, " %s of %s", sb_fmt_size(l->done, a, sizeof(a)),
			sb_fmt_size(l->total, b, sizeof(b)));
	if (l->bps >= 0)
		seg_add(ss, 100, " %s", rep_fmt_rate(l->bps, a, sizeof(a)));
	if (l->ops >= 0)
		seg_add(ss,
			l->bps < 0  ? 100
			: l->nparts ? 35
				    : 60,
			" %s %s", sb_fmt_count(l->ops, a, sizeof(a)),
			l->ops_unit ? l->ops_unit : "IOPS");
	seg_add(ss, 25, "  elapsed %s", cli_fmt_dur((double)l->elapsed_ns, a, sizeof(a)));
	if (l->eta_ns >= 0)
		seg_add(ss, 100, "  ETA %s%s%s%s", cli_fmt_dur(l->eta_ns, a, sizeof(a)),
			l->eta_of ? " (" : "", l->eta_of ? l->eta_of : "", l->eta_of ? ")" : "");
	/* per-job figures: the later ones go first */
	for (unsigned i = 0; i < l->nparts && i < CLI_LINE_PARTS; i++) {
		struct seg *g = seg_add(ss, 40 - (int)SB_MIN(i, 10u), " | %s", l->parts[i]);
		if (g)
			g->part = 1;
		if (l->part_more && l->part_more[i] && *l->part_more[i])
			seg_add(ss, 28, " %s", l->part_more[i]);
	}
}

/* The head and the kept segments, WHAT cut to what_max. */
static size_t joined(const struct cli_line *l, const struct segs *ss, size_t what_max, char *buf,
		     size_t len)
{
	char h[SEG_LEN * 2];
	head(l, what_max, h, sizeof(h));
	size_t n = (size_t)snprintf(buf, len, "%s", h);
	for (unsigned i = 0; i < ss->n && n < len; i++)
		if (ss->s[i].prio >= 0)
			n += (size_t)snprintf(buf + n, len - n, "%s", ss->s[i].text);
	return n < len ? n : (len ? len - 1 : 0);
}

/* Drop segments below prio while too wide; then cut WHAT down to keep
 * (never below 3). */
static size_t fit(const struct cli_line *l, struct segs *ss, int prio, size_t keep, size_t width,
		  size_t *what_max, char *buf, size_t len)
{
	size_t n = joined(l, ss, *what_max, buf, len);
	while (n > width) {
		int lo = -1;
		for (unsigned i = 0; i < ss->n; i++)
			if (ss->s[i].prio >= 0 && ss->s[i].prio < prio &&
			    (lo < 0 || ss->s[i].prio <= ss->s[lo].prio))
				lo = (int)i;
		if (lo < 0)
			break;
		ss->s[lo].prio = -1;
		n = joined(l, ss, *what_max, buf, len);
	}
	keep = SB_MAX(keep, 3);
	if (n > width && *what_max > keep) {
		const size_t over = n - width;
		*what_max = *what_max > keep + over ? *what_max - over : keep;
		n = joined(l, ss, *what_max, buf, len);
	}
	return n;
}

/* The line fitted to width columns into buf; returns its length. */
static size_t line_format(const struct cli_line *l, size_t width, char *buf, size_t len)
{
	struct segs ss;
	size_t what_max = l->what ? strlen(l->what) : 0;
	memset(&ss, 0, sizeof(ss));
	body(l, &ss);
	/* elapsed and the parts first (the last part first); then WHAT down
	 * to 16 characters; then the operations, DONE of TOTAL, and WHAT down
	 * to nothing much */
	fit(l, &ss, 50, 16, width, &what_max, buf, len);
	unsigned dropped = 0;
	for (unsigned i = 0; i < ss.n; i++)
		dropped += ss.s[i].part && ss.s[i].prio < 0;
	if (dropped) { /* what the dropped parts were, when there is room */
		struct seg *g = seg_add(&ss, 45, " | +%u more", dropped);
		if (g && joined(l, &ss, what_max, buf, len) > width)
			g->prio = -1;
	}
	size_t n = fit(l, &ss, 100, 3, width, &what_max, buf, len);
	if (n > width) /* still too wide: cut */
		buf[n = width] = '\0';
	return n;
}

/* ---- drawing ---- */

/* The terminal's width less one (a line that fills the last column wraps
 * on some terminals), or COLUMNS, or 80. */
static size_t term_width(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return (size_t)ws.ws_col - 1;
	const char *c = getenv("COLUMNS");
	char *end;
	const long v = c ? strtol(c, &end, 10) : 0;
	if (c && *c && !*end && v >= 20 && v <= 1000)
		return (size_t)v - 1;
	return 79;
}

/* A log gets its line every 10 s even when each step is shorter: one clock
 * for the whole process. */
static uint64_t last_plain_ns;

void cli_progress_init(struct cli_progress *p, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->quiet = quiet;
	p->tty = isatty(STDERR_FILENO);
	p->start_ns = sb_now_ns();
	if (p->tty)
		p->last_ns = p->start_ns;
	else if (!last_plain_ns)
		last_plain_ns = p->start_ns;
}

int cli_progress_due(const struct cli_progress *p, uint64_t now)
{
	if (p->quiet)
		return 0;
	if (p->tty)
		return now - p->last_ns >= TTY_EVERY_NS;
	return now - last_plain_ns >= PLAIN_EVERY_NS;
}

void cli_progress_draw(struct cli_progress *p, const struct cli_line *l, uint64_t now)
{
	char buf[1024];
	if (p->quiet)
		return;
	line_format(l, p->tty ? term_width() : sizeof(buf) - 1, buf, sizeof(buf));
	if (p->tty) {
		fprintf(stderr, "\r%s\033[K", buf);
		p->shown = 1;
		p->last_ns = now;
	} else {
		fprintf(stderr, "%s\n", buf);
		last_plain_ns = now;
	}
	fflush(stderr);
}

void cli_progress_note(struct cli_progress *p, const char *fmt, ...)
{
	va_list ap;
	if (p->quiet)
		return;
	if (p->tty && p->shown)
		fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	p->shown = 0;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (p->tty && p->shown && !p->quiet) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
}
