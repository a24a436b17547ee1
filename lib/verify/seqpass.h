/*
 * One sequential verify pass over a region of an open file or device: write
 * the blocks (then fsync), or read them back and classify each into an
 * accumulator. Large requests (many verify blocks each) are kept in flight
 * through an engine; they are retired in offset order, so ranges merge as
 * they would in a single stream. A request that fails is redone block by
 * block, which pins an I/O error to the blocks it hit.
 */
#ifndef SB_VERIFY_SEQPASS_H
#define SB_VERIFY_SEQPASS_H

#include "lib/sb.h"
#include "lib/engine/engine.h"
#include "lib/stats/hist.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

struct sb_verify_pass {
	int fd; /* opened by the caller (O_DIRECT or not) */
	const struct sb_engine_ops *engine;
	unsigned depth;	       /* requests in flight, >= 1 */
	uint32_t request_size; /* bytes, a multiple of the block size */
	int is_blockdev;
	uint64_t offset, size; /* the region in this file (bytes); size a
					 * multiple of the block size */
	uint64_t base;	       /* target offset of this file's byte 0 (a
					 * directory's files continue each other) */
	const struct sb_verify_fmt *fmt;
	int write; /* 1: write and fsync; 0: read and check */
	/* A check: NULL, or a bit per block of the region (bit 0: the block
	 * at offset) set for the first block of each write; then a request
	 * ends before the next write's first block (each write is read back
	 * as one request), and only those starting at one are timed (lat)
	 * and counted (timed_bytes) */
	const uint64_t *written;
	uint64_t written_first; /* the bit of the block at offset (0: bit 0) */
	/* After every request, with the bytes done so far; non-zero stops the
	 * pass (Ctrl-C). May be NULL. */
	int (*progress)(void *ctx, uint64_t bytes_done);
	void *ctx;
};

struct sb_verify_pass_result {
	uint64_t bytes, ios;	     /* moved and checked (or written) */
	uint64_t ns;		     /* elapsed, the final fsync included */
	struct sb_hist lat;	     /* per request, from queueing to completion */
	uint64_t timed_bytes;	     /* of the requests in lat */
	uint64_t errors;	     /* write: blocks that could not be written
					 * (read errors are unreadable blocks) */
	uint64_t first_error_offset; /* target offset */
	int first_error;	     /* positive errno, 0 when none */
	int interrupted;
};

/* Runs the pass. acc receives every block of a check pass (unused when
 * writing). Returns 0 — I/O errors are results, not failures — or -errno
 * when the pass could not run (memory, engine setup, a failing engine). */
int sb_verify_pass_run(const struct sb_verify_pass *p, struct sb_verify_acc *acc,
		       struct sb_verify_pass_result *res);

#endif
