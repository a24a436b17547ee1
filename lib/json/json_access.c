/* The JSON reader: reading a file within the size limit, and the accessors
 * that let renderers walk a tree without checking every type by hand. */
#include "lib/json/json_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_json_parse_file(const char *path, const struct sb_json_limits *lim, struct sb_jdoc **doc,
		       struct sb_json_error *err)
{
	size_t max = lim && lim->max_size ? lim->max_size : SB_JSON_READ_MAX_SIZE;
	struct stat st;
	*doc = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = fstat(fd, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return e;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		if (err)
			snprintf(err->msg, sizeof(err->msg), "larger than the limit of %zu bytes",
				 max);
		return -EFBIG;
	}
	size_t len = (size_t)st.st_size, got = 0;
	char *buf = malloc(len ? len : 1);
	while (buf && got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n <= 0) {
			len = n < 0 ? 0 : got;
			if (n < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		got += (size_t)n;
	}
	int e = buf ? 0 : errno ? -errno : -ENOMEM;
	close(fd);
	if (!buf)
		return e;
	e = sb_json_parse(buf, got, lim, doc, err);
	free(buf);
	return e;
}

/* ---- accessors ---- */
int sb_jv_is(const struct sb_jv *v, enum sb_jv_type t)
{
	return v && v->type == t;
}

const struct sb_jv *sb_jv_get(const struct sb_jv *o, const char *key)
{
	if (!sb_jv_is(o, SB_JV_OBJ))
		return NULL;
	/* the length and the first byte before the bytes: a record of 40
	 * members is looked up member by member, and most keys differ there
	 * (a key holding \u0000 is never the C string key) */
	const size_t len = strlen(key);
	for (size_t i = 0; i < o->obj.n; i++) {
		const struct sb_jmember *m = &o->obj.m[i];
		if (m->keylen == len && m->key[0] == key[0] && !memcmp(m->key, key, len))
			return &m->val;
	}
	return NULL;
}

const struct sb_jv *sb_jv_at(const struct sb_jv *a, size_t i)
{
	return sb_jv_is(a, SB_JV_ARR) && i < a->arr.n ? &a->arr.v[i] : NULL;
}

size_t sb_jv_len(const struct sb_jv *v)
{
	if (!v)
		return 0;
	return v->type == SB_JV_ARR ? v->arr.n : v->type == SB_JV_OBJ ? v->obj.n : 0;
}

const char *sb_jv_str(const struct sb_jv *v)
{
	return sb_jv_is(v, SB_JV_STR) ? v->str.s : NULL;
}

double sb_jv_num(const struct sb_jv *v, double dflt)
{
	return sb_jv_is(v, SB_JV_NUM) ? v->num.d : dflt;
}

int sb_jv_u64(const struct sb_jv *v, uint64_t *out)
{
	if (!sb_jv_is(v, SB_JV_NUM) || !(v->flags & SB_JV_U64))
		return -EINVAL;
	*out = v->num.u;
	return 0;
}

int sb_jv_bool(const struct sb_jv *v, int dflt)
{
	return sb_jv_is(v, SB_JV_BOOL) ? v->boolean : dflt;
}

const char *sb_jv_found(const struct sb_jv *v, char *buf, size_t len)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };
	if (!v)
		snprintf(buf, len, "nothing");
	else if (v->type == SB_JV_NUM)
		snprintf(buf, len, "%g", v->num.d);
	else
		snprintf(buf, len, "%s", v->type <= SB_JV_OBJ ? names[v->type] : "?");
	return buf;
}
