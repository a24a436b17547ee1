# emmc_stability TARGET: runs the built-in emmc-stability plan on TARGET (a
# directory) scaled down with --set, from $T (its directory
# $T/emmc-stability-plan, its JSON $T/e.json), and checks its report: the
# matrix before and after and the dd loop judged, PASS but for a soak this
# short's bandwidth variation, the iozone CSVs and the soak's result
# written. Sourced after tests/lib/cli.sh.
emmc_stability() {
	"$SB" plan --quiet emmc-stability "$1" -o "$T/e.json" \
		--set sweep.file-sizes=64k,256k --set sweep.record-sizes=4k,64k \
		--set dd-loop.duration=300ms --set dd-loop.size=1M --set dd-loop.idle=10ms >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "emmc-stability on $1 exited $rc"; }
	for row in "iozone-before  *status  *pass" "iozone-before  *write.bw  .* pass" \
		"dd-loop  *verdict  *pass  *== pass  *pass" "dd-loop  *failed_iterations  *0  *== 0  *pass" \
		"iozone-after  *interrupted  *false  *== false  *pass" "iozone-after  *read.bw  .* pass"; do
		grep -q "^$row" "$T/out" || { cat "$T/out"; fail "emmc-stability on $1: $row"; }
	done
	# a FAIL (exit 1) only by the bandwidth's variation of a soak this short
	grep "FAIL$" "$T/out" | grep -v "^dd-loop  *\(write\|read\).bw.cv " &&
		{ cat "$T/out"; fail "emmc-stability on $1: a criterion failed"; }
	for f in iozone-before.csv iozone-after.csv dd-loop.json; do
		[ -s "$T/emmc-stability-plan/$f" ] || fail "emmc-stability on $1: no $f"
	done
	json "$T/e.json" "[s['state'] for s in d['plan']['steps']] == ['done'] * 3 and d['plan']['steps'][0]['target'] == '$1'" |
		grep -q True || fail "emmc-stability on $1: its steps in JSON"
}
