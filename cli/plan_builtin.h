/* The built-in plans (plans/NAME.ini, compiled in by scripts/gen-plans): a
 * static binary runs them by name, storbench plan NAME TARGET. */
#ifndef SB_PLAN_BUILTIN_H
#define SB_PLAN_BUILTIN_H

struct plan_builtin {
	const char *name; /* the file's name without .ini */
	const char *text; /* the file */
};
/* In the order of their names; the last {NULL, NULL}. */
extern const struct plan_builtin plan_builtins[];

#endif
