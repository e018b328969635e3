#!/usr/bin/env bash
# Every function of libc at once: `pid$target:libc.so.6::entry { @ = count(); }`
# with -p on a waiting process, next to bpftrace's
# `uprobe:/lib/x86_64-linux-gnu/libc.so.6:*` (-p). Per tool: start to
# attached (BEGIN prints "ready" once every probe is attached), then the
# target (pidloop.c) calls getpid() N times and times them: ns per event is
# (traced - untraced) / N; then ^C to exit (detaching). dtrun runs with
# multi-uprobe links (one link per file, Linux 6.6+) and, forced with
# DCC_PID_MULTI=0, one uprobe a function, as bpftrace 0.17 does: closing
# ~2,150 uprobe perf events takes minutes on 6.18, so those two run
# RUNS_SLOW (1) times. The kernel lock (LOCK, empty for none) is held per run.
# bpftrace matches every symbol name (aliases too: ~7,300 probes in Debian
# 12's libc), past its default limit of 512: BPFTRACE_MAX_PROBES is raised.
# TOOLS picks the rows (default "multi single bpftrace").
# FUNC=getpid probes that one function instead (the cost of a uprobe
# itself, apart from how many there are).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

N=${N:-1000000}
RUNS_SLOW=${RUNS_SLOW:-1}
LOCK=${LOCK-/tmp/dcc-kernel.lock}
LIBC=${LIBC:-/lib/x86_64-linux-gnu/libc.so.6}
cc -O2 -Wall "$BENCH_DIR/pidloop.c" -o "$WORK/pidloop"
FUNC=${FUNC:-}
TOOLS=${TOOLS:-multi single bpftrace}
export BPFTRACE_MAX_PROBES=${BPFTRACE_MAX_PROBES:-100000}
printf '%s\n' "pid\$target:libc.so.6:$FUNC:entry { @n = count(); }" 'BEGIN { printf("ready\n"); }' \
	'END { printa("events %@d\n", @n); }' >"$WORK/all.d"
"$DCC" "$WORK/all.d" -o "$WORK/all.o"
BT_PROG="uprobe:$LIBC:${FUNC:-*} { @n = count(); } BEGIN { printf(\"ready\\n\"); }"

# one_run KIND: prints "attach_ms loop_ns exit_ms events" (one line).
one_run()
{
	local kind=$1 lp tp t0 t1 t2 t3 ns
	"$WORK/pidloop" "$N" >"$WORK/loop.out" &
	lp=$!
	wait_for "$WORK/loop.out" waiting 10 || { echo "bench: pidloop did not start" >&2; return 1; }
	t0=$(now_us)
	case $kind in
	none) tp= ;;
	multi) "$DTRUN" -q -p "$lp" "$WORK/all.o" >"$WORK/t.out" 2>"$WORK/t.err" & tp=$! ;;
	single) DCC_PID_MULTI=0 "$DTRUN" -q -p "$lp" "$WORK/all.o" >"$WORK/t.out" 2>"$WORK/t.err" &
		tp=$! ;;
	bpftrace) "$BPFTRACE" -p "$lp" -e "$BT_PROG" >"$WORK/t.out" 2>"$WORK/t.err" & tp=$! ;;
	esac
	# until "ready", or the tool gives up (bpftrace 0.17 stops at the first
	# function uprobes refuse): then "failed", the time to its exit and why
	local end=$(($(date +%s) + 300))
	while [ -n "$tp" ] && ! grep -q ready "$WORK/t.out" 2>/dev/null; do
		if ! kill -0 "$tp" 2>/dev/null || [ "$(date +%s)" -ge "$end" ]; then
			t1=$(now_us)
			kill -KILL "$lp" "$tp" 2>/dev/null
			wait "$tp" 2>/dev/null
			echo "failed $(((t1 - t0) / 1000)) $(grep -m1 -v RLIMIT_MEMLOCK "$WORK/t.err" |
				head -c 200)"
			return 0
		fi
		sleep 0.01
	done
	t1=$(now_us)
	kill -USR1 "$lp"
	wait "$lp"
	ns=$(sed -n 2p "$WORK/loop.out")
	t2=$(now_us)
	if [ -n "$tp" ]; then
		kill -INT "$tp"
		wait "$tp" || true
	fi
	t3=$(now_us)
	# dtrun: "events N"; bpftrace: "@n: N"
	local ev
	ev=$(awk '/^events / { print $2 } /^@n: / { print $2 }' "$WORK/t.out" 2>/dev/null | tail -1)
	[ -n "$tp" ] || ev=-
	echo "$(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100)) $ns" \
		"$(((t3 - t2) / 1000)).$(((t3 - t2) % 1000 / 100)) ${ev:--}"
	rm -f "$WORK/t.out" "$WORK/t.err"
}

# runs KIND COUNT: COUNT runs, each under the lock, one line each.
runs()
{
	local i
	for ((i = 0; i < $2; i++)); do
		if [ -n "$LOCK" ]; then
			flock "$LOCK" bash -c "$(declare -f one_run now_us wait_for); WORK=$WORK N=$N \
				DTRUN=$DTRUN BPFTRACE=$BPFTRACE BT_PROG='$BT_PROG' one_run $1"
		else
			one_run "$1"
		fi
	done
}

machine
echo "# libc.so.6:${FUNC:-*}, N=$N getpid() calls; attach = start to \"ready\"; exit = ^C to the tool's exit"
runs none "$RUNS" >"$WORK/none"
base=$(cut -d' ' -f2 "$WORK/none" | stats | cut -d' ' -f1)
printf '%-38s %10s %10s %10s %12s %s\n' tool "attach ms" "min" "ns/event" "exit ms" events
printf '%-38s %10s %10s %10s %12s %s\n' "untraced" - - "$(awk -v b="$base" -v n="$N" \
	'BEGIN { printf "%.0f", b / n }') (call)" - -
report()
{
	local label=$1 file=$2 a ns ex
	if grep -q '^failed' "$file"; then
		printf '%-38s %s\n' "$label" "$(grep -m1 '^failed' "$file" |
			awk '{ $1 = "failed after"; $2 = $2 " ms:"; print }')"
		return
	fi
	a=$(cut -d' ' -f1 "$file" | stats)
	ns=$(cut -d' ' -f2 "$file" | stats | cut -d' ' -f1)
	ex=$(cut -d' ' -f3 "$file" | stats | cut -d' ' -f1)
	printf '%-38s %10s %10s %10s %12s %s\n' "$label" "${a% *}" "${a#* }" \
		"$(awk -v t="$ns" -v b="$base" -v n="$N" 'BEGIN { printf "%.0f", (t - b) / n }')" \
		"$ex" "$(cut -d' ' -f4 "$file" | sort -u | tr '\n' ' ')"
}
if [[ " $TOOLS " == *" multi "* ]]; then
	runs multi "$RUNS" >"$WORK/multi"
	report "dtrun (one multi-uprobe link)" "$WORK/multi"
fi
if [[ " $TOOLS " == *" single "* ]]; then
	runs single "$RUNS_SLOW" >"$WORK/single"
	report "dtrun DCC_PID_MULTI=0 (uprobe each)" "$WORK/single"
fi
if [ -n "$BPFTRACE" ] && [[ " $TOOLS " == *" bpftrace "* ]]; then
	ensure_tracefs
	runs bpftrace "$RUNS_SLOW" >"$WORK/bt"
	report "bpftrace $("$BPFTRACE" --version | awk '{ print $2 }') (uprobe each)" "$WORK/bt"
fi
