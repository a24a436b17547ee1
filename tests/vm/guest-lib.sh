# Helpers of the guest's checks (sourced by /init before /checks).
# Every result goes under /out, which the host gets back as a tar archive.

# run NAME SECONDS CMD...: CMD's stdout in /out/NAME.out, stderr in
# NAME.err, exit status in NAME.rc (137: the timeout killed it), the
# guest's clock before and after in NAME.time
run() {
	r_name=$1 r_secs=$2
	shift 2
	say "$r_name"
	read -r r_start _ </proc/uptime
	timeout -s KILL "$r_secs" "$@" >"/out/$r_name.out" 2>"/out/$r_name.err"
	echo $? >"/out/$r_name.rc"
	read -r r_end _ </proc/uptime
	echo "$r_start $r_end" >"/out/$r_name.time"
}

# disk_by_serial SERIAL: /dev/NAME of the disk whose serial is SERIAL
# (virtio's serial, NVMe's controller serial, SCSI's unit serial number)
disk_by_serial() {
	for d in /sys/block/*; do
		for f in "$d/serial" "$d/device/serial" "$d/device/vpd_pg80"; do
			[ -r "$f" ] && grep -qaw -- "$1" "$f" && { echo "/dev/${d##*/}"; return 0; }
		done
	done
	return 1
}

# wait_for SECONDS PATH...: each PATH exists (a device the kernel probes)
wait_for() {
	w_left=$(($1 * 10))
	shift
	for p in "$@"; do
		while [ ! -e "$p" ]; do
			[ $w_left -gt 0 ] || { say "no $p"; return 1; }
			sleep 0.1
			w_left=$((w_left - 1))
		done
	done
}

# counters DISK NAME: the kernel's I/O counters of DISK (/sys/block/DISK/stat)
# in /out/NAME.stat
counters() { cat "/sys/block/$1/stat" >"/out/$2.stat"; }

# wait_serial SECONDS SERIAL: /dev/NAME of the disk whose serial is SERIAL,
# once the kernel has probed it
wait_serial() {
	read -r ws_end _ </proc/uptime
	ws_end=$((${ws_end%.*} + $1))
	until disk_by_serial "$2"; do
		read -r ws_now _ </proc/uptime
		[ ${ws_now%.*} -lt $ws_end ] || { say "no disk with serial $2"; return 1; }
		sleep 0.2
	done
}

# mmc_trace on|off FILE: the SD card's commands, as the kernel's mmc trace
# events see them, in /out/FILE; reads and writes (CMD17/18, CMD24/25) and
# status (CMD13) left out, so that the buffer keeps the rest
mmc_trace() {
	tr=/sys/kernel/tracing ev=/sys/kernel/tracing/events/mmc/mmc_request_start
	[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null
	[ -f $ev/enable ] || { echo none >"/out/$2"; return; }
	case $1 in
	on)
		echo 'cmd_opcode != 13 && cmd_opcode != 17 && cmd_opcode != 18 && cmd_opcode != 24 && cmd_opcode != 25' >$ev/filter
		echo >$tr/trace
		echo 1 >$ev/enable
		;;
	off)
		echo 0 >$ev/enable
		cat $tr/trace >"/out/$2"
		;;
	esac
}
