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
print("steady" if all(t["steady_state"]["reached"] for t in pts["tests"] if t["test"] != "wsat") else "not steady")
