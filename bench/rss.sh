#!/usr/bin/env bash
# Memory of the tracing process while tracing syscall:::entry counts per
# process name: VmRSS after 2 s of tracing and the peak (VmHWM).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tracefs

printf 'syscall:::entry { @[execname] = count(); }\n' >"$WORK/sys.d"
"$DCC" "$WORK/sys.d" -o "$WORK/sys.bpf.o"
B_RAW='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
B_ALL='tracepoint:syscalls:sys_enter_* { @[comm] = count(); }'

kib() { awk -v k="$1" '/^'"$1"':/ { print $2 }' "/proc/$2/status"; }

# rss LABEL READY_TEXT CMD...: start CMD (stderr to a file), wait for
# READY_TEXT on its stderr, trace for 2 s, read its memory, stop it.
rss()
{
	local label=$1 ready=$2 pid rss hwm
	shift 2
	"$@" >"$WORK/err" 2>&1 &
	pid=$!
	if ! wait_for "$WORK/err" "$ready" 60; then
		echo "bench: $label never got ready: $(head -c 300 "$WORK/err")" >&2
		stop "$pid"
		return
	fi
	sleep 2
	rss=$(kib VmRSS "$pid")
	hwm=$(kib VmHWM "$pid")
	stop "$pid"
	row "$label" "$rss" "$hwm" ""
}

machine
echo "# memory while tracing syscall:::entry { @[execname] = count(); }, KiB"
row "what" "VmRSS" "VmHWM" ""
rss "dtrun (object)" "matched" "$DTRUN" "$WORK/sys.bpf.o"
rss "dcc run (compiles in process)" "matched" "$DCC" run -s "$WORK/sys.d"
if [ -n "$BPFTRACE" ]; then
	rss "bpftrace (raw_syscalls:sys_enter)" "Attaching" "$BPFTRACE" -e "$B_RAW"
	rss "bpftrace (syscalls:sys_enter_*)" "Attaching" "$BPFTRACE" -e "$B_ALL"
	if [ -n "$AOTRT" ]; then
		"$BPFTRACE" --aot "$WORK/raw.aot" -e "$B_RAW" >/dev/null 2>&1
		rss "bpftrace-aotrt (raw_syscalls:sys_enter)" "Attaching" "$AOTRT" "$WORK/raw.aot"
	fi
fi
