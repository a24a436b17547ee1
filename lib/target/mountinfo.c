/*
 * sb_mount_info: source, type and options of a mount point, from
 * /proc/self/mountinfo (the per-mount options of field 6 followed by the
 * superblock options after the separator, without repeating one).
 */
#include "lib/target/mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
void sb_mountinfo_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

static int has_option(const char *list, const char *opt, size_t len)
{
	for (const char *p = list; *p;) {
		const size_t n = strcspn(p, ",");
		if (n == len && !strncmp(p, opt, len))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Append the options of more to list, skipping those it has. */
static void merge_options(char *list, size_t size, const char *more)
{
	size_t o = strlen(list);

	for (const char *p = more; *p;) {
		const size_t n = strcspn(p, ",");
		if (n && !has_option(list, p, n)) {
			const int w = snprintf(list + o, size - o, "%s%.*s", o ? "," : "", (int)n,
					       p);
			if (w < 0 || (size_t)w >= size - o) {
				list[o] = '\0';
				return;
			}
			o += (size_t)w;
		}
		p += n + (p[n] == ',');
	}
}

/* One mountinfo line: "id parent maj:min root mountpoint options
 * [optional...] - fstype source superoptions". Returns 1 when it is the
 * mount at mountpoint (out filled). */
static int parse_line(char *line, const char *mountpoint, struct sb_mount *out)
{
	char *save, *field[6], *tok, *fstype, *source, *super;
	int n = 0;

	for (tok = strtok_r(line, " \n", &save); tok && n < 6; tok = strtok_r(NULL, " \n", &save))
		field[n++] = tok;
	while (tok && strcmp(tok, "-") != 0)
		tok = strtok_r(NULL, " \n", &save);
	if (n < 6 || !tok || !(fstype = strtok_r(NULL, " \n", &save)) ||
	    !(source = strtok_r(NULL, " \n", &save)))
		return 0;
	super = strtok_r(NULL, " \n", &save);
	sb_mountinfo_unescape(field[4]);
	if (strcmp(field[4], mountpoint) != 0)
		return 0;
	sb_mountinfo_unescape(source);
	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", source);
	snprintf(out->fstype, sizeof(out->fstype), "%s", fstype);
	merge_options(out->options, sizeof(out->options), field[5]);
	if (super)
		merge_options(out->options, sizeof(out->options), super);
	return 1;
}

int sb_mount_info(const char *mountpoint, struct sb_mount *out)
{
	struct sb_mount m;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!mountpoint || !out)
		return -EINVAL;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0)
		if (parse_line(line, mountpoint, &m)) {
			*out = m; /* the last one stacked on the mount point is visible */
			found = 1;
		}
	free(line);
	fclose(f);
	return found ? 0 : -ENOENT;
}
