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
/* Make path and the directories above it (mkdir -p); fails the test when
 * it cannot. */
void sbt_mkdirs(const char *path);

/* A fuzz target (LLVMFuzzerTestOneInput) without libFuzzer: run over every
 * file of tests/fuzz/corpus/NAME (under $SB_TOP), every prefix of each
 * (truncation anywhere) and each byte of subst put at evenly spread
 * positions. The target aborts on what it finds wrong. Skips the test when
 * the corpus is missing; returns how many files it read. */
unsigned sbt_fuzz_corpus(int (*target)(const uint8_t *data, size_t size), const char *name,
			 const uint8_t *subst, size_t nsubst);

#endif
