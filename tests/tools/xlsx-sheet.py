#!/usr/bin/env python3
"""Prints a sheet of an XLSX workbook as CSV, for the CLI tests.

    xlsx-sheet.py BOOK.xlsx SHEET

Reads the workbook with zipfile and xml only (no openpyxl): the sheet is
found by its name through the workbook's relationships; cells hold their
number as written (<v>), or their text (inline or shared strings); an
empty cell is an empty field. Exits 1 when there is no such sheet.
"""
import csv
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "p": "http://schemas.openxmlformats.org/package/2006/relationships"}


def col_index(ref):
    n = 0
    for ch in re.match(r"[A-Z]+", ref).group(0):
        n = n * 26 + ord(ch) - 64
    return n - 1


def main(path, name):
    z = zipfile.ZipFile(path)
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels.findall("p:Relationship", NS)}
    rid = None
    for s in wb.find("m:sheets", NS):
        if s.get("name") == name:
            rid = s.get("{%s}id" % NS["r"])
    if rid is None:
        sys.stderr.write("no sheet %r in %s\n" % (name, path))
        return 1
    shared = []
    if "xl/sharedStrings.xml" in z.namelist():
        sst = ET.fromstring(z.read("xl/sharedStrings.xml"))
        shared = ["".join(t.text or "" for t in si.iter("{%s}t" % NS["m"]))
                  for si in sst.findall("m:si", NS)]
    sheet = ET.fromstring(z.read("xl/" + target[rid].lstrip("/").replace("xl/", "", 1)))
    out = csv.writer(sys.stdout, lineterminator="\n")
    for row in sheet.find("m:sheetData", NS).findall("m:row", NS):
        cells = {}
        for c in row.findall("m:c", NS):
            t, v = c.get("t"), c.find("m:v", NS)
            if t == "inlineStr":
                val = "".join(x.text or "" for x in c.iter("{%s}t" % NS["m"]))
            elif t == "s":
                val = shared[int(v.text)]
            else:
                val = v.text if v is not None else ""
            cells[col_index(c.get("r"))] = val
        out.writerow([cells.get(i, "") for i in range(max(cells) + 1 if cells else 0)])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
