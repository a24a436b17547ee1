#!/usr/bin/env python3
"""Where a page's text lands, as a browser lays it out: for screenshot tests
of the HTML reports that check what a test can measure from the DOM.

    page-boxes.py [OPTIONS] FILE.html

opens FILE.html in headless Chromium (no network) at --width x --height
(1280 x 800 unless told) and prints, as JSON, the viewport, the page's
scroll size and one box per piece of visible text (each text node, SVG
<text> included): {"text", "tag" (its element), "cls", "svg" (index of its
<svg>, or null), "x", "y", "w", "h"} in CSS pixels from the page's top
left. Checks, each exiting 1 with what failed named:

    --first-screen REGEX  a visible text matching REGEX is within the
                          first screen: the viewport Chromium gives the
                          window (about 657 px of a 800 px high one, as
                          a browser's bars leave); repeatable
    --overlaps            no two text boxes overlap by more than 1 px
                          either way (text drawn over text)
    --overflow            the page is no wider than the viewport, and no
                          text leaves the page or its SVG chart
    --json FILE           the boxes are written to FILE, not printed

Exit status 77 when Chromium is missing or cannot start here (the caller
skips), 2 for bad usage. Used by tests/cli/report-*.sh.
"""
import argparse, html, json, os, re, shutil, subprocess, sys, tempfile

SCRIPT = r"""
<script>
window.addEventListener('load', function () {
  var out = [], svgs = Array.prototype.slice.call(document.querySelectorAll('svg'));
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var range = document.createRange();
  for (var n = walk.nextNode(); n; n = walk.nextNode()) {
    var t = n.nodeValue.replace(/\s+/g, ' ').trim();
    var el = n.parentElement;
    if (!t || !el || el.closest('script,style,title,#sb-boxes')) continue;
    var cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || +cs.opacity === 0) continue;
    range.selectNodeContents(n);
    var r = range.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5) continue;
    var svg = el.closest('svg');
    out.push({text: t.slice(0, 120), tag: el.tagName.toLowerCase(),
              cls: el.getAttribute('class') || '', svg: svg ? svgs.indexOf(svg) : null,
              x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
  }
  var charts = svgs.map(function (s) {
    var r = s.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height};
  });
  var d = document.documentElement;
  var pre = document.createElement('pre');
  pre.id = 'sb-boxes';
  pre.textContent = JSON.stringify({viewport: {w: innerWidth, h: innerHeight},
    page: {w: d.scrollWidth, h: d.scrollHeight, client_w: d.clientWidth},
    svgs: charts, boxes: out});
  document.body.appendChild(pre);
});
</script>
"""


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def layout(path, width, height):
    exe = browser()
    if not exe:
        print("chromium is not installed (apt-get install chromium)")
        sys.exit(77)
    doc = open(path, encoding="utf-8").read()
    at = doc.rfind("</body>")
    doc = doc[:at] + SCRIPT + doc[at:] if at >= 0 else doc + SCRIPT
    with tempfile.TemporaryDirectory(prefix="page-boxes.") as tmp:
        page = os.path.join(tmp, "page.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(doc)
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        argv = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--hide-scrollbars", "--user-data-dir=" + os.path.join(tmp, "profile"),
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                "--window-size=%d,%d" % (width, height), "--virtual-time-budget=5000",
                "--dump-dom", "file://" + page]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=90,
                               env=dict(os.environ, HOME=home))
        except subprocess.TimeoutExpired:
            print("chromium did not answer in 90 s")
            sys.exit(77)
    m = re.search(r'<pre id="sb-boxes">(.*?)</pre>', p.stdout, re.S)
    if not m:
        err = [l for l in p.stderr.splitlines() if not l.startswith("[")]
        print("chromium cannot start here (exit %d): %s" % (p.returncode, err[-1] if err else ""))
        sys.exit(77)
    return json.loads(html.unescape(m.group(1)))


def overlap(a, b, tol=1.0):
    dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return dx > tol and dy > tol


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("html")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=800)
    ap.add_argument("--first-screen", action="append", default=[], metavar="REGEX")
    ap.add_argument("--overlaps", action="store_true")
    ap.add_argument("--overflow", action="store_true")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    if not os.path.isfile(a.html):
        ap.error("'%s' is not a file" % a.html)
    d = layout(a.html, a.width, a.height)
    boxes, bad = d["boxes"], []
    for rx in a.first_screen:
        hits = [b for b in boxes if re.search(rx, b["text"])]
        if not hits:
            bad.append("no text matches /%s/" % rx)
        elif min(b["y"] + b["h"] for b in hits) > d["viewport"]["h"]:
            bad.append("/%s/ first shows at y=%.0f, below the first screen (%d px): %r"
                       % (rx, min(b["y"] for b in hits), d["viewport"]["h"], hits[0]["text"]))
    if a.overlaps:
        by_row = sorted(boxes, key=lambda b: b["y"])
        for i, p in enumerate(by_row):
            for q in by_row[i + 1:]:
                if q["y"] >= p["y"] + p["h"]:
                    break
                if overlap(p, q):
                    bad.append("text over text: %r (%s at %.0f,%.0f) and %r (%s at %.0f,%.0f)"
                               % (p["text"], p["tag"], p["x"], p["y"], q["text"], q["tag"],
                                  q["x"], q["y"]))
    if a.overflow:
        pw = d["page"]["client_w"]
        if d["page"]["w"] > pw + 1:
            bad.append("the page is %d px wide in a %d px window" % (d["page"]["w"], pw))
        for b in boxes:
            if b["x"] < -1 or b["x"] + b["w"] > pw + 1:
                bad.append("text leaves the page: %r (x %.0f to %.0f)"
                           % (b["text"], b["x"], b["x"] + b["w"]))
            if b["svg"] is not None:
                s = d["svgs"][b["svg"]]
                if (b["x"] < s["x"] - 1 or b["y"] < s["y"] - 1 or
                        b["x"] + b["w"] > s["x"] + s["w"] + 1 or
                        b["y"] + b["h"] > s["y"] + s["h"] + 1):
                    bad.append("text leaves its chart (svg %d): %r" % (b["svg"], b["text"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(d, f)
    elif not bad:
        json.dump(d, sys.stdout)
        print()
    for m in bad[:40]:
        print(m)
    if len(bad) > 40:
        print("... and %d more" % (len(bad) - 40))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
