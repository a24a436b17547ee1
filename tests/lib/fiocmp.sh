# Comparing a job file's run by storbench fio with fio's (sourced by
# tests/cli/*.sh after tests/lib/cli.sh).

# figures FILE.json: per job "name io_bytes total_ios clat_N" (read, write, trim)
figures() {
	json "$1" "'\n'.join('%s %d %d %d' % (j['jobname'],
		sum(j[d]['io_bytes'] for d in ('read', 'write', 'trim')),
		sum(j[d]['total_ios'] for d in ('read', 'write', 'trim')),
		sum(j[d]['clat_ns']['N'] for d in ('read', 'write', 'trim'))) for j in d['jobs'])"
}

# as_fio NAME: $T/NAME.fio run by storbench fio and (where installed) fio,
# each in a directory of its own ($T/sb-NAME, $T/fio-NAME): both with the
# figures $figs and no job's error (cache_warned set: a page-cache
# warning is no failure)
as_fio() {
	mkdir "$T/sb-$1" "$T/fio-$1"
	(cd "$T/sb-$1" && "$SB" fio --output-format=json --output="$T/$1-sb.json" "$T/$1.fio" \
		2>"$T/$1.err") || fail "$1: $(cat "$T/$1.err")"
	[ -n "${cache_warned:-}" ] || ! grep -q "page cache" "$T/$1.err" ||
		fail "$1: a page-cache warning: $(cat "$T/$1.err")"
	[ "$(figures "$T/$1-sb.json")" = "$figs" ] || fail "$1: $(figures "$T/$1-sb.json")"
	[ "$(json "$T/$1-sb.json" "sum(j['error'] for j in d['jobs'])")" = 0 ] || fail "$1: errors"
	ok "$1: fio's entries, bytes, requests and clat samples"
	command -v fio >/dev/null 2>&1 || return 0
	(cd "$T/fio-$1" && fio --output-format=json --output="$T/$1-fio.json" "$T/$1.fio" \
		>/dev/null 2>&1) || fail "fio itself failed on $1"
	[ "$(figures "$T/$1-fio.json")" = "$figs" ] || fail "fio's $1: $(figures "$T/$1-fio.json")"
	ok "$1: fio's figures the same"
}
