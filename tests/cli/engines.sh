# Every engine built in runs a queued random read (ftruncate, which
# refuses reads as fio's, a random write) and reports itself, and every
# real one writes what verify reads back; --verify is refused for the
# engines that write no data (null, fio's filestat, filedelete, ftruncate,
# falloc, filecreate). e4defrag needs a job file's donorname= and ext4
# (tests/cli/engine-e4defrag.sh): here it is refused for the want of one.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

engines=$("$SB" --version | sed -n 's/^engines: //p')
[ -n "$engines" ] || fail "no engines listed"
for e in $engines; do
	# cpuio and exec take their settings from a job file only
	# (tests/cli/jobfile-cpuio-exec.sh)
	case $e in cpuio | exec) continue ;; esac
	if [ "$e" = e4defrag ]; then
		expect_exit 2 "$SB" run --engine="$e" --rw=randwrite --size=8M --quiet "$T/f-$e"
		grep -q "donorname: ioengine=e4defrag needs a donor file" "$T/err" ||
			fail "$e without donorname: $(cat "$T/err")"
		[ -e "$T/f-$e" ] && fail "$e: file left"
		ok "$e (refused without donorname=)"
		continue
	fi
	rw=randread d=read
	[ "$e" = ftruncate ] && rw=randwrite d=write
	expect_exit 0 "$SB" run --engine="$e" --rw=$rw --bs=4k --iodepth=16 --size=8M \
		--quiet --output="$T/$e.json" "$T/f-$e"
	[ "$(json "$T/$e.json" "d['jobs'][0]['job options']['ioengine']")" = "$e" ] ||
		fail "$e: engine not recorded"
	[ "$(json "$T/$e.json" "d['jobs'][0]['$d']['io_bytes']")" = 8388608 ] ||
		fail "$e: bytes moved != 8 MiB"
	[ -e "$T/f-$e" ] && fail "$e: file left"
	case $e in
	filestat | filedelete | ftruncate | falloc | filecreate)
		expect_exit 2 "$SB" run --engine="$e" --rw=randwrite --size=8M --verify --quiet \
			"$T/f-$e"
		grep -q "writes no data: nothing to verify" "$T/err" ||
			fail "$e --verify: $(cat "$T/err")"
		ok "$e (--verify refused)"
		continue
		;;
	esac
	# written and read back whole, direct and buffered, from the
	# buffers an engine may register (io_uring's fixed buffers)
	for direct in 1 0; do
		[ "$e" = null ] && continue
		expect_exit 0 "$SB" run --engine="$e" --rw=randwrite --bssplit=4k/50:64k/50 \
			--iodepth=16 --direct=$direct --size=8M --verify --quiet \
			--output="$T/v-$e.json" "$T/f-$e"
		[ "$(json "$T/v-$e.json" "d['storbench']['verify']['intact']")" = 2048 ] ||
			fail "$e direct=$direct: not 2048 blocks intact"
	done
	ok "$e"
done
# the null engine never touches the target
expect_exit 0 "$SB" run --engine=null --rw=randwrite --size=64M --quiet "$T/never"
[ -e "$T/never" ] && fail "null engine created its target"
ok "null engine touches nothing"
# null honours the depth as fio's null engine does: a commit completes what
# it submitted and nothing more is taken until that is reaped, so a
# submission of 16 puts 16 in flight (fio: IO depths 16=100%) and a
# submission of 1 one at a time, with a note saying so
expect_exit 0 "$SB" run --engine=null --rw=randread --bs=4k --iodepth=16 --iodepth-batch-submit=16 \
	--size=8M --quiet --output="$T/null16.json" "$T/never"
[ "$(json "$T/null16.json" "d['jobs'][0]['iodepth_level']['16'] > 0")" = True ] ||
	fail "null at iodepth 16: never 16 in flight: $(json "$T/null16.json" "d['jobs'][0]['iodepth_level']")"
[ "$(json "$T/null16.json" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ] ||
	fail "null at iodepth 16: bytes read != 8 MiB"
expect_exit 0 "$SB" run --engine=null --rw=randread --bs=4k --iodepth=16 --size=8M \
	--output="$T/null1.json" "$T/never"
[ "$(json "$T/null1.json" "d['jobs'][0]['iodepth_level']['1']")" = 100.0 ] ||
	fail "null at iodepth 16, one per submission: more than one in flight"
grep -q "1 in flight of --iodepth=16" "$T/err" || fail "null: no note on its depth: $(cat "$T/err")"
ok "null engine keeps a submission in flight, as fio's"
