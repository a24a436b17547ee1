#!/bin/sh
# fio-plot (louwrentius/fio-plot) draws its charts from storbench fio's
# JSON (a bar chart of IOPS and latency by queue depth, -l; the latency
# histogram, -H) and from its log files (IOPS and latency over time, -g),
# as from fio's: each run writes a PNG. fio-plot is found as FIO_PLOT (a checkout of it), the
# fio-plot command (pip install fio-plot) or the module fio_plot; it
# needs matplotlib, numpy, Pillow, rich and pyparsing (Debian's python3-*
# packages, scripts/install-deps --test).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# an interpreter with what fio-plot imports (pyenv's python3 may lack
# Debian's packages: /usr/bin/python3 is tried too)
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 &&
		"$p" -c 'import matplotlib, numpy, PIL, rich, pyparsing' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || skip "fio-plot's modules (matplotlib, numpy, Pillow, rich, pyparsing) are missing: scripts/install-deps --test"
if [ -n "${FIO_PLOT:-}" ] && [ -d "$FIO_PLOT/fio_plot" ]; then
	plot() { PYTHONPATH="$FIO_PLOT" "$py" -m fio_plot "$@"; }
elif "$py" -c 'import fio_plot' 2>/dev/null; then
	plot() { "$py" -m fio_plot "$@"; }
elif command -v fio-plot >/dev/null 2>&1; then
	plot() { fio-plot "$@"; }
else
	skip "fio-plot is not installed (pip install fio-plot, or FIO_PLOT=a checkout of louwrentius/fio-plot)"
fi

# as bench-fio names its files: RW-IODEPTH-NUMJOBS.json, its logs
# RW-iodepth-D-numjobs-N_TYPE.K.log
mkdir "$T/json" "$T/logs"
for d in 1 4; do
	expect_exit 0 "$SB" fio --quiet --name=randread --filename="$T/j.bin" --size=4m \
		--rw=randread --bs=4k --iodepth=$d --numjobs=1 --group_reporting \
		--output-format=json --output="$T/json/randread-$d-1.json"
done
(cd "$T/logs" && "$SB" fio --quiet --name=randread --filename="$T/l.bin" --size=4m \
	--rw=randread --bs=4k --iodepth=1 --numjobs=1 --runtime=2 --time_based \
	--write_iops_log=randread-iodepth-1-numjobs-1 --write_lat_log=randread-iodepth-1-numjobs-1 \
	--log_avg_msec=500 --output-format=json --output=randread-1-1.json) >"$T/l.out" 2>&1 ||
	fail "storbench fio with logs: $(cat "$T/l.out")"

mkdir "$T/png"
(cd "$T/png" && plot -i "$T/json" -T bars -l -r randread) >"$T/p1.out" 2>&1 ||
	fail "fio-plot -l on storbench fio's JSON: $(tail -n 5 "$T/p1.out")"
ls "$T/png"/bars_*.png >/dev/null 2>&1 || fail "fio-plot -l wrote no PNG: $(tail -n 5 "$T/p1.out")"
ok "fio-plot -l draws IOPS and latency by queue depth from storbench fio's JSON"

(cd "$T/png" && plot -i "$T/json" -T hist -H -r randread -d 4 -n 1) >"$T/p3.out" 2>&1 ||
	fail "fio-plot -H on storbench fio's JSON: $(tail -n 5 "$T/p3.out")"
ls "$T/png"/hist_*.png >/dev/null 2>&1 || fail "fio-plot -H wrote no PNG: $(tail -n 5 "$T/p3.out")"
ok "fio-plot -H draws the latency histogram from storbench fio's JSON"

(cd "$T/png" && plot -i "$T/logs" -T logs -g -t iops lat -r randread -d 1 -n 1) >"$T/p2.out" 2>&1 ||
	fail "fio-plot -g on storbench fio's logs: $(tail -n 5 "$T/p2.out")"
ls "$T/png"/logs_*.png >/dev/null 2>&1 || fail "fio-plot -g wrote no PNG: $(tail -n 5 "$T/p2.out")"
ok "fio-plot -g draws IOPS and latency over time from storbench fio's logs"
