# storbench bonnie: bonnie++'s seed line (small) runs and prints bonnie++'s
# table and its CSV line with the same figures; per-character tests make a
# syscall per byte (the kernel's count of the process's write and read
# calls); -s takes MiB; -q puts the CSV alone on stdout; single-threaded
# stat tests stay at or under 100 % CPU; bad options exit 2 naming the
# option and create nothing. With Debian's bonnie++ installed, its
# bon_csv2txt and bon_csv2html read our line, and our line's fields sit
# where real bonnie++'s do.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

d="$T/dir"
mkdir "$d"
echo "my data" >"$d/user.txt"
only_user() { [ "$(ls -A "$d")" = "user.txt" ]; }
me="$(id -u):$(id -g)"
[ "$(id -u)" = 0 ] && me=0:0 # the seed line's own -u 0:0

# A shell's /proc/self/io gains its reaped children's counts: syscw/syscr
# are the kernel's count of storbench's write/read calls.
io_counts() { # OUT ARGS...: runs storbench bonnie ARGS, prints "syscw syscr"
	out=$1
	shift
	sh -c '"$@" >"$0" 2>"$0.err" || exit $?; awk "/^syscw|^syscr/ {print \$2}" /proc/$$/io' \
		"$out" "$SB" bonnie "$@"
}

# -- the seed line, small: -s 1 (1 MiB, per-char tests 1 MiB), -n 1
c=$(io_counts "$T/seed" -d "$d" -s 1 -r 0 -m S3 -u "$me" -n 1 -z 7) ||
	{ cat "$T/seed" "$T/seed.err"; fail "seed line exited non-zero"; }
syscr=${c%%[!0-9]*} # the first line: syscr, then syscw
syscw=${c##*[!0-9]}
csv=$(tail -n 1 "$T/seed")
[ "$(echo "$csv" | awk -F, '{print NF}')" = 50 ] || fail "CSV: not 50 fields: $csv"
f() { echo "$csv" | cut -d, -f"$1"; }
[ "$(f 1)" = 1.98 ] || fail "CSV format version"
[ "$(f 3)" = S3 ] || fail "CSV name"
[ "$(f 6)" = 1M ] || fail "CSV file size: -s 1 is 1 MiB, got $(f 6)"
[ "$(f 22)" = 1 ] || fail "CSV files (x1024)"
# 1 MiB written and read a byte per call: at least 2^20 of each
[ "$syscw" -ge 1048576 ] || fail "per-char: $syscw write calls for 1 MiB"
[ "$syscr" -ge 1048576 ] || fail "per-char: $syscr read calls for 1 MiB"
only_user || fail "seed line left: $(ls -A "$d")"
# the table shows the CSV's figures: its latency rows are fields 39-50
head -n 5 "$T/seed" | grep -q '^Version .*------Sequential Output------' || fail "no table"
lat_io=$(grep '^Latency' "$T/seed" | head -n 1 | awk '{$1=""; print substr($0,2)}')
[ "$lat_io" = "$(echo "$csv" | cut -d, -f39-44 | tr , ' ')" ] || fail "table latency $lat_io"
lat_f=$(grep '^Latency' "$T/seed" | sed -n 2p | awk '{$1=""; print substr($0,2)}')
[ "$lat_f" = "$(echo "$csv" | cut -d, -f45-50 | tr , ' ')" ] || fail "table file latency"
row=$(grep '^S3 ' "$T/seed" | head -n 1)
[ "$(echo "$row" | awk '{print $4}')" = "$(f 11)" ] || fail "putc CPU: $row vs $(f 11)"
ok "seed line: table and CSV agree, a syscall per byte ($syscw writes, $syscr reads)"

# the same with --per-char=putc through meta: stdio buffers, few calls
c=$(sh -c '"$@" >/dev/null 2>&1 || exit $?; awk "/^syscw/ {print \$2}" /proc/$$/io' x \
	"$SB" meta --per-char=putc --size=1 --files=0 --seeks=10 --quiet "$d") || fail "meta putc"
[ "$c" -lt 100000 ] || fail "putc: $c write calls, stdio should buffer"
ok "putc for comparison: $c write calls"

# -- -q: the CSV line alone on stdout, the table on stderr; -x 2: header + 2 lines
expect_exit 0 "$SB" bonnie -d "$d" -s 0 -n 1 -q -m Q --output="$T/q.json"
[ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "-q: not one line on stdout"; }
grep -q '^Version .*------Sequential Create------' "$T/err" || fail "-q: no table on stderr"
expect_exit 0 "$SB" bonnie -d "$d" -s 0 -n 1 -q -x 2
[ "$(wc -l <"$T/out")" = 3 ] || { cat "$T/out"; fail "-x 2: not 3 lines"; }
head -n 1 "$T/out" | grep -q '^format_version,bonnie_version,name' || fail "-x: header"
ok "-q and -x"

# -- CPU of one-thread stat (and all file) tests within 100 %
for t in seq_create seq_stat seq_delete rand_create rand_stat rand_delete; do
	p=$(json "$T/q.json" "d['storbench']['meta']['tests']['$t']['cpu_percent']")
	python3 -c "import sys; sys.exit(0 if float('$p') <= 100 else 1)" || fail "$t CPU $p %"
done
ok "CPU at most 100 % per thread"

# -- -s takes MiB: -s 2 writes 2 MiB
expect_exit 0 "$SB" bonnie -d "$d" -s 2 -r 1 -f -n 0 -q --output="$T/s.json"
[ "$(json "$T/s.json" "d['storbench']['meta']['tests']['write']['bytes']")" = 2097152 ] ||
	fail "-s 2 is not 2 MiB"
[ "$(cut -d, -f10 "$T/out")" = "" ] || fail "-f: per-char fields not empty"
ok "-s in MiB, -f"

# -- bad options: exit 2, one line naming the option, nothing created
for args in "-s x" "-s 64:3000" "-n 1:-1" "-c 2" "-p 3" "-y" "-Z /dev/urandom" "-z 0" \
	"-k" "-d" "-m a,b" "-fx" "-s 1 extra" "--size=1" "-u 12345:0" "-g 54321"; do
	# shellcheck disable=SC2086
	"$SB" bonnie -d "$d" $args >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "bonnie $args: exit $rc"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "bonnie $args: not one line"; }
	opt=${args%% *}
	case "$opt" in --*) ;; *) opt=$(printf %.2s "$opt") ;; esac
	[ "$args" = "-s 1 extra" ] && opt="'extra'"
	grep -q -- "$opt" "$T/err" || { cat "$T/err"; fail "bonnie $args: does not name $opt"; }
	only_user || fail "bonnie $args created something"
done
# named as typed: a character of several bytes whole; meta's checks in
# bonnie++'s letters (issue 26, item 18)
expect_exit 2 "$SB" bonnie -d "$d" -é
grep -q -- "^storbench: -é: not a bonnie++ option" "$T/err" || { cat "$T/err"; fail "-é named as $(cat "$T/err")"; }
expect_exit 2 "$SB" bonnie -d "$d" -qé
grep -q -- "^storbench: -é (in '-qé'): not a bonnie++ option" "$T/err" || { cat "$T/err"; fail "-qé"; }
expect_exit 3 "$SB" bonnie -d "$d" -s 100000000 -r 0
grep -q -- "^storbench: -s: not enough space in '$d'.*(lower -s or -n)$" "$T/err" || { cat "$T/err"; fail "-s named as meta's --size"; }
only_user || fail "bonnie -é created something"
ok "bad options"

# -- bonnie++'s RAM rule: -s under twice the RAM is refused in bonnie++'s
# words (the machine's RAM, or -r's), exit 2, nothing created; -r 0 turns
# it off; without -s the file is twice -r
ram_line() { sed -n 's/.*[Ff]ile size should be double RAM for good results, RAM is \([0-9]*\)M.*/\1/p' "$1"; }
expect_exit 2 "$SB" bonnie -d "$d" -s 1 -n 0
[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "-s 1: not one line"; }
grep -q '^storbench: -s: file size should be double RAM for good results, RAM is [0-9]*M' "$T/err" ||
	{ cat "$T/err"; fail "-s under twice the RAM: bonnie++'s refusal"; }
ours_ram=$(ram_line "$T/err")
expect_exit 2 "$SB" bonnie -d "$d" -s 64 -r 33 -n 0
[ "$(ram_line "$T/err")" = 33 ] || { cat "$T/err"; fail "-r 33: RAM is 33M"; }
only_user || fail "a refused -s created something"
expect_exit 0 "$SB" bonnie -d "$d" -r 2 -f -n 0 -q
[ "$(cut -d, -f6 "$T/out")" = 4M ] || fail "-r 2 without -s: a file of 4M, got $(cut -d, -f6 "$T/out")"
ok "bonnie++'s RAM rule: -s 1 refused (RAM is ${ours_ram}M), -r 33 named, -r 2 makes 4M"

# -- Debian's bonnie++ and its tools
for tool in bon_csv2txt bon_csv2html bonnie++; do
	command -v "$tool" >/dev/null || skip "$tool not installed (scripts/install-deps --test)"
done
echo "$csv" | bon_csv2txt >"$T/txt" 2>"$T/txt.err" || fail "bon_csv2txt failed"
[ -s "$T/txt.err" ] && { cat "$T/txt.err"; fail "bon_csv2txt complained"; }
lat_row() { grep '^Latency' "$1" | sed -n "$2p" | awk '{$1=""; print substr($0,2)}'; }
[ "$(lat_row "$T/txt" 1)" = "$lat_io" ] || { cat "$T/txt"; fail "bon_csv2txt IO latency"; }
[ "$(lat_row "$T/txt" 2)" = "$lat_f" ] || { cat "$T/txt"; fail "bon_csv2txt file latency"; }
grep -q '^S3 ' "$T/txt" || fail "bon_csv2txt: no S3 row"
echo "$csv" | bon_csv2html >"$T/html" 2>"$T/html.err" || fail "bon_csv2html failed"
[ -s "$T/html.err" ] && { cat "$T/html.err"; fail "bon_csv2html complained"; }
for i in $(seq 39 50); do
	v=$(f "$i")
	[ -z "$v" ] || grep -qF ">$v<" "$T/html" || fail "bon_csv2html lacks field $i '$v'"
done
grep -qF '>S3<' "$T/html" || fail "bon_csv2html lacks the name"
ok "bon_csv2txt and bon_csv2html read our line"

# real bonnie++ on a tiny run against ours: the same fields empty and set
r="$T/real"
mkdir "$r"
u=""
[ "$(id -u)" = 0 ] && u="-u 0:0"
# shellcheck disable=SC2086
bonnie++ -d "$r" -s 1 -r 0 -f -n 1 -q -m R $u >"$T/real.csv" 2>"$T/real.err" ||
	{ cat "$T/real.err"; fail "bonnie++ failed"; }
expect_exit 0 "$SB" bonnie -d "$d" -s 1 -r 0 -f -n 1 -q -m R
pattern() { tail -n 1 "$1" | awk -F, '{s=""; for (i=1;i<=NF;i++) s=s ($i=="" ? "." : "x"); print NF, s}'; }
[ "$(pattern "$T/real.csv")" = "$(pattern "$T/out")" ] ||
	fail "fields differ: bonnie++ $(pattern "$T/real.csv") ours $(pattern "$T/out")"
for i in 1 3 4 6 7 8 9 22; do
	[ "$(tail -n 1 "$T/real.csv" | cut -d, -f$i)" = "$(cut -d, -f$i "$T/out")" ] ||
		fail "field $i: bonnie++ $(tail -n 1 "$T/real.csv" | cut -d, -f$i), ours $(cut -d, -f$i "$T/out")"
done
ok "field layout matches bonnie++ $(tail -n 1 "$T/real.csv" | cut -d, -f2)"

# bonnie++'s refusal of -s under twice the RAM, its RAM figure ours
# shellcheck disable=SC2086
bonnie++ -d "$r" -s 1 -n 0 $u >"$T/real.out" 2>&1 && fail "bonnie++ took -s 1"
[ "$(ram_line "$T/real.out")" = "$ours_ram" ] ||
	fail "RAM: bonnie++ says $(ram_line "$T/real.out")M, storbench ${ours_ram}M"
# the tables' widths: bonnie++'s header lines, the version masked
# shellcheck disable=SC2086
bonnie++ -d "$r" -s 1 -r 0 -f -n 1 -m R $u >"$T/real.txt" 2>/dev/null || fail "bonnie++ table"
expect_exit 0 "$SB" bonnie -d "$d" -s 1 -r 0 -f -n 1 -m R
heads() { grep -A2 '^Version' "$1" | sed 's/^Version *[^ ]*/Version V/; /^--$/d'; }
[ "$(heads "$T/out")" = "$(heads "$T/real.txt")" ] ||
	{ heads "$T/out" | cat -A; heads "$T/real.txt" | cat -A; fail "table headers differ from bonnie++'s"; }
ok "bonnie++'s RAM figure (${ours_ram}M) and its table headers, column for column"

# -x's header line, as bonnie++ writes it
# shellcheck disable=SC2086
bonnie++ -d "$r" -s 0 -n 1 -q -x 2 -m R $u 2>/dev/null | head -n 1 >"$T/real.hdr"
expect_exit 0 "$SB" bonnie -d "$d" -s 0 -n 1 -q -x 2 -m R
head -n 1 "$T/out" | cmp -s - "$T/real.hdr" || fail "-x header differs from bonnie++'s"
ok "-x header as bonnie++'s"
