# tests/tools/page-boxes.py, the screenshot tests' measure, catches what it
# promises on a page made to fail each check (text below the first screen,
# text over text, a page wider than the window, text out of its chart,
# text off the page) and passes a page that has none of it.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
pb="$SB_TOP/tests/tools/page-boxes.py"
cat >"$T/bad.html" <<'HTML'
<!DOCTYPE html><html><body><p>Top line</p><div style="height:2000px"></div><p>Verdict: FAIL</p>
<div style="position:relative"><span>first label</span><span style="position:absolute;left:10px;top:2px">second label</span></div>
<svg width="200" height="100"><text x="150" y="50">far outside the chart</text></svg>
<p style="white-space:nowrap">aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</p>
</body></html>
HTML
python3 "$pb" --overlaps --overflow --first-screen Verdict "$T/bad.html" >"$T/bad.out"
rc=$?
[ $rc = 77 ] && skip "$(tail -n 1 "$T/bad.out")"
[ $rc = 1 ] || { cat "$T/bad.out"; fail "a page made to fail passed (exit $rc)"; }
for m in "/Verdict/ first shows at y=" "text over text: 'first label'" "the page is" \
	"text leaves its chart (svg 0): 'far outside the chart'" "text leaves the page: 'aaaa"; do
	grep -qF "$m" "$T/bad.out" || { cat "$T/bad.out"; fail "not caught: $m"; }
done
ok "every check caught on a page made to fail it"

cat >"$T/good.html" <<'HTML'
<!DOCTYPE html><html><body><h1>Verdict: PASS</h1><p>first label</p><p>second label</p>
<svg width="300" height="100"><text x="10" y="50">inside the chart</text></svg></body></html>
HTML
python3 "$pb" --overlaps --overflow --first-screen 'Verdict: PASS' --json "$T/good.json" "$T/good.html" ||
	fail "a clean page failed"
python3 - "$T/good.json" <<'PY' || fail "the boxes of the clean page"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["viewport"]["w"] == 1280, d["viewport"]
t = {b["text"]: b for b in d["boxes"]}
assert set(t) == {"Verdict: PASS", "first label", "second label", "inside the chart"}, t.keys()
assert t["inside the chart"]["svg"] == 0 and t["first label"]["svg"] is None
assert t["first label"]["y"] < t["second label"]["y"]
PY
ok "a clean page passes, its boxes in order"
