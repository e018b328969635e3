#!/usr/bin/env bash
# Time from starting the tool to probes attached: each script's BEGIN prints
# "ready" and exits, and BEGIN only runs once every probe is attached (dtrun
# attaches, then runs BEGIN; bpftrace fires BEGIN after attaching the rest).
# Measured from the fork to the moment "ready" arrives on the pipe, then the
# whole run (including detaching) to the process's exit.
#
# BEFORE=BUILD_DIR   also time that build's dtrun in compare()'s rounds
# ONLY_COMPARE=1     stop after the three workloads next to the C loader
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tracefs

mkfifo "$WORK/fifo"

# first_line_ms CMD...: prints "ms_to_first_line ms_total".
first_line_ms()
{
	local t0 t1 t2 line pid
	t0=$(now_us)
	"$@" >"$WORK/fifo" 2>"$WORK/stderr" &
	pid=$!
	exec 3<"$WORK/fifo"
	read -r line <&3 || true
	t1=$(now_us)
	cat <&3 >/dev/null
	wait "$pid" || { echo "bench: failed: $* ($(head -c 300 "$WORK/stderr"))" >&2; exec 3<&-; return 1; }
	t2=$(now_us)
	exec 3<&-
	[ "$line" = ready ] || { echo "bench: $*: first line '$line'" >&2; return 1; }
	echo "$(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100)) $(((t2 - t0) / 1000)).$(((t2 - t0) % 1000 / 100))"
}

# measure LABEL CMD...: RUNS runs, one table row.
measure()
{
	local label=$1 i
	shift
	for ((i = 0; i < RUNS; i++)); do
		first_line_ms "$@"
	done >"$WORK/times"
	row "$label" "$(cut -d' ' -f1 "$WORK/times" | stats | cut -d' ' -f1)" \
		"$(cut -d' ' -f1 "$WORK/times" | stats | cut -d' ' -f2)" \
		"total $(cut -d' ' -f2 "$WORK/times" | stats | cut -d' ' -f1) ms"
}

# compare LABEL "DTRUN CMD" "C CMD": RUNS runs of each, interleaved (a burst
# of load from elsewhere hits both), one row each and the ratio of medians.
# With BEFORE=BUILD_DIR, that build's dtrun runs in the same rounds too (the
# DTRUN CMD with its dtrun), for a before/after on the same load.
compare()
{
	local label=$1 i before=
	if [ -n "${BEFORE:-}" ]; then
		before=${2/#$DTRUN/$BEFORE/bin/dtrun}
	fi
	for ((i = 0; i < RUNS; i++)); do
		[ -z "$before" ] || first_line_ms $before >>"$WORK/t.b"
		first_line_ms $2 >>"$WORK/t.d"
		first_line_ms $3 >>"$WORK/t.c"
	done
	local md mc mb
	md=$(cut -d' ' -f1 "$WORK/t.d" | stats)
	mc=$(cut -d' ' -f1 "$WORK/t.c" | stats)
	if [ -n "$before" ]; then
		mb=$(cut -d' ' -f1 "$WORK/t.b" | stats)
		row "dtrun before: $label" ${mb% *} ${mb#* } \
			"before / C: $(awk -v a="${mb% *}" -v b="${mc% *}" 'BEGIN { printf "%.2fx", a / b }')"
	fi
	row "dtrun: $label" ${md% *} ${md#* } ""
	row "C (pcrun): $label" ${mc% *} ${mc#* } \
		"dtrun / C: $(awk -v a="${md% *}" -v b="${mc% *}" 'BEGIN { printf "%.2fx", a / b }')"
	rm -f "$WORK/t.d" "$WORK/t.c" "$WORK/t.b"
}

D_BEGIN='BEGIN { printf("ready\n"); exit(0); }'
D_SYS='BEGIN { printf("ready\n"); exit(0); } syscall:::entry { @[execname] = count(); }'
D_ONE='BEGIN { printf("ready\n"); exit(0); } syscall::getppid:entry { @[execname] = count(); }'
D_W2='BEGIN { printf("ready\n"); exit(0); } syscall::read:entry { self->ts = timestamp; }
syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
D_W3='BEGIN { printf("ready\n"); exit(0); } profile-997 { @[execname] = count(); }'
printf '%s\n' "$D_W2" >"$WORK/w2.d"
printf '%s\n' "$D_W3" >"$WORK/w3.d"
"$DCC" "$WORK/w2.d" -o "$WORK/w2.bpf.o"
"$DCC" "$WORK/w3.d" -o "$WORK/w3.bpf.o"
printf '%s\n' "$D_BEGIN" >"$WORK/begin.d"
printf '%s\n' "$D_SYS" >"$WORK/sys.d"
printf '%s\n' "$D_ONE" >"$WORK/one.d"
"$DCC" "$WORK/begin.d" -o "$WORK/begin.bpf.o"
"$DCC" "$WORK/sys.d" -o "$WORK/sys.bpf.o"
"$DCC" "$WORK/one.d" -o "$WORK/one.bpf.o"

# the hand-written libbpf C programs and loader of percall/ (pcrun -1 prints
# "ready" once every program is attached and exits)
CLANG=${CLANG:-clang-19}
cc -O2 -Wall -Wextra "$BENCH_DIR/percall/pcrun.c" -lbpf -o "$WORK/pcrun"
for c in w1_count w2_quantize w3_profile; do
	"$CLANG" -target bpf -O2 -g -I/usr/include/$(uname -m)-linux-gnu \
		-c "$BENCH_DIR/percall/$c.bpf.c" -o "$WORK/$c.c.bpf.o"
done

B_BEGIN='BEGIN { printf("ready\n"); exit(); }'
B_RAW='BEGIN { printf("ready\n"); exit(); } tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
B_ALL='BEGIN { printf("ready\n"); exit(); } tracepoint:syscalls:sys_enter_* { @[comm] = count(); }'
B_ONE='BEGIN { printf("ready\n"); exit(); } tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'

machine
echo "# start -> probes attached (BEGIN output), ms over $RUNS runs"
row "what" "median" "min" "whole run, median"
measure "dtrun: BEGIN only" "$DTRUN" -q "$WORK/begin.bpf.o"
measure "dtrun: + syscall::getppid:entry" "$DTRUN" -q "$WORK/one.bpf.o"
measure "dtrun: + syscall:::entry" "$DTRUN" -q "$WORK/sys.bpf.o"
echo "# the workloads next to the hand-written libbpf C of percall/ (interleaved runs)"
compare "W1 syscall entry @[execname] = count()" "$DTRUN -q $WORK/sys.bpf.o" \
	"$WORK/pcrun -1 $WORK/w1_count.c.bpf.o"
compare "W2 read latency quantize (self->ts)" "$DTRUN -q $WORK/w2.bpf.o" \
	"$WORK/pcrun -1 $WORK/w2_quantize.c.bpf.o"
compare "W3 profile-997 @[execname] = count()" "$DTRUN -q $WORK/w3.bpf.o" \
	"$WORK/pcrun -1 $WORK/w3_profile.c.bpf.o"
[ -n "${ONLY_COMPARE:-}" ] && exit 0
measure "dcc run (compile+run): + syscall:::entry" "$DCC" run -q -s "$WORK/sys.d"
if [ -n "$BPFTRACE" ]; then
	measure "bpftrace -e: BEGIN only" "$BPFTRACE" -q -e "$B_BEGIN"
	measure "bpftrace -e: + sys_enter_getppid" "$BPFTRACE" -q -e "$B_ONE"
	measure "bpftrace -e: + raw_syscalls:sys_enter" "$BPFTRACE" -q -e "$B_RAW"
	# ~700 probes take bpftrace many seconds to detach: fewer runs
	RUNS=$(( RUNS < 3 ? RUNS : 3 )) measure "bpftrace -e: + syscalls:sys_enter_*" "$BPFTRACE" -q -e "$B_ALL"
	if [ -n "$AOTRT" ]; then
		"$BPFTRACE" --aot "$WORK/begin.aot" -e "$B_BEGIN" >/dev/null 2>&1
		"$BPFTRACE" --aot "$WORK/raw.aot" -e "$B_RAW" >/dev/null 2>&1
		measure "bpftrace-aotrt: BEGIN only" "$AOTRT" -q "$WORK/begin.aot"
		measure "bpftrace-aotrt: + raw_syscalls:sys_enter" "$AOTRT" -q "$WORK/raw.aot"
	fi
fi
