# Recomputes, from the rounds of a pts results file alone, what the file
# says about them: each round's tracked value (the tracked cell's figure),
# the steady-state window (METHODS.md 3.1: the first 5 rounds whose range
# is <= 20% of their average and whose least-squares line moves <= 10% of
# it; else the last 5, not reached), its figures and the window averages
# of every cell. Prints what it checked; exits 1 on the first difference.
import json
import sys

doc = json.load(open(sys.argv[1]))
pts = doc["storbench"]["pts"]
# --device=PATH: the device the run wrote, for the segments' check below
device = next((a[len("--device="):] for a in sys.argv[2:] if a.startswith("--device=")), None)


def close(a, b, what):
    if abs(a - b) > 1e-6 * max(1.0, abs(a), abs(b)):
        sys.exit("%s: file says %r, recomputed %r" % (what, a, b))


def window(y, first, n):
    xs = list(range(first, first + n))
    ys = y[first - 1:first - 1 + n]
    avg = sum(ys) / n
    sx, sy = sum(xs), sum(ys)
    sxx = sum(x * x for x in xs)
    sxy = sum(x * v for x, v in zip(xs, ys))
    den = n * sxx - sx * sx
    a = (n * sxy - sx * sy) / den if den else 0.0
    b = (sy * sxx - sx * sxy) / den if den else avg
    rng = max(ys) - min(ys)
    slope_exc = abs(a) * (n - 1)
    ok = n == 5 and rng <= 0.2 * abs(avg) and slope_exc <= 0.1 * abs(avg)
    return dict(reached=ok, window=[first, first + n - 1], average=avg, data_excursion=rng,
                slope_excursion=slope_exc, slope=a, intercept=b,
                data_excursion_allowed=0.2 * abs(avg), slope_excursion_allowed=0.1 * abs(avg))


metric = {"iops": "iops", "write_bw_bytes": "write_bw_bytes", "lat_mean_ns": "lat_mean_ns"}
for t in pts["tests"]:
    rounds = t["rounds"]
    tr = t["tracking"]
    y = []
    for r in rounds:
        cell = [c for c in r["cells"] if c["read_pct"] == tr["read_pct"] and c["bs"] == tr["bs"]]
        assert len(cell) == 1, "the tracked cell is in every round once"
        close(r["tracking"], cell[0][metric[tr["metric"]]], "%s round %d tracking" % (t["name"], r["round"]))
        y.append(r["tracking"])
    if t["test"] == "wsat":
        total = 0
        for r in rounds:
            total += sum(c["bytes_written"] for c in r["cells"])
            assert r["bytes_written_total"] == total, "wsat bytes_written_total"
        print("%s: %d rounds, %d bytes written" % (t["name"], len(rounds), total))
        continue
    want = None
    for x in range(5, len(y) + 1):
        w = window(y, x - 4, 5)
        if w["reached"]:
            want = w
            break
    if want is None:
        n = min(5, len(y))
        want = window(y, len(y) - n + 1, n)
    ss = t["steady_state"]
    if ss["reached"] != want["reached"] or ss["window"] != want["window"]:
        sys.exit("%s: steady state %r %r, recomputed %r %r" % (t["name"], ss["reached"], ss["window"], want["reached"], want["window"]))
    for k in ("average", "data_excursion", "slope_excursion", "slope", "intercept",
              "data_excursion_allowed", "slope_excursion_allowed"):
        close(ss[k], want[k], "%s steady_state.%s" % (t["name"], k))
    f, l = want["window"]
    for i, avg in enumerate(t["window_average"]):
        for k in ("iops", "read_iops", "write_iops", "bw_bytes", "lat_mean_ns", "lat_max_ns"):
            m = sum(rounds[r - 1]["cells"][i][k] for r in range(f, l + 1)) / (l - f + 1)
            close(avg[k], m, "%s window_average[%d].%s" % (t["name"], i, k))
    # a run stops at its first steady window, or at its round limit
    if want["reached"]:
        assert l == len(rounds), "%s ran past its steady window" % t["name"]
    else:
        assert len(rounds) == pts["conditions"]["max_rounds"], "%s stopped early" % t["name"]
    print("%s: %d rounds, steady %s, window %d..%d" % (t["name"], len(rounds), want["reached"], f, l))


def segments_check():
    """PTS-C's active-range segments (METHODS.md 3.7) as recorded: 2048 of
    equal size inside the active range, aligned, never touching, on the
    random tests with rounds. With --device, and when those tests were the
    run's only writes (no preconditioning, WSAT or throughput), no byte
    outside the segments may have changed from the purge's zeros: the
    device itself is the trace of where the requests went."""
    c = pts["conditions"]
    s = c["active_range_segments"]
    want = [t["name"] for t in pts["tests"] if t["test"] in ("iops", "latency")]
    got = [t["name"] for t in pts["tests"] if t["segmented"]]
    if pts["profile"] != "client" or not want:
        assert s is None and not got, "segments in a run without segmented tests"
        return
    assert got == want and s["tests"] == want, "segmented tests %r, expected %r" % (got, want)
    n, size, align, st = s["count"], s["segment_bytes"], s["align_bytes"], s["starts"]
    assert n == 2048 and len(st) == n, "2048 segments"
    assert s["active_bytes"] == n * size, "active bytes = count x size"
    ar = c["active_range"]["bytes"]
    for i, a in enumerate(st):
        assert a % align == 0 and a + size <= ar, "segment %d at %d" % (i, a)
        assert i == 0 or a >= st[i - 1] + size + align, "segments %d and %d touch" % (i - 1, i)
    for t in pts["tests"]:
        if t["segmented"]:
            assert all(size % b == 0 and b <= align for b in t["block_sizes"]), \
                "%s: a request could cross a segment's end" % t["name"]
    print("segments: %d of %d bytes, %d active, aligned, not touching" % (n, size, n * size))
    if device is None:
        return
    if c["precondition"]["passes"] or any(not t["segmented"] for t in pts["tests"]):
        sys.exit("--device: only for a run whose only writes were the segmented tests")
    written, inside, blk = 0, 0, 4096
    k = 0
    with open(device, "rb") as f:
        off = 0
        while True:
            buf = f.read(1 << 20)
            if not buf:
                break
            for b in range(0, len(buf), blk):
                if buf[b:b + blk].count(0) == blk:
                    continue
                at = off + b
                while k < n and st[k] + size <= at:
                    k += 1
                if not (k < n and st[k] <= at):
                    sys.exit("%s: bytes at %d were written, outside every segment" % (device, at))
                written += 1
            off += len(buf)
    total = sum(t["bytes_written"] for t in pts["tests"])
    # each thread of a cell visits each block of the segments once a pass:
    # at least one cell's share of a thread, at most everything written
    most = max(c["bytes_written"] // t["threads"] for t in pts["tests"]
               for r in t["rounds"] for c in r["cells"])
    lo, hi = min(n * size, most) // blk, min(n * size, total) // blk
    assert lo <= written <= hi, "%d blocks written, expected %d..%d" % (written, lo, hi)
    print("segments on %s: %d written blocks, all inside the segments" % (device, written))


segments_check()
print("steady" if all(t["steady_state"]["reached"] for t in pts["tests"] if t["test"] != "wsat") else "not steady")
