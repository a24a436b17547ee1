# The HTML report in a real browser (headless Chromium, no network): the
# page loads, holds the expected charts with nothing NaN and no empty path,
# logs nothing to the console, and renders to a screenshot, kept as
# $SB_BUILD/report-browser.png for a person to look at.
# needs: slow
. "$(dirname "$0")/../lib/cli.sh"

browser=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (apt-get install chromium)"

expect_exit 0 "$SB" run --rw=randrw --size=8M --runtime=1200ms --time-based --log-interval=200ms \
	--quiet --output="$T/run.json" "$T/run.dat"
mkdir "$T/q"
expect_exit 0 "$SB" quick --size=8M --runtime=150ms --repeat=2 --quiet --output="$T/quick.json" "$T/q"
expect_exit 0 "$SB" report "$T/run.json" "$T/quick.json" -o "$T/report.html"
expect_exit 0 "$SB" compare "$T/quick.json" "$T/quick.json" -o "$T/compare.html"
python3 - "$T/soak.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], 'w') as f:
    f.write(json.dumps({"type": "config", "log_version": 1, "storbench": "0.1.0", "target": "/x"}) + '\n')
    for i in range(1, 31):
        f.write(json.dumps({"type": "iteration", "iteration": i, "io_errors": 0, "kmsg": [],
                            "write_bw_bytes": (4e7 if i < 20 else 2e7) * (1 + (i % 3) / 100),
                            "read_bw_bytes": 9e7 if i != 7 else 1e7}) + '\n')
PY
expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak.html"
# verify with damage, a real soak, a sweep: the sections added for them
expect_exit 0 "$SB" verify --phase=write --size=2M --quiet "$T/v.dat"
dd if=/dev/zero of="$T/v.dat" bs=4096 seek=9 count=2 conv=notrunc status=none
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/v.json" "$T/v.dat"
mkdir "$T/s" "$T/w"
expect_exit 0 "$SB" soak --iterations=2 --size=2M --quiet --log="$T/s.jsonl" --output="$T/s.json" "$T/s"
expect_exit 0 "$SB" sweep --file-sizes=64k,256k --record-sizes=4k,64k --tests=write,read --warm \
	--quiet --output="$T/w.json" "$T/w"
expect_exit 0 "$SB" report "$T/v.json" "$T/s.json" "$T/w.json" -o "$T/more.html"

# no network: every host resolves to nothing and any proxy is a closed port
chrome() { # OUTFILE ARGS...: runs the browser, its log in $T/chrome.log
	out=$1; shift
	mkdir -p "$T/home"
	HOME="$T/home" timeout -k 5 90 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-extensions \
		--user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" \
		--host-resolver-rules="MAP * ~NOTFOUND" --proxy-server="127.0.0.1:9" \
		--enable-logging=stderr --v=0 "$@" >"$out" 2>"$T/chrome.log"
}

check_page() { # HTML CHARTS
	chrome "$T/dom.html" --dump-dom "file://$1"
	rc=$?
	if [ $rc != 0 ] || ! grep -q "</html>" "$T/dom.html"; then
		skip "chromium cannot start here (exit $rc): $(grep -v '^\[' "$T/chrome.log" | tail -n 1)"
	fi
	if grep -q ":CONSOLE" "$T/chrome.log"; then
		grep ":CONSOLE" "$T/chrome.log"
		fail "$(basename "$1"): the browser logged console messages"
	fi
	python3 - "$T/dom.html" "$2" <<'PY' || fail "$(basename "$1"): charts in the DOM"
import re, sys
dom, want = open(sys.argv[1], encoding='utf-8').read(), int(sys.argv[2])
svgs = re.findall(r'<svg class="chart[^"]*".*?</svg>', dom, re.S)
assert len(svgs) == want, "%d charts, expected %d" % (len(svgs), want)
for s in svgs:
    assert 'NaN' not in s and 'Infinity' not in s, "NaN in a chart"
    assert not re.search(r'\sd=""', s), "an empty path"
    assert re.search(r'<(path|rect) class="series"|<rect [^>]*rx=', s), "a chart without marks"
    assert '<text class="title"' in s, "a chart without a title"
    assert 'class="axis-title"' in s, "a chart without axis titles"
PY
}

check_page "$T/report.html" 6
ok "report: 6 charts, no NaN, no empty path, no console messages"
check_page "$T/compare.html" 1
ok "compare: 1 chart, no console messages"
check_page "$T/soak.html" 2
ok "soak log: 2 charts, no console messages"
# verify: the map and its check phase's 2 latency charts; soak 2; sweep 2 heatmaps
check_page "$T/more.html" 7
grep -q 'chart-grid' "$T/dom.html" || fail "no verify map in the DOM"
ok "verify, soak and sweep results: 7 charts, no console messages"

chrome "$T/shot.log" --hide-scrollbars --window-size=1280,2400 --screenshot="$T/shot.png" \
	"file://$T/report.html"
[ -s "$T/shot.png" ] || fail "no screenshot"
python3 - "$T/shot.png" <<'PY' || fail "the screenshot is not a 1280 px wide PNG with content"
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', b[16:24])
assert w == 1280 and h >= 1000, (w, h)
assert len(b) > 40000, "a blank page compresses smaller than this: %d bytes" % len(b)
PY
cp "$T/shot.png" "$SB_BUILD/report-browser.png" 2>/dev/null
chrome "$T/shot.log" --hide-scrollbars --window-size=1280,2400 --screenshot="$T/more.png" \
	"file://$T/more.html"
cp "$T/more.png" "$SB_BUILD/report-browser-more.png" 2>/dev/null
ok "screenshot taken ($SB_BUILD/report-browser.png)"
