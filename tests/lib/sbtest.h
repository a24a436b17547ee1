/*
 * Helpers shared by the unit tests. Assertions come from cmocka; a test
 * program that cannot run here calls sbt_skip("why"), which prints the
 * reason and exits 77.
 */
#ifndef SBTEST_H
#define SBTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/sb.h"

_Noreturn void sbt_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fresh temporary directory (removed with its contents at exit). */
const char *sbt_tmpdir(void);
/* Path inside sbt_tmpdir(); static buffer per call index 0..7. */
const char *sbt_path(const char *name);
int sbt_is_root(void);

#endif
