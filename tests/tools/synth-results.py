#!/usr/bin/env python3
"""Synthetic results with a known truth, for compare's tests and calibration.

Writes a storbench results document (schema 1) shaped as quick writes it:
TESTS tests ("T001 Q1T1" ...), each a read job repeated RUNS times
("T001 Q1T1 read (run 2 of 5)"). Test i has its own level (bandwidth from
20 MiB/s to 2 GiB/s); every run draws its bandwidth around it with Gaussian
noise of coefficient of variation CV, times FACTOR (0.7: a 30% slowdown).
IOPS follow the bandwidth (4 KiB requests), mean latency is 1 / IOPS
(queue depth 1), p99 latency has noise of its own. Draws come from
random.Random(SEED) alone, so a seed gives the same file everywhere.

--runs=1 writes an old-style single run (no "(run i of n)"); --fio writes
fio's layout (no storbench section), one run per job. --count=N writes N
files, "{}" in the output's name numbered 1..N, file i from the seed
SEED * 1000 + i (one python start for many files).

  synth-results.py --seed=1 --runs=5 --tests=100 --cv=0.05 --factor=1 -o a.json
  synth-results.py --seed=2 --count=10 --tests=40 -o 'a{}.json'
"""
import argparse
import json
import random
import sys


def job(name, bw, lat_mean, p99, fio):
    ios = max(1, int(bw * 2 / 4096))  # a 2-second run
    d = {
        "io_bytes": ios * 4096, "io_kbytes": ios * 4, "bw_bytes": int(bw),
        "bw": int(bw / 1024), "iops": bw / 4096, "runtime": 2000, "total_ios": ios,
        "lat_ns": {"min": int(lat_mean / 2), "max": int(p99 * 2), "mean": lat_mean,
                   "stddev": lat_mean / 3, "N": ios,
                   "percentile": {"50.000000": int(lat_mean), "99.000000": int(p99)}},
    }
    empty = {"io_bytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0,
             "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}}
    j = {"jobname": name, "groupid": 0, "error": 0,
         "job options": {"name": name, "rw": "randread", "bs": "4096", "iodepth": "1",
                         "numjobs": "1", "ioengine": "psync", "direct": "1"},
         "read": d, "write": dict(empty), "trim": dict(empty), "job_runtime": 2000}
    if not fio:
        j["storbench"] = {"runtime_ns": 2000000000,
                          "conditions": {"engine": "psync", "direct": True, "iodepth": 1,
                                         "numjobs": 1, "cache": "bypassed (direct I/O)"}}
    return j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tests", type=int, default=8)
    ap.add_argument("--cv", type=float, default=0.05)
    ap.add_argument("--factor", type=float, default=1.0)
    ap.add_argument("--fio", action="store_true")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--count", type=int, default=0)
    a = ap.parse_args()
    if a.count:
        if "{}" not in a.output:
            ap.error("--count: the output's name needs {} for the file's number")
        for i in range(1, a.count + 1):
            write(a, a.seed * 1000 + i, a.output.replace("{}", str(i)))
    else:
        write(a, a.seed, a.output)
    return 0


def write(a, seed, path):
    levels = random.Random(0)  # the tests' levels: the same in every file
    rnd = random.Random(seed)
    jobs = []
    for t in range(a.tests):
        test = "T%03d Q1T1" % (t + 1)
        level = 20 * 2**20 * 100 ** levels.random()  # 20 MiB/s .. 2 GiB/s
        p99_ratio = 2 + 3 * levels.random()
        for r in range(a.runs):
            bw = level * a.factor * (1 + a.cv * rnd.gauss(0, 1))
            lat = 4096 / bw * 1e9
            p99 = lat * p99_ratio * (1 + a.cv * rnd.gauss(0, 1))
            name = "%s read" % test if a.runs == 1 else "%s read (run %d of %d)" % (test, r + 1,
                                                                                    a.runs)
            jobs.append(job(name, bw, lat, p99, a.fio))
    doc = {"global options": {"filename": "/synthetic"}, "jobs": jobs}
    if a.fio:
        doc["fio version"] = "fio-3.33"
    else:
        doc["storbench"] = {"schema_version": 1, "version": "synthetic", "command": "quick",
                            "target": {"path": "/synthetic", "kind": "file"}}
    with open(path, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    sys.exit(main())
