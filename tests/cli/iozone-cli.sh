# storbench iozone: the seed lines run (sizes shortened), the figures sit in
# iozone's columns (the seed's script cuts 63-69 and 73-78) and are the
# results' own, -R prints iozone's Excel blocks, -b writes an XLSX workbook,
# -w keeps the file so the seed's loop runs again; next to real iozone
# (where installed) the header and rows have the same columns; iozone's
# gengnuplot.sh reads the right rows from sweep's text and from ours, and
# report.pl every test's column (gnuplot drawing them); bad
# options exit 2 naming the option and create nothing.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/w"
cd "$T/w" || fail "cd"

# ---- the first seed line (-s128m shortened to 8m)
seed1="-azecI -+n -L64 -S32 -r2m -s8m -i0 -i2 -+b 400000,30000 -w -f testfile"
# shellcheck disable=SC2086
expect_exit 0 "$SB" iozone --quiet --output="$T/s1.json" $seed1
cp "$T/out" "$T/s1.txt"
[ -f testfile ] || fail "-w: the test file was removed"
line=$(grep -E '^ +8192 +2048 ' "$T/s1.txt") || { cat "$T/s1.txt"; fail "no row for 8192 2048"; }
# the seed's script cuts 63-69 and 73-78, the right of iozone's 9-wide
# random read and write fields (61-69, 70-78): the whole figure while it
# has 7 and 6 digits, its last digits past that (iozone's own rows alike)
rr=$(echo "$line" | cut -c61-69 | tr -d ' ')
rw=$(echo "$line" | cut -c70-78 | tr -d ' ')
[ "$(echo "$line" | cut -c63-69 | tr -d ' ')" = "$(printf %s "$rr" | tail -c 7)" ] ||
	fail "cut -c63-69 does not read the random read field '$rr'"
[ "$(echo "$line" | cut -c73-78 | tr -d ' ')" = "$(printf %s "$rw" | tail -c 6)" ] ||
	fail "cut -c73-78 does not read the random write field '$rw'"
wr=$(echo "$line" | cut -c25-33 | tr -d ' ')
re=$(echo "$line" | cut -c34-42 | tr -d ' ')
want=$(json "$T/s1.json" "' '.join(str(t['kib_per_s'][0][0]) for t in d['storbench']['sweep']['tests'])")
# -i0 -i2 -+n: write, random read, random write were run; rewrite prints 0
[ "$wr $rr $rw" = "$want" ] || fail "columns hold '$wr $rr $rw', the results '$want'"
[ "$re" = 0 ] || fail "-+n: rewrite column is '$re', not 0"
[ "$(echo "$line" | cut -c43-60 | tr -d ' ')" = "" ] || fail "read columns not blank"
for l in "Auto Mode" "Cross over of record size disabled." "Include fsync in write timing" \
	"Include close in write timing" "O_DIRECT feature enabled" "No retest option selected" \
	"Record Size 2048 kB" "File size set to 8192 kB" "Setting no_unlink" \
	"Processor cache size set to 32 kBytes." "Processor cache line size set to 64 bytes." \
	"Burst size set to 400000 Kbytes." "Burst sleep duration set to 30000 msec"; do
	grep -qx "	$l" "$T/s1.txt" || fail "header lacks '$l'"
done
grep -qx 'iozone test complete.' "$T/s1.txt" || fail "no 'iozone test complete.'"
json "$T/s1.json" "d['storbench']['sweep']['options']" | grep -q "'direct': True" ||
	fail "-I: not direct"
ok "first seed line: columns 63-69 and 73-78 hold random read and write"

# the seed's loop: the file -w left is storbench's, taken again
# shellcheck disable=SC2086
expect_exit 0 "$SB" iozone --quiet $seed1
ok "the seed's loop runs again over the kept file"

# ---- the second seed line (-s 2G shortened to 1m)
xlsx=0
"$SB" --version | grep -q 'features:.* xlsx' && xlsx=1
b="-Rb iozone.xls"
[ $xlsx = 1 ] || b="-R"
# shellcheck disable=SC2086
expect_exit 0 "$SB" iozone --quiet --output="$T/s2.json" -a -s 1m -+n -i 0 -i 1 -f F $b
cp "$T/out" "$T/s2.txt"
[ -e F ] && fail "without -w the test file stays"
python3 - "$T/s2.txt" "$T/s2.json" <<'PY' || fail "second seed line: rows and -R blocks"
import json, sys
text = open(sys.argv[1]).read().split("\n")
s = json.load(open(sys.argv[2]))["storbench"]["sweep"]
t = {x["test"]: x["kib_per_s"] for x in s["tests"]}
recs = [r // 1024 for r in s["record_sizes"]]
assert recs == [4 << k for k in range(13)], recs  # auto mode: 4k..16m
rows = [l for l in text if l[:16].strip().isdigit()]
cells = [j for j, r in enumerate(recs) if r <= 1024]
assert len(rows) == len(cells) == 9, rows
for j, l in zip(cells, rows):
    assert len(l) == 142, (len(l), l)  # the blank fread columns: 17 (iozone)
    assert int(l[:16]) == 1024 and int(l[16:24]) == recs[j]
    assert int(l[24:33]) == t["write"][0][j] and int(l[33:42]) == 0
    assert int(l[42:51]) == t["read"][0][j] and int(l[51:60]) == 0
    assert l[60:].strip() == ""
i = text.index("Excel output is below:")
blocks = text[i + 1:]
titles = [l for l in blocks if l.startswith('"') and l.endswith('report"')]
assert titles == ['"Writer report"', '"Re-writer report"', '"Reader report"',
                  '"Re-Reader report"'], titles
for name, key in (("Writer report", "write"), ("Reader report", "read"),
                  ("Re-writer report", None)):
    k = blocks.index('"%s"' % name)
    assert blocks[k - 1] == ""
    assert blocks[k + 1] == "      " + "".join('  "%d"' % r for r in recs), blocks[k + 1]
    row = blocks[k + 2]
    assert row.startswith('"1024"  ') and row.endswith(" "), repr(row)
    vals = [int(v) for v in row[len('"1024"  '):].split()]
    assert vals == ([t[key][0][j] for j in cells] if key else [0] * 9), (name, vals)
PY
if [ $xlsx = 1 ]; then
	[ "$(grep -c "note: -b: 'iozone.xls' written as XLSX" "$T/err")" = 1 ] ||
		{ cat "$T/err"; fail "-b FILE.xls: one note that it is XLSX"; }
	python3 - iozone.xls <<'PY' || fail "-b: not an XLSX workbook with the tests' sheets"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
book = z.read("xl/workbook.xml").decode()
for name in ("write", "read"):
    assert 'name="%s"' % name in book, book
PY
fi
ok "second seed line: rows, -R blocks and the workbook"

# ---- next to real iozone: the same header and row columns
if command -v iozone >/dev/null 2>&1; then
	shape() { # line lengths and where each word ends: header and rows
		python3 - "$1" <<'PY'
import re, sys
for l in open(sys.argv[1]).read().split("\n"):
    if re.match(r"^ +\d+ +\d+ ", l) or "reclen" in l or ("random" in l and "bkwd" in l):
        print(len(l), [m.end() for m in re.finditer(r"\S+", l)])
PY
	}
	for args in "-s 64k -r 4k" "-s 64k -r 4k -+n" "-a -s 256k -i 0 -i 2" \
		"-s 64k -r 16k -i 0 -i 3 -i 5" "-s 64k -r 4k -i 0 -i 6" "-s 64k -r 4k -i 0 -i 7"; do
		# shellcheck disable=SC2086
		iozone $args -f real >"$T/real.txt" 2>&1 || fail "iozone $args failed"
		# shellcheck disable=SC2086
		"$SB" iozone --quiet $args -f ours >"$T/ours.txt" 2>"$T/err" ||
			fail "storbench iozone $args failed: $(cat "$T/err")"
		shape "$T/real.txt" >"$T/real.shape"
		shape "$T/ours.txt" >"$T/ours.shape"
		[ -s "$T/real.shape" ] || fail "no rows in iozone's output"
		# the figures differ, so their widths may: compare the ends of the words
		# (right-aligned fields end at the same column) and the line lengths
		cmp -s "$T/real.shape" "$T/ours.shape" || {
			diff "$T/real.shape" "$T/ours.shape"
			fail "iozone $args: columns differ"
		}
	done
	rm -f real
	ok "header and rows in real iozone's columns"
else
	echo "skip part: iozone is not installed (scripts/install-deps --test)"
fi

# ---- iozone's gengnuplot.sh on sweep's text and on ours
gp=$(ls /usr/share/doc/iozone3/examples/gengnuplot.sh 2>/dev/null)
if [ -n "$gp" ]; then
	mkdir "$T/g" "$T/gd"
	expect_exit 0 "$SB" sweep --quiet --warm --file-sizes=64k,128k --record-sizes=4k,16k \
		--tests=write,read,randread --output="$T/g.json" "$T/gd"
	cp "$T/out" "$T/g/sweep.txt"
	(cd "$T/g" && for t in write read randread rewrite; do sh "$gp" sweep.txt $t || exit 1; done) ||
		fail "gengnuplot.sh failed"
	python3 - "$T/g" "$T/g.json" <<'PY' || fail "gengnuplot.sh read the wrong rows of sweep's text"
import json, sys
s = json.load(open(sys.argv[2]))["storbench"]["sweep"]
t = {x["test"]: x["kib_per_s"] for x in s["tests"]}
for name in ("write", "read", "randread", "rewrite"):
    got = [l.split() for l in open("%s/%s/iozone_gen_out.gnuplot" % (sys.argv[1], name))
           if not l.startswith("#")]
    want = [[str(f // 1024), str(r // 1024),
             str(t[name][i][j]) if name in t else "-"]
            for i, f in enumerate(s["file_sizes"]) for j, r in enumerate(s["record_sizes"])]
    assert got == want, (name, got, want)
PY
	expect_exit 0 "$SB" iozone --quiet --output="$T/h.json" -a -n 64k -g 128k -y 4k -q 8k -f hf
	cp "$T/out" "$T/g/ours.txt"
	(cd "$T/g" && sh "$gp" ours.txt strideread && sh "$gp" ours.txt freread) || fail "gengnuplot.sh"
	python3 - "$T/g" "$T/h.json" <<'PY' || fail "gengnuplot.sh read the wrong rows of iozone -a"
import json, sys
s = json.load(open(sys.argv[2]))["storbench"]["sweep"]
t = {x["test"]: x["kib_per_s"] for x in s["tests"]}
for name in ("strideread", "freread"):
    got = [l.split() for l in open("%s/%s/iozone_gen_out.gnuplot" % (sys.argv[1], name))
           if not l.startswith("#")]
    want = [[str(f // 1024), str(r // 1024), str(t[name][i][j])]
            for i, f in enumerate(s["file_sizes"]) for j, r in enumerate(s["record_sizes"])]
    assert got == want, (name, got, want)
PY
	ok "gengnuplot.sh reads sweep's text and storbench iozone -a"

	# iozone's report.pl: the rows of digits with 8 fields or more are
	# its data, a column per test (write 3 ... freread 15), drawn by gnuplot
	rp=/usr/share/doc/iozone3/examples/report.pl
	if [ -f "$rp" ] && command -v perl >/dev/null; then
		(cd "$T/g" && perl "$rp" ours.txt) >"$T/rp.out" 2>&1 || { cat "$T/rp.out"; fail "report.pl failed"; }
		python3 - "$T/g/report_ours/ours.dat" "$T/h.json" <<'PY' || fail "report.pl read the wrong columns of iozone -a"
import json, sys
s = json.load(open(sys.argv[2]))["storbench"]["sweep"]
t = {x["test"]: x["kib_per_s"] for x in s["tests"]}
col = {"write": 3, "rewrite": 4, "read": 5, "reread": 6, "randread": 7, "randwrite": 8,
       "bkwdread": 9, "recrewrite": 10, "strideread": 11, "fwrite": 12, "frewrite": 13,
       "fread": 14, "freread": 15}  # report.pl's %columns
rows = [l.split() for l in open(sys.argv[1])]
assert len(rows) == len(s["file_sizes"]) * len(s["record_sizes"]), rows
k = 0
for i, f in enumerate(s["file_sizes"]):
    for j, r in enumerate(s["record_sizes"]):
        assert rows[k][:2] == [str(f // 1024), str(r // 1024)], (rows[k], f, r)
        for name, c in col.items():
            assert rows[k][c - 1] == str(t[name][i][j]), (name, rows[k], t[name][i][j])
        k += 1
PY
		if command -v gnuplot >/dev/null; then
			for png in write.png freread.png; do # (its 2d- charts take 16 MiB records only)
				head -c 8 "$T/g/report_ours/$png" 2>/dev/null | grep -q PNG ||
					{ cat "$T/rp.out"; fail "report.pl: gnuplot drew no $png"; }
			done
		fi
		ok "report.pl reads every test's column of storbench iozone -a$(command -v gnuplot >/dev/null && echo ', gnuplot draws them')"
	else
		echo "skip part: iozone's report.pl or perl is not installed"
	fi
else
	echo "skip part: iozone's gengnuplot.sh is not installed (iozone3)"
fi

# ---- bad options: exit 2 naming the option, nothing created
mkdir "$T/bad"
cd "$T/bad" || fail "cd"
bad() { # WORDS-OF-THE-MESSAGE ARGS...
	words=$1
	shift
	expect_exit 2 "$SB" iozone "$@"
	grep -qF -- "$words" "$T/err" || { cat "$T/err"; fail "'$*': message lacks '$words'"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "'$*': more than one line"; }
	[ -z "$(ls -A)" ] || fail "'$*' created: $(ls -A)"
}
bad "-t: throughput mode is not supported; use storbench run --numjobs=N" \
	-a -s 64k -Rb out.xls -f x -t 4
bad "-i 9: tests 8 to 12" -a -s 64k -i 0 -i 9 -f x -b out.xls
bad "-U: remounting is not supported" -azecI -U /mnt -f x
bad "-B: mmap files" -aB -f x
bad "-s: '2q' is not a size" -a -s 2q -f x
bad "-%: unknown iozone option" -a -% -f x
bad "'--quiet': not an iozone option" -a -f x --quiet
bad "-+b: '400000' is not KB,MSEC" -a -+b 400000 -f x
bad "-n, -g, -y, -q: set the ranges of auto mode; add -a" -n 64k -f x
bad "'x': iozone takes options only" -a x
# named as typed (issue 26, item 18): iozone's letters, not sweep's
# --record-sizes; a character of several bytes whole, never a lone \303
bad "-r: no record size fits in any file size" -s 64k -r 128k -f x
grep -q -- "--record-sizes\|Iozone" "$T/out" "$T/err" && fail "-r 128k: sweep's name, or the header before the error"
bad "-é: unknown iozone option" -é -f x
bad "-é (in '-aé'): unknown iozone option" -aé -f x
bad "-+é: unknown iozone option" -a -+é -f x
ok "bad options: exit 2, named, nothing created"
