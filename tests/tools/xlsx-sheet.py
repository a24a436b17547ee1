#!/usr/bin/env python3
"""Reads an XLSX workbook for the CLI tests: a sheet as CSV, or checks.

    xlsx-sheet.py BOOK.xlsx SHEET
    xlsx-sheet.py --check [--first=NAME] [--verdict=TEXT] [--charts=N]
                  [--units=iec|si] [--show] BOOK.xlsx

Reads the workbook with zipfile and xml only (no openpyxl): the sheet is
found by its name through the workbook's relationships; cells hold their
number as written (<v>), or their text (inline or shared strings); an
empty cell is an empty field. Exits 1 when there is no such sheet.

--check holds the workbook to what a spreadsheet user needs without
formatting by hand, and prints each fault (exit 1) or, with --show, each
sheet's rows, frozen panes and number formats:
  - the first sheet is NAME and holds TEXT (the verdict) in a cell;
  - no sheet is empty or holds only its header rows (the frozen ones);
  - every table's header is frozen (a pane in state frozen): titles across
    its first row, or a title over them (a key and value sheet, as a
    soak's verdict, has none);
  - every number has a number format (not General), so 1841.29320570869
    shows as 1,841.3;
  - every cell fits its column: a number always (a spreadsheet shows ####
    otherwise), text when the cell to its right is full;
  - N charts or more (xl/charts/chart*.xml), each with a series;
  - --units: no rate in the other unit ("MB/s" in iec, "MiB/s" in si) in
    any text of a sheet or a chart.
"""
import csv
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "p": "http://schemas.openxmlformats.org/package/2006/relationships",
      "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
M = "{%s}" % NS["m"]
# Excel's built-in number formats that show a number in a chosen form
BUILTIN = {1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%",
           11: "0.00E+00", 14: "mm-dd-yy", 22: "m/d/yy h:mm", 46: "[h]:mm:ss"}


def col_index(ref):
    n = 0
    for ch in re.match(r"[A-Z]+", ref).group(0):
        n = n * 26 + ord(ch) - 64
    return n - 1


class Book:
    def __init__(self, path):
        self.z = zipfile.ZipFile(path)
        wb = ET.fromstring(self.z.read("xl/workbook.xml"))
        rels = ET.fromstring(self.z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target") for r in rels.findall("p:Relationship", NS)}
        self.sheets = [(s.get("name"), "xl/" + target[s.get("{%s}id" % NS["r"])]
                        .lstrip("/").replace("xl/", "", 1)) for s in wb.find("m:sheets", NS)]
        self.shared = []
        if "xl/sharedStrings.xml" in self.z.namelist():
            sst = ET.fromstring(self.z.read("xl/sharedStrings.xml"))
            self.shared = ["".join(t.text or "" for t in si.iter(M + "t"))
                           for si in sst.findall("m:si", NS)]
        # the number format of each cell style (xf), by its index
        st = ET.fromstring(self.z.read("xl/styles.xml"))
        fmts = dict(BUILTIN)
        nf = st.find("m:numFmts", NS)
        for f in (nf if nf is not None else []):
            fmts[int(f.get("numFmtId"))] = f.get("formatCode")
        self.xf_fmt = [fmts.get(int(x.get("numFmtId", "0"))) if x.get("numFmtId", "0") != "0"
                       else None for x in st.find("m:cellXfs", NS).findall("m:xf", NS)]

    def sheet_xml(self, name):
        for n, part in self.sheets:
            if n == name:
                return ET.fromstring(self.z.read(part))
        return None

    def cells(self, sheet):
        """(row, col, value, is_number, format) of every cell that holds something"""
        for row in sheet.find("m:sheetData", NS).findall("m:row", NS):
            for c in row.findall("m:c", NS):
                t, v = c.get("t"), c.find("m:v", NS)
                r = int(re.search(r"\d+", c.get("r")).group(0)) - 1
                x = col_index(c.get("r"))
                fmt = self.xf_fmt[int(c.get("s", "0"))]
                if t == "inlineStr":
                    yield r, x, "".join(e.text or "" for e in c.iter(M + "t")), False, fmt
                elif t == "s":
                    yield r, x, self.shared[int(v.text)], False, fmt
                elif t == "str":
                    yield r, x, v.text or "", False, fmt
                elif v is not None:
                    yield r, x, v.text, True, fmt


def print_sheet(path, name):
    b = Book(path)
    sheet = b.sheet_xml(name)
    if sheet is None:
        sys.stderr.write("no sheet %r in %s\n" % (name, path))
        return 1
    out = csv.writer(sys.stdout, lineterminator="\n")
    for row in sheet.find("m:sheetData", NS).findall("m:row", NS):
        cells = {}
        for c in row.findall("m:c", NS):
            t, v = c.get("t"), c.find("m:v", NS)
            if t == "inlineStr":
                val = "".join(x.text or "" for x in c.iter(M + "t"))
            elif t == "s":
                val = b.shared[int(v.text)]
            else:
                val = v.text if v is not None else ""
            cells[col_index(c.get("r"))] = val
        out.writerow([cells.get(i, "") for i in range(max(cells) + 1 if cells else 0)])
    return 0


def shown(value, fmt):
    """The text a spreadsheet shows for a number in format fmt (its width)."""
    v = float(value)
    if fmt is None:
        return "%.10g" % v
    code = fmt.split(";")[0]
    code = re.sub(r"\[[^\]]*\]", "", code)  # [h], [<1] ...
    if re.search(r"[yd]|h+:m|m+:s", code):  # a date or a time: as long as its code
        return re.sub(r'"([^"]*)"', r"\1", code)
    lit = "".join(re.findall(r'"([^"]*)"', code))
    num = re.sub(r'"[^"]*"', "", code).replace("\\", "")
    pct = "%" in num
    if pct:
        v *= 100
    dec = len(num.split(".")[1].rstrip("%").rstrip()) if "." in num else 0
    txt = ("{:,.%df}" if "," in num else "{:.%df}") % dec
    return txt.format(v) + ("%" if pct else "") + lit


def col_widths(sheet):
    w = {}
    cols = sheet.find("m:cols", NS)
    for c in (cols if cols is not None else []):
        for x in range(int(c.get("min")) - 1, int(c.get("max"))):
            w[x] = float(c.get("width"))
    fmt = sheet.find("m:sheetFormatPr", NS)
    default = float(fmt.get("defaultColWidth", "8.43")) if fmt is not None else 8.43
    return w, default


def check(path, first=None, verdict=None, charts=0, units=None, show=False):
    b = Book(path)
    faults = []
    names = [n for n, _ in b.sheets]
    if first is not None and (not names or names[0] != first):
        faults.append("the first sheet is %r, not %r" % (names[0] if names else None, first))
    texts = []
    for name, _ in b.sheets:
        sheet = b.sheet_xml(name)
        cells = list(b.cells(sheet))
        pane = sheet.find("m:sheetViews/m:sheetView/m:pane", NS)
        frozen = int(float(pane.get("ySplit", "0"))) if pane is not None and \
            pane.get("state") == "frozen" else 0
        rows = {r for r, *_ in cells}
        fmts = sorted({f for *_, num, f in cells if num and f})
        if show:
            print("%s: %d rows, frozen %d, number formats %s" % (name, len(rows), frozen, fmts))
        if not cells:
            faults.append("%s: an empty sheet" % name)
            continue
        if name == names[0] and verdict is not None and \
                not any(verdict in v for _r, _x, v, num, _f in cells if not num):
            faults.append("%s: no cell says %r" % (name, verdict))
        # the header: a bold first row of text, or the rows above the pane
        header = frozen or 1
        if not any(r >= header for r in rows):
            faults.append("%s: only its header (%d rows)" % (name, header))
        # a table: titles across its first row, or a title over them
        width_of = lambda r: len([1 for c in cells if c[0] == r])
        table = width_of(0) >= 3 or (width_of(0) == 1 and width_of(1) >= 3)
        if table and not frozen:
            faults.append("%s: its header is not frozen" % name)
        width, default = col_widths(sheet)
        full = {(r, x) for r, x, *_ in cells}
        bad_num = [(r, x, v) for r, x, v, num, f in cells if num and not f]
        if bad_num:
            r, x, v = bad_num[0]
            faults.append("%s: %d numbers without a number format, first %s at row %d column %d"
                          % (name, len(bad_num), v, r + 1, x + 1))
        narrow = []
        for r, x, v, num, f in cells:
            t = shown(v, f) if num else v
            if not num:
                texts.append(t)
                if (r, x + 1) not in full:
                    continue  # text runs on over the empty cell beside it
            need = len(t) * (1.1 if r < header else 1.0)
            if width.get(x, default) + 0.5 < need:
                narrow.append("%r (%.0f wide) in column %d row %d" % (t, width.get(x, default), x + 1, r + 1))
        if narrow:
            faults.append("%s: %d cells wider than their column, first %s" % (name, len(narrow), narrow[0]))
    parts = [n for n in b.z.namelist() if re.match(r"xl/charts/chart\d+\.xml$", n)]
    for p in parts:
        x = ET.fromstring(b.z.read(p))
        if not list(x.iter("{%s}ser" % NS["c"])):
            faults.append("%s: a chart without a series" % p)
        texts += [t.text or "" for t in x.iter("{%s}t" % NS["a"])]
    if show:
        print("charts: %d" % len(parts))
    if len(parts) < charts:
        faults.append("%d charts, expected %d or more" % (len(parts), charts))
    other = {"iec": "MB/s", "si": "MiB/s"}.get(units)
    if other:
        wrong = [t for t in texts if re.search(r"(^|[^i])" + re.escape(other) if units == "iec"
                                               else re.escape(other), t)]
        if wrong:
            faults.append("rates in %s with --units=%s: %r" % (other, units, wrong[0]))
    for f in faults:
        print(f)
    return 1 if faults else 0


def main(argv):
    if argv and argv[0] == "--check":
        opt = {"first": None, "verdict": None, "charts": "0", "units": None}
        show, rest = False, []
        for a in argv[1:]:
            m = re.match(r"--(first|verdict|charts|units)=(.*)", a)
            if m:
                opt[m.group(1)] = m.group(2)
            elif a == "--show":
                show = True
            else:
                rest.append(a)
        return check(rest[0], opt["first"], opt["verdict"], int(opt["charts"]), opt["units"], show)
    return print_sheet(argv[0], argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
