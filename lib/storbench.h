/*
 * libstorbench: the public interface of the library, the one header cli/
 * and report/ include (tests/layout.py checks it). The headers it gathers
 * are the library's public ones, one per module; the rest of lib/ (worker,
 * offsets, rate, histogram internals, the *_int.h headers) stays internal.
 * Every call returns 0 (or a count) on success and a negative errno on
 * failure; nothing here prints or exits.
 */
#ifndef SB_STORBENCH_H
#define SB_STORBENCH_H

#include "lib/sb.h"

#include "lib/base/units.h"
#include "lib/base/outfile.h"
#include "lib/base/sysinfo.h"
#include "lib/json/json_read.h"
#include "lib/json/json_split.h"
#include "lib/json/json_write.h"
#include "lib/job/buffer.h"
#include "lib/job/job.h"
#include "lib/job/jobfile.h"
#include "lib/job/fio_cmdline.h"
#include "lib/engine/engine.h"
#include "lib/run/run.h"
#include "lib/stats/ioping.h"
#include "lib/analysis/robust.h"
#include "lib/analysis/anomalies.h"
#include "lib/soak/soak_verdict.h"
#include "lib/analysis/ranksum.h"
#include "lib/analysis/difference.h"
#include "lib/analysis/repeats.h"
#include "lib/analysis/steady.h"
#include "lib/results/results.h"
#include "lib/results/sections.h"
#include "lib/results/soak_check.h"
#include "lib/results/soak_json.h"
#include "lib/results/verify_json.h"
#include "lib/results/verify_range_json.h"
#include "lib/device/devcache.h"
#include "lib/device/devinfo.h"
#include "lib/device/diskstat.h"
#include "lib/device/kmsg.h"
#include "lib/device/purge.h"
#include "lib/target/target.h"
#include "lib/target/target_device.h"
#include "lib/target/mountinfo.h"
#include "lib/target/cache.h"
#include "lib/target/precond.h"
#include "lib/target/safety.h"
#include "lib/target/gate.h"
#include "lib/target/scratch.h"
#include "lib/target/hold.h"
#include "lib/target/rankdir.h"
#include "lib/target/jobtarget.h"
#include "lib/verify/block.h"
#include "lib/verify/capacity.h"
#include "lib/verify/job_verify.h"
#include "lib/verify/ranges.h"
#include "lib/verify/seqpass.h"
#include "lib/verify/verify_target.h"
#include "lib/flash/flash.h"
#include "lib/latency/probe.h"
#include "lib/latency/lat_run.h"
#include "lib/meta/meta.h"
#include "lib/sweep/sweep.h"
#include "lib/pts/pts.h"
#include "lib/soak/soak_leftover.h"
#include "lib/soak/soak_record.h"
#include "lib/cliff/cliff.h"
#include "lib/spo/spo.h"
#include "lib/coord/coord.h"

#endif
