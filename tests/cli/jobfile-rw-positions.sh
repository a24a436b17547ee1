# fio's sequential rw=rw (readwrite) in job files: reads and writes each
# keep their own position from the region's start (fio's
# f->last_pos[ddir]): the I/O log's reads are 0, bs, 2bs... and so are its
# writes; the loop's bytes end the job, its last request whole, so with
# several block sizes it moves from size= up to a block less than size= +
# its largest block (t/jobs/t0002's pre file: 6656 bytes over in fio).
# Compared with the real fio where it is installed.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# positions LOG: "ok" when the reads and the writes each follow on from 0
positions() {
	python3 - "$1" <<'PY'
import sys
pos = {"read": 0, "write": 0}
seen = {"read": 0, "write": 0}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 5 and f[2] in pos:
        off, n = int(f[3]), int(f[4])
        if off != pos[f[2]]:
            print("%s at %d, expected %d" % (f[2], off, pos[f[2]]))
            sys.exit()
        pos[f[2]] += n
        seen[f[2]] += 1
print("ok" if all(seen.values()) else "only %s" % seen)
PY
}
moved() { # TOOL... FILE
	"$@" --output-format=json 2>/dev/null | python3 -c '
import json, sys; t = sys.stdin.read(); d = json.loads(t[t.find("{"):])
print(sum(j["read"]["io_bytes"] + j["write"]["io_bytes"] for j in d["jobs"]))'
}
check() { # NAME TOOL...
	name=$1
	shift
	mkdir -p "$T/$name"
	printf '[j]\nfilename=%s\nsize=256k\nbs=4k\nrw=rw\nwrite_iolog=%s\n' "$T/$name/f" "$T/$name/log" \
		>"$T/$name/p.fio"
	(cd "$T/$name" && "$@" --output-format=json p.fio >/dev/null 2>"$T/$name/err") ||
		{ cat "$T/$name/err"; fail "$name: p.fio"; }
	[ "$(positions "$T/$name/log")" = ok ] || fail "$name: $(positions "$T/$name/log")"
	ok "$name: reads and writes each from the region's start"
	over=0
	for seed in 1 2 3 4 5 6; do
		printf '[j]\nioengine=null\nsize=1m\nbssplit=512/50:64k/50\nrw=rw\nrandseed=%s\n' "$seed" \
			>"$T/$name/s$seed.fio"
		b=$(moved "$@" "$T/$name/s$seed.fio") || fail "$name: seed $seed did not run"
		[ "$b" -ge 1048576 ] && [ "$b" -lt $((1048576 + 65536)) ] ||
			fail "$name: seed $seed moved $b bytes, not within a block of 1 MiB"
		[ "$b" -gt 1048576 ] && over=$((over + 1))
	done
	[ "$over" -gt 0 ] || fail "$name: 6 seeds moved exactly 1 MiB: the last request was cut"
	ok "$name: the last request whole ($over of 6 seeds over size=)"
}
check storbench "$SB" fio
if command -v fio >/dev/null 2>&1; then
	check fio fio
else
	echo "note: fio not installed: not compared with the real fio"
fi
