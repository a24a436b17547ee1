#!/bin/sh
# storbench plan checks the whole plan before anything runs: every key,
# operator, value and figure (an unknown one refused with its line and the
# nearest names), each step's options by its command's own parser, the
# target; each refusal exits 2 (3 for a missing target) and leaves nothing
# behind: no plan directory, no step run. --figures lists a command's
# figures with their units.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"

# refuse LINE_OF_PLAN EXPECTED_MESSAGE: a plan with a good first step and
# LINES after [s]'s run=quick; exit 2 with the message, nothing made
refuse() {
	printf '[global]\nname=chk\n[ok]\nrun = verify --size=4M\n[s]\nrun = quick --size=8M\n%b\n' \
		"$1" >"$T/bad.ini"
	expect_exit "${3:-2}" "$SB" plan "$T/bad.ini" "$T/d"
	grep -qF -- "$2" "$T/err" || { cat "$T/err"; fail "'$1': expected '$2'"; }
	[ -e "$T/chk-plan" ] && fail "'$1': the plan's directory was made"
	[ -z "$(ls -A "$T/d")" ] || fail "'$1': a step ran"
}

refuse 'expect = RND4K-Q1T1.read.iop >= 100' \
	"bad.ini:7: expect: 'RND4K-Q1T1.read.iop' is not a figure of quick (nearest: RND4K-Q1T1.read.iops,"
refuse 'expect = RND4K-Q9T9.read.iops >= 100' "'RND4K-Q9T9.read.iops' is not a figure of quick"
refuse 'expect = verdict == pass' "bad.ini:7: expect: 'verdict' is not a figure of quick"
refuse 'expect = RND4K-Q1T1.read.iops => 100' \
	"bad.ini:7: expect: RND4K-Q1T1.read.iops: '=>' is not an operator"
refuse 'expect = RND4K-Q1T1.read.iops 100' "'100' is not an operator"
refuse 'expect = RND4K-Q1T1.read.iops >=' "a value is missing"
refuse 'expect = RND4K-Q1T1.read.iops >= 10x' "'10x' is not a number"
refuse 'expect = SEQ1M-Q8T1.write.bw >= 40MiB/x' "'40MiB/x' is not a rate"
refuse 'expect = RND4K-Q1T1.read.lat_p99 <= 5parsecs' "'5parsecs' is not a time"
refuse 'expect = status >= pass' "status is a word: compare it with == or !="
refuse 'expect = status == Pass!' "'Pass!' is not a word"
refuse 'colour = blue' "bad.ini:7: [s]: 'colour' is not a key of a step (run, target, wait, optional, expect)"
refuse 'run = quick' "bad.ini:7: [s]: run= is given twice"
refuse '[s]\nrun = quick' "bad.ini:7: [s]: a step of that name is on line 5"
refuse '[global]\nname=x' "[global] comes before the steps"
refuse '[b@d]' "a step's name takes letters"
refuse '[t]' "bad.ini:7: [t]: a step needs run="
refuse 'just words' "bad.ini:7: 'just words': expected KEY=VALUE or [SECTION]"
refuse '[t]\nrun = quick --bogus' "bad.ini:8: [t] run: --bogus: unknown option (see storbench quick --help)"
refuse '[t]\nrun = quick --size=abc' "bad.ini:8: [t] run: --size: 'abc' is not valid"
refuse '[t]\nrun = verify --size=4M --repeat=3' "bad.ini:8: [t] run: --repeat: unknown option"
refuse '[t]\nrun = soak --iterations=x' "bad.ini:8: [t] run: --iterations:"
refuse '[t]\nrun = fio --name=x' "[t] run: 'fio' is not a command a step runs"
refuse '[t]\nrun = quick -o x.json' "[t] run: -o: the plan names each step's result"
refuse '[t]\nrun = quick --output=x.json' "[t] run: --output=x.json: the plan names each step's result"
refuse '[t]\nrun = "quick' 'run: a quote (") is not closed'
refuse '[t]\nrun = --size=1M quick' "the command comes first"
refuse '[t]\nexpect = status == pass' "run= comes before expect="
refuse '[t]\nrun = verify\nexpect = JOB.read.iops > 0' "'JOB.read.iops' is not a figure of verify"
refuse '[t]\nrun = meta\nexpect = files > 0' "'files' is not a figure of meta (nearest: "
refuse '[t]\nrun = verify\ntarget = /nonexistent-sb-plan/x' "cannot use '/nonexistent-sb-plan/x'" 3
# every other refusal of the parser (lib/plan/plan_parse.c), each by its line
refuse '[t]\nrun =' "bad.ini:8: run: empty (a storbench command line: quick --repeat=5)"
refuse "[t]\nrun = '' --size=1M" "bad.ini:8: run: the command is an empty word"
refuse "[t]\nrun = verify $(yes x | head -n 130 | tr '\n' ' ')" "bad.ini:8: run: more than 128 words"
refuse "expect = status == $(printf 'p%.0s' $(seq 70))" "bad.ini:7: expect: the value 'pppp"
refuse 'expect =' "bad.ini:7: expect: FIGURE OP VALUE, like RND4K-Q1T1.read.iops >= 2k"
refuse "expect = $(printf 'f%.0s' $(seq 200)) >= 1" "bad.ini:7: expect: the figure's name is too long"
refuse "[t]\nrun = verify\n$(yes 'expect = damaged_blocks == 0' | head -n 257)" \
	"bad.ini:265: expect: more than 256 criteria in a step"
refuse '[t\nrun = verify' "bad.ini:7: a section's header ends with ']': [NAME]"
refuse '[ ]\nrun = verify' "bad.ini:7: a section needs a name: [NAME]"
refuse "[$(printf 'n%.0s' $(seq 70))]\nrun = verify" "bad.ini:7: [nnnn"
grep -qF "...]: the name is too long" "$T/err" || fail "a step's name too long"
printf '[global]\nname=x\n[global]\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "b.ini:3: [global] is given twice" "$T/err" || fail "[global] twice"
i=0
while [ $i -le 256 ]; do printf '[s%d]\nrun = verify\n' $i; i=$((i + 1)); done >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "b.ini:513: more than 256 steps" "$T/err" || fail "more than 256 steps"
[ -z "$(ls -A "$T/d")" ] || fail "a refused plan ran a step"


# a key before any section; [global]'s keys (html=); no steps; no target
printf 'name=x\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "b.ini:1: 'name=' before any section" "$T/err" || fail "key before a section"
printf '[global]\nowner=me\n[s]\nrun=verify\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "b.ini:2: [global]: 'owner' is not a key of it (name, description, target, db, html, label)" "$T/err" || fail "global key"
# html=: a file name of the plan's directory ending in .html, never a path
# out of it nor one of its own files (journal.json, a step's result)
for h in /tmp/r.html ../r.html sub/r.html journal.json report .html '' r.htm; do
	printf '[global]
name=h
html=%s
[s]
run=verify
' "$h" >"$T/b.ini"
	expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
	grep -qF "b.ini:3: html: '$h' is not a file name in the plan's directory ending in .html (html=report.html)" "$T/err" ||
		{ cat "$T/err"; fail "html=$h"; }
	[ -e "$T/h-plan" ] && fail "html=$h: the plan's directory was made"
done
printf '[global]\nlabel=firmware\n[s]\nrun=verify\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "label: 'firmware' is not KEY=VALUE" "$T/err" || fail "label"
printf '# nothing\n[global]\nname=x\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "no steps" "$T/err" || fail "no steps"
printf '[s]\nrun=verify\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini"
grep -qF "no target: give TARGET, or target= in [global]" "$T/err" || fail "no target"
# a target in run=: said so, not the check's own stand-in
printf '[s]\nrun=verify --size=1M /dev/zram1\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "b.ini:2: [s] run: verify --size=1M /dev/zram1: run= is a command without its target" "$T/err" || { cat "$T/err"; fail "a target in run="; }
grep -q nonexistent "$T/err" && fail "the check's stand-in target named"
printf '[s]\nrun=verify\0\n' >"$T/b.ini"
expect_exit 2 "$SB" plan "$T/b.ini" "$T/d"
grep -qF "not a text file" "$T/err" || fail "a NUL byte"
expect_exit 2 "$SB" plan "$T/none.ini" "$T/d"
# a target under a file: the error as it is, not "no such file"
touch "$T/f"
printf '[s]\nrun=verify\n' >"$T/b.ini"
expect_exit 3 "$SB" plan "$T/b.ini" "$T/f/x"
grep -qF "cannot use '$T/f/x': Not a directory" "$T/err" || { cat "$T/err"; fail "a target under a file"; }
expect_exit 2 "$SB" plan
[ -z "$(ls -A "$T/d")" ] || fail "a refused plan ran a step"
ok "every refusal names its line, nothing runs"

# --figures
expect_exit 0 "$SB" plan --figures quick
grep -q "^TEST.read.iops  *IOPS " "$T/out" || { cat "$T/out"; fail "--figures quick"; }
grep -q "^TEST.write.lat_p99  *ns " "$T/out" || fail "--figures quick: lat_p99"
grep -q "^status  *word " "$T/out" || fail "--figures: status"
for c in run verify soak; do
	expect_exit 0 "$SB" plan --figures $c
done
grep -q "^write.bw.cv " "$T/out" || fail "--figures soak: write.bw.cv"
expect_exit 2 "$SB" plan --figures nosuch
grep -qF "expected quick, run, verify, soak" "$T/err" || { cat "$T/err"; fail "--figures nosuch"; }
ok "--figures"

# wait= and optional= take a time and true or false
printf '[s]\nrun = verify\nwait = soon\n' >"$T/w.ini"
expect_exit 2 "$SB" plan "$T/w.ini" "$T"
grep -qF "w.ini:3: [s]: wait: 'soon' is not a time (like 30m, 5s)" "$T/err" || { cat "$T/err"; fail "wait="; }
printf '[s]\nrun = verify\noptional = yes\n' >"$T/o.ini"
expect_exit 2 "$SB" plan "$T/o.ini" "$T"
grep -qF "o.ini:3: [s]: optional: 'yes' is not true or false" "$T/err" || { cat "$T/err"; fail "optional="; }
ok "wait= and optional="

# each step against its target before the first step runs: a region past
# the end of an existing file, a new file larger than the free space, a
# command that makes no file on a missing target; nothing runs, no
# directory is made
truncate -s 4M "$T/small.img"
printf '[a]\nrun = verify --size=1M\n[b]\nrun = quick --size=8M --read-only\n' >"$T/r.ini"
expect_exit 2 "$SB" plan --quiet --dir="$T/r-dir" "$T/r.ini" "$T/small.img"
grep -qF "storbench: [b] on '$T/small.img': --size: 8.00 MiB from offset 0 B goes past the end of the file (4.00 MiB)" "$T/err" || { cat "$T/err"; fail "a region past the end"; }
[ ! -e "$T/r-dir" ] || fail "a refused plan made its directory"
printf '[a]\nrun = verify --size=1M\n[b]\nrun = soak --size=1P --iterations=1\n' >"$T/s.ini"
expect_exit 3 "$SB" plan --quiet --dir="$T/s-dir" "$T/s.ini" "$T"
grep -q "storbench: \[b\] on '$T': its file of 1.00 PiB does not fit: the filesystem has .* free" "$T/err" || { cat "$T/err"; fail "no space"; }
[ ! -e "$T/s-dir" ] || fail "a refused plan made its directory"
printf '[a]\nrun = verify --size=1M\n[b]\nrun = info\ntarget = %s\n' "$T/gone" >"$T/g.ini"
expect_exit 2 "$SB" plan --quiet --dir="$T/g-dir" "$T/g.ini" "$T"
grep -qF "storbench: [b] on '$T/gone': cannot use it: No such file or directory (info makes no file: name an existing one)" "$T/err" || { cat "$T/err"; fail "a missing target"; }
[ ! -e "$T/g-dir" ] || fail "a refused plan made its directory"
ok "targets checked before the first step"
