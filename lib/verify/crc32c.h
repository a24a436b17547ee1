/*
 * CRC32C (Castagnoli): the verify blocks' checksum when storbench is built
 * without xxHash. Uses the CPU's CRC instruction (SSE4.2 on x86-64, the CRC
 * extension on AArch64) when it is there, a 1 KiB table otherwise.
 */
#ifndef SB_CRC32C_H
#define SB_CRC32C_H

#include "lib/sb.h"

/* CRC of n bytes at p, continuing from crc (0 to start): the result of one
 * call can be passed to the next, so sb_crc32c(sb_crc32c(0, a), b) is the
 * CRC of a followed by b. sb_crc32c(0, "123456789", 9) == 0xe3069283. */
uint32_t sb_crc32c(uint32_t crc, const void *p, size_t n);
/* The table version, always (for tests: both must agree). */
uint32_t sb_crc32c_sw(uint32_t crc, const void *p, size_t n);
/* 1 when sb_crc32c uses the CPU instruction. */
int sb_crc32c_hw(void);

#endif
