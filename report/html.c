/*
 * The HTML report: one self-contained file (inline CSS and SVG, no script,
 * nothing fetched) that opens in any browser and prints. Per result: the
 * device and host, warnings, the summary tables, the charts of its command
 * (a table of sections, one row per command), and the conditions of every
 * measurement.
 */
#include "report/report.h"
#include "report/html.h"

static void device_host(FILE *f, const struct rep_doc *d)
{
	const struct sb_target_doc *t = &d->target;
	const struct sb_host_doc *h = &d->host;
	char a[64], b[256];
	fputs("<h3>Device and host</h3>\n<div class=\"cols\">\n<table class=\"kv\">\n", f);
	html_kv(f, "Target", t->path);
	html_kv(f, "Kind", t->kind);
	snprintf(b, sizeof(b), "%s%s%s", rep_or(t->device, ""),
		 t->disk && t->device && strcmp(t->disk, t->device) ? " on " : "",
		 t->disk && t->device && strcmp(t->disk, t->device) ? t->disk : "");
	html_kv(f, "Device", b);
	html_kv(f, "Model", t->model);
	html_kv(f, "Capacity", t->capacity ? sb_fmt_size(t->capacity, a, sizeof(a)) : NULL);
	if (t->lbs) {
		snprintf(b, sizeof(b), "%u B logical, %u B physical", t->lbs, t->pbs);
		html_kv(f, "Block size", b);
	}
	html_kv(f, "Medium",
		t->rotational < 0 ? NULL
		: t->rotational	  ? "rotational"
				  : "non-rotational");
	html_kv(f, "Scheduler", t->scheduler);
	html_kv(f, "Write cache", t->write_cache);
	if (d->state) {
		snprintf(b, sizeof(b), "%s (%s)", d->state, rep_or(d->state_detail, ""));
		html_kv(f, "State", b);
	}
	if (t->filesystem) {
		snprintf(b, sizeof(b), "%s on %s%s", t->filesystem, rep_or(t->mountpoint, "?"),
			 t->in_ram ? " (in RAM)" : "");
		html_kv(f, "Filesystem", b);
	}
	fputs("</table>\n<table class=\"kv\">\n", f);
	html_kv(f, "Host", h->hostname);
	html_kv(f, "Kernel", h->kernel);
	html_kv(f, "Architecture", h->arch);
	if (h->cpu) {
		snprintf(b, sizeof(b), "%s (%u CPUs)", h->cpu, h->cpus);
		html_kv(f, "CPU", b);
	}
	html_kv(f, "Memory", h->mem_total ? sb_fmt_size(h->mem_total, a, sizeof(a)) : NULL);
	html_kv(f, "Measured by", d->producer);
	html_kv(f, "Started", d->time);
	fputs("</table>\n</div>\n", f);
}

static void list(FILE *f, const char *cls, const char *const *items, size_t n)
{
	if (!n)
		return;
	fprintf(f, "<ul class=\"%s\">\n", cls);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", f);
		rep_html_esc(f, items[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void conditions(FILE *f, const struct rep_doc *d)
{
	static const char *const cols[] = { "Measurement", "Pattern", "Block size",
					    "Queue depth", "Jobs",    "Engine",
					    "I/O",	   "Cache",   "Size",
					    "Measured for" };
	char a[32], b[32];
	if (!d->njobs)
		return;
	fputs("<h3>Conditions of every measurement</h3>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < d->njobs; i++) {
		const struct rep_job *j = &d->jobs[i];
		fputs("<tr>", f);
		html_cell(f, j->name, 0);
		html_cell(f, j->rw, 0);
		html_cell(f, j->bs, 1);
		snprintf(a, sizeof(a), "%u", j->iodepth);
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%u", j->numjobs);
		html_cell(f, a, 1);
		html_cell(f, j->engine, 1);
		html_cell(f, j->direct < 0 ? "?" : j->direct ? "direct" : "buffered", 1);
		html_cell(f, j->cache, 1);
		html_cell(f, j->size ? sb_fmt_size(j->size, a, sizeof(a)) : "", 1);
		snprintf(b, sizeof(b), "%.2f s%s", j->runtime_s,
			 j->interrupted ? " (interrupted)" : "");
		html_cell(f, b, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static const struct {
	const char *command;
	void (*render)(FILE *f, const struct rep_doc *d);
} sections[] = {
	{ "run", html_section_run },
	{ "fio", html_section_run },
	{ "quick", html_section_quick },
	{ "soak", html_section_soak },
	{ "sweep", html_section_sweep },
	{ "verify", html_section_verify },
	{ "pts", html_section_pts },
	{ "cliff", html_section_cliff },
	{ "flash", html_section_flash },
	{ "spo", html_section_spo },
	{ "spo-cycles", html_section_spo_cycles },
	{ "meta", html_section_meta },
};

static void document(FILE *f, const struct rep_doc *d, size_t idx)
{
	fprintf(f, "<section id=\"r%zu\">\n<h2>", idx + 1);
	if (d->plan_step) {
		rep_html_esc(f, d->plan_step);
		fputc(' ', f);
	}
	rep_html_esc(f, d->command);
	fputs(" &mdash; ", f);
	rep_html_esc(f, rep_or(d->target.path, d->name));
	fputs("</h2>\n<p class=\"meta\">From <code>", f);
	rep_html_esc(f, d->path);
	fprintf(f, "</code>%s%s.</p>\n", d->is_log ? " (a log)" : "",
		d->interrupted
			? ", <span class=\"bad\">interrupted: the figures cover what ran</span>"
			: "");
	if (!strcmp(d->command, "soak")) /* the verdict first, in the first screen */
		html_soak_lead(f, d);
	list(f, "notes", (const char *const *)d->notes, d->nnotes);
	device_host(f, d);
	if (d->nwarnings) {
		fputs("<h3>Warnings</h3>\n", f);
		list(f, "warn", d->warnings, d->nwarnings);
	}
	html_repeats_table(f, d);
	if (!d->nsummary)
		html_results_table(f, d); /* the figures, then their charts */
	html_ranks_table(f, d);		  /* a run of many ranks: each one */
	size_t i;
	for (i = 0; i < SB_ARRAY_SIZE(sections); i++)
		if (!strcmp(sections[i].command, d->command))
			break;
	if (i < SB_ARRAY_SIZE(sections))
		sections[i].render(f, d);
	if ((i >= SB_ARRAY_SIZE(sections) || !strcmp(d->command, "verify")) && d->njobs &&
	    d->njobs <= 8)
		html_section_run(f, d); /* its jobs' charts (verify: its phases') */
	if (strcmp(d->command, "verify"))
		html_section_verify(f, d); /* run --verify */
	if (d->nsummary)
		html_results_table(f, d); /* every run after the summary and its charts */
	html_records(f, d);
	conditions(f, d);
	fputs("</section>\n", f);
}

/* The page's title and its results, linked to their sections. */
static void contents(FILE *f, struct rep_doc *const *docs, size_t n)
{
	fputs("<h1>Storage benchmark report</h1>\n<p class=\"meta\">", f);
	fprintf(f, "%zu result%s: ", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		rep_html_esc(f, docs[i]->name);
	}
	fputs("</p>\n", f);
	if (n > 1) {
		fputs("<nav class=\"toc\"><ol>", f);
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "<li><a href=\"#r%zu\">", i + 1);
			rep_html_esc(f, docs[i]->command);
			fputs(": ", f);
			rep_html_esc(f, docs[i]->name);
			fputs("</a>", f);
			html_soak_toc_verdict(f, docs[i]); /* a soak's word, on the first screen */
			fputs("</li>", f);
		}
		fputs("</ol></nav>\n", f);
	}
}

int rep_html(FILE *f, struct rep_doc *const *docs, size_t n)
{
	return rep_plan_html(f, NULL, docs, n);
}

int rep_plan_html(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n)
{
	rep_html_begin(f, p ? "storbench plan report" : "storbench report");
	if (p)
		rep_plan_html_lead(f, p, docs, n); /* the verdict first, its steps after */
	else
		contents(f, docs, n);
	html_sweep_scale(docs, n);
	if (!p && n == 2 && !strcmp(docs[0]->command, "quick") &&
	    !strcmp(docs[1]->command, "quick"))
		html_quick_pair(f, (const struct rep_doc *const *)docs); /* quick A B's two */
	for (size_t i = 0; i < n; i++)
		document(f, docs[i], i);
	rep_html_end(f);
	for (size_t i = 0; i < n; i++)
		if (docs[i]->src->err) /* a table could not read its records again */
			return -EIO;
	return fflush(f) || ferror(f) ? -EIO : 0;
}
