#!/usr/bin/env python3
"""Long results for the report's tests and benchmarks, made up with a known
truth: nothing this large is committed, it is generated.

  gen-long.py soak N OUT [options]
      a soak log (JSON Lines) of N iterations in the exact format soak
      writes (cli/soak_log.c): a config line, N iteration lines; with
      --summary a summary line whose verdict is the truth
  gen-long.py soak-result N OUT --template SOAK.json [options]
      a soak's results file whose storbench.soak.iteration_records holds
      the same N iterations (the rest from a real soak's result)
  gen-long.py run SECONDS OUT --template RUN.json [--interval-ms MS]
      a run's results file whose job has one storbench.series entry per
      interval (per second by default) over SECONDS, read and write, the
      rest of the document from a real run's result (pretty-printed as
      storbench writes it)

The soak's truth (printed as JSON with --truth FILE): write throughput
50 MB/s with 2% Gaussian noise, a step down of 30% at iteration 0.3 N and
up by 25% at 0.7 N; read 150 MB/s, down 20% at 0.5 N; ten single-iteration
dips to 30% of the level (outliers); kernel messages on --kmsg iterations
and I/O errors on --errors iterations, spread evenly. Deterministic for a
given --seed.
"""
import argparse
import json
import random
import sys

T0 = 1700000000000000000


def soak_truth(n, kmsg, errors):
    steps = {"write_bw": [], "read_bw": []}
    if n >= 40:
        steps["write_bw"] = [(int(0.3 * n), 0.70), (int(0.7 * n), 0.70 * 1.25)]
        steps["read_bw"] = [(int(0.5 * n), 0.80)]
    dips = [int(n * (k + 0.55) / 10) for k in range(10)] if n >= 100 else []
    km = sorted({1 + int(n * (k + 0.5) / kmsg) for k in range(kmsg)}) if kmsg and n else []
    er = sorted({1 + int(n * (k + 0.25) / errors) for k in range(errors)}) if errors and n else []
    return {"iterations": n, "steps": steps, "dips": dips, "kmsg": km, "errors": er}


def level(base, steps, i):
    f = 1.0
    for at, factor in steps:
        if i >= at:
            f = factor
    return base * f


def iterations(n, truth, seed):
    rnd = random.Random(seed)
    dips, km, er = set(truth["dips"]), set(truth["kmsg"]), set(truth["errors"])
    t = T0
    for i in range(1, n + 1):
        w = level(50e6, truth["steps"]["write_bw"], i) * (1 + 0.02 * rnd.gauss(0, 1))
        r = level(150e6, truth["steps"]["read_bw"], i) * (1 + 0.02 * rnd.gauss(0, 1))
        if i in dips:
            w *= 0.3
        bad = 3 if i in er else 0
        rec = {"type": "iteration", "iteration": i, "start_ns": t, "end_ns": t + 950000000,
               "write_bw_bytes": round(w, 6), "read_bw_bytes": round(r, 6),
               "write_lat": {"p50_ns": 1900000 + rnd.randrange(100000),
                             "p99_ns": 4000000 + rnd.randrange(400000), "max_ns": 9000000},
               "read_lat": {"p50_ns": 700000 + rnd.randrange(50000),
                            "p99_ns": 1200000 + rnd.randrange(100000), "max_ns": 3000000},
               "verify": {"blocks_checked": 12800, "intact": 12800 - bad, "corrupted": bad,
                          "misplaced": 0, "stale": 0, "foreign": 0, "unreadable": 0,
                          "newer": 0, "missing": 0,
                          "bad_ranges": [{"offset": 4096 * i % 52428800, "length": 12288,
                                          "class": "corrupted"}] if bad else [],
                          "bad_ranges_omitted": 0},
               "io_errors": 1 if i in er else 0}
        if i in er:
            rec.update({"first_errno": 5, "first_error_offset": 8192})
        kmsg = [{"time_us": (t - T0) // 1000, "category": "io",
                 "text": "mmcblk0: error -110 transferring data, sector %d" % (i * 8)}] \
            if i in km else []
        rec.update({"cache": "drop_caches", "kmsg": kmsg, "kmsg_omitted": 0,
                    "interrupted": False, "failed": i in er or i in km})
        yield rec
        t += 1000000000


def compact(o):
    return json.dumps(o, separators=(",", ":"))


def config_line(n):
    return {"type": "config", "command": "soak", "log_version": 1, "storbench": "0.1.0",
            "started_ns": T0, "seed": 7, "target": "/mnt/card/soak",
            "argv": ["soak", "--iterations=%d" % n, "--size=50M", "/mnt/card/soak"],
            "size": 52428800, "block_size": 4096, "request_size": 1048576, "engine": "io_uring",
            "direct": True, "region_mode": False, "device": "mmcblk0", "model": "SD64G",
            "health_before": {"kind": "none", "time": T0 // 10**9}}


def summary(truth):
    stab = {}
    for k in ("write_bw", "read_bw"):
        base = 50e6 if k == "write_bw" else 150e6
        cps, prev = [], base
        for at, factor in truth["steps"][k]:
            cps.append({"iteration": at, "before": prev, "after": base * factor})
            prev = base * factor
        stab[k] = {"n": truth["iterations"], "median": base, "p5": base * 0.7, "p95": base,
                   "mean": base, "cv": 0.1, "min": base * 0.2, "max": base * 1.1,
                   "outliers": truth["dips"][:32] if k == "write_bw" else [],
                   "change_points": cps}
    failed = len(set(truth["kmsg"]) | set(truth["errors"]))
    return {"type": "summary", "iterations": truth["iterations"], "failed_iterations": failed,
            "verify_bad_blocks": 3 * len(truth["errors"]), "io_errors": len(truth["errors"]),
            "kmsg_lines": len(truth["kmsg"]), "kmsg_watched": True,
            "anomalies": len(truth["dips"]) + 3, "verdict": "fail" if failed else "pass",
            "stability": stab,
            "health": {"before": {"kind": "none", "time": T0 // 10**9},
                       "after": {"kind": "none", "time": T0 // 10**9 + truth["iterations"]},
                       "change": {}}}


def soak(a):
    truth = soak_truth(a.n, a.kmsg, a.errors)
    with open(a.out, "w") as f:
        f.write(compact(config_line(a.n)) + "\n")
        for rec in iterations(a.n, truth, a.seed):
            f.write(compact(rec) + "\n")
        if a.summary:
            f.write(compact(summary(truth)) + "\n")
    return truth


def soak_result(a):
    truth = soak_truth(a.n, a.kmsg, a.errors)
    d = json.load(open(a.template))
    s = summary(truth)
    for k in ("type",):
        s.pop(k)
    s["iteration_records"] = []
    d["storbench"]["soak"] = s
    # the records are written one at a time: the document is never whole here
    head, tail = json.dumps(d, indent=2).split('"iteration_records": []')
    with open(a.out, "w") as f:
        f.write(head + '"iteration_records": [')
        for k, rec in enumerate(iterations(a.n, truth, a.seed)):
            rec.pop("type")
            f.write(("," if k else "") + "\n" + json.dumps(rec, indent=2))
        f.write("\n]" + tail)
    return truth


def run(a):
    d = json.load(open(a.template))
    job = d["jobs"][0]
    step = a.interval_ms * 1000000
    n = int(a.seconds * 1000 // a.interval_ms)
    job["storbench"]["log_interval_ns"] = step
    job["storbench"]["series"] = []
    rnd = random.Random(a.seed)
    head, tail = json.dumps(d, indent=2).split('"series": []')
    slow = (int(0.4 * n), int(0.6 * n))  # a slower stretch in the middle
    with open(a.out, "w") as f:
        f.write(head + '"series": [')
        for i in range(n):
            e = {"t_ns": (i + 1) * step, "len_ns": step}
            for k, base in (("read", 7.5e6), ("write", 7.3e6)):
                bw = base * (0.6 if slow[0] <= i < slow[1] else 1) * (1 + 0.03 * rnd.gauss(0, 1))
                ios = max(1, int(bw * a.interval_ms / 1000 / 4096))
                e[k] = {"bytes": ios * 4096, "ios": ios, "bw_bytes": round(bw, 6),
                        "iops": round(bw / 4096, 6),
                        "lat_mean_ns": round(250000 * (1 + 0.1 * rnd.random()), 6),
                        "lat_p99_ns": 4000000 + rnd.randrange(200000)}
            f.write(("," if i else "") + "\n" + json.dumps(e, indent=2))
        f.write("\n]" + tail)
    return {"intervals": n, "slow": list(slow)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("kind", choices=["soak", "soak-result", "run"])
    p.add_argument("n", type=int, help="iterations (soak) or seconds (run)")
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kmsg", type=int, default=100, help="iterations with kernel messages")
    p.add_argument("--errors", type=int, default=20, help="iterations with I/O errors")
    p.add_argument("--summary", action="store_true", help="end the log with a summary line")
    p.add_argument("--template", help="a real result of the command (soak-result, run)")
    p.add_argument("--interval-ms", type=int, default=1000)
    p.add_argument("--truth", help="write the truth as JSON to this file")
    a = p.parse_args()
    if a.kind != "soak" and not a.template:
        p.error("%s needs --template" % a.kind)
    if a.kind == "run":
        a.seconds = a.n
        truth = run(a)
    else:
        truth = soak(a) if a.kind == "soak" else soak_result(a)
    if a.truth:
        json.dump(truth, open(a.truth, "w"))


if __name__ == "__main__":
    sys.exit(main())
