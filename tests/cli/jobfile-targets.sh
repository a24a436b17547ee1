# A job file whose jobs name different targets (fio's filename= per job,
# examples/steadystate.fio): each group of jobs runs on its own target,
# made and checked as a single target is (a file the user did not name
# is never touched); jobs measured together on different targets are
# refused, naming both, since they share one target in storbench.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

entries() {
	json "$1" "' '.join('%s:%d:%d' % (j['jobname'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])"
}
mkdir "$T/a"
# a file the second group reads, kept from before the run
head -c 262144 /dev/urandom >"$T/a/old"
cp "$T/a/old" "$T/a/old.copy"
printf '[global]\nbs=64k\n[w]\nfilename=fa\nrw=write\nsize=128k\n[r]\nstonewall\nfilename=old\nrw=read\n[w2]\nstonewall\nfilename=fb\nrw=randwrite\nsize=64k\n' >"$T/t.fio"
(cd "$T/a" && "$SB" fio --output-format=json --output="$T/t.json" "$T/t.fio") >"$T/out" 2>&1 ||
	fail "three targets: $(cat "$T/out")"
[ "$(entries "$T/t.json")" = "w:0:131072 r:262144:0 w2:0:65536" ] || fail "entries: $(entries "$T/t.json")"
cmp -s "$T/a/old" "$T/a/old.copy" || fail "the file read was changed"
ok "three jobs on three targets: each on its own, entries and bytes as asked"

# jobs of one group (no stonewall) on different targets: refused, naming them
printf '[w]\nfilename=fa\nrw=write\nsize=64k\n[w2]\nfilename=fb\nrw=write\nsize=64k\n' >"$T/g.fio"
(cd "$T/a" && "$SB" fio --output="$T/g.txt" "$T/g.fio") >"$T/out" 2>&1
rc=$?
[ $rc = 2 ] || fail "one group, two targets: exit $rc: $(cat "$T/out")"
grep -q "jobs 'w' and 'w2' run together on different targets ('fa', 'fb')" "$T/out" ||
	fail "one group: $(cat "$T/out")"
ok "jobs measured together on different targets are refused, naming both"

# each target passes its own checks: a job reading a file that is not
# there is refused before the first group writes anything
printf '[w]\nfilename=fc\nrw=write\nsize=64k\n[r]\nstonewall\nfilename=missing\nrw=read\n' >"$T/m.fio"
(cd "$T/a" && "$SB" fio --output="$T/m.txt" "$T/m.fio") >"$T/out" 2>&1
rc=$?
[ $rc != 0 ] || fail "a missing file read: exit 0"
[ ! -e "$T/a/fc" ] || fail "the first job ran before the second target was checked"
ok "every target checked before the first group runs (exit $rc)"
