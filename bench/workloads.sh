#!/usr/bin/env bash
# Issue 13's method: the five workloads done by dcc + dtrun, by bpftrace and
# by hand-written libbpf C (percall/), side by side in one run, with the
# ratios of the medians:
#
#   W1 syscall:::entry { @[execname] = count(); }            load: N getppid()
#   W2 read-latency quantize with self->ts                   load: N 1-byte reads
#   W3 printf("%d %s %s\n", pid, execname, copyinstr(arg1))
#      on every openat                                       load: N/10 openat()
#   W4 profile-997 { @[execname] = count(); }                load: PROFILE_S s
#   W5 syscall:::entry /pid == 999999999/ { @ = count(); }   load: N getppid()
#
# Per workload and tool: start to probes attached (BEGIN prints "ready" and
# exits; the C loaders' -1), RUNS runs interleaved; then REPS rounds of:
# start the tracer, wait until attached, take its programs' statistics
# (percall/pcstat: xlated and verified instructions, run_cnt, run_time_ns
# with kernel.bpf_stats_enabled), run the load, take them again, stop it.
# ns/event is the sum over the programs of Δrun_time_ns / Δrun_cnt; the load
# generator's own ns per call is shown for the tools that trace its calls;
# W3's "printed" is the records of the generator printed (want N/10: no
# loss at that rate; bench/load.sh measures the highest rate without loss).
# Each round (every workload by every tool, ~5 s for start-up, ~40 s per
# event) holds the kernel lock (LOCK), and only that round.
#
# Knobs: RUNS (start-up, default 9), REPS (per-event rounds, default 5),
# N (default 1000000), PROFILE_S (default 2), BPFTRACE= (empty: without).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
RUNS=${RUNS_START:-9}
REPS=${REPS:-5}
N=${N:-1000000}
PROFILE_S=${PROFILE_S:-2}
LOCK=${LOCK:-/tmp/dcc-kernel.lock}
CLANG=${CLANG:-clang-19}
PC=$BENCH_DIR/percall
ensure_tracefs
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
TRACER=
trap '[ -z "$TRACER" ] || kill -KILL "$TRACER" 2>/dev/null; sysctl -qw kernel.bpf_stats_enabled="$old_stats"; cleanup' EXIT

# --- build -------------------------------------------------------------------
for p in pcrun pcring pcstat pcload pcopen; do
	cc -O2 -Wall -Wextra "$PC/$p.c" -lbpf -o "$WORK/$p"
done
for c in w1_count:w1 w2_quantize:w2 w4_printf:w3 w3_profile:w4 w5_never:w5; do
	"$CLANG" -target bpf -O2 -g -I/usr/include/$(uname -m)-linux-gnu \
		-c "$PC/${c%%:*}.bpf.c" -o "$WORK/${c#*:}.c.o"
done
workload_scripts
B[1]='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
B[2]='tracepoint:syscalls:sys_enter_read { @ts[tid] = nsecs; }
tracepoint:syscalls:sys_exit_read /@ts[tid]/ { @ = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'
B[3]='tracepoint:syscalls:sys_enter_openat { printf("%d %s %s\n", pid, comm, str(args->filename)); }'
B[4]='profile:hz:997 { @[comm] = count(); }'
B[5]='tracepoint:raw_syscalls:sys_enter /pid == 999999999/ { @ = count(); }'
NAME=([1]="W1 syscall count by execname" [2]="W2 read-latency quantize" [3]="W3 printf per openat"
	[4]="W4 profile-997 count" [5]="W5 never-true predicate")
for w in 1 2 3 4 5; do
	printf '%s\n' "${D[w]}" >"$WORK/w$w.d"
	printf 'BEGIN { printf("ready\\n"); exit(0); }\n%s\n' "${D[w]}" >"$WORK/w$w.ready.d"
	"$DCC" "$WORK/w$w.d" -o "$WORK/w$w.dcc.o"
	"$DCC" "$WORK/w$w.ready.d" -o "$WORK/w$w.ready.o"
done
cloader() { [ "$1" = 3 ] && echo "$WORK/pcring" || echo "$WORK/pcrun"; }
impls="dcc c"
[ -n "$BPFTRACE" ] && impls="$impls bpftrace"

# --- start to attached ----------------------------------------------------
mkfifo "$WORK/fifo"
# first_line_us CMD...: µs from the fork to the first line, which must be "ready"
first_line_us()
{
	local t0 t1 line pid
	t0=$(now_us)
	"$@" >"$WORK/fifo" 2>"$WORK/stderr" &
	pid=$!
	exec 3<"$WORK/fifo"
	read -r line <&3 || true
	t1=$(now_us)
	cat <&3 >/dev/null
	wait "$pid" || true
	exec 3<&-
	[ "$line" = ready ] || { echo "bench: $*: first line '$line' ($(head -c 200 "$WORK/stderr"))" >&2; return 1; }
	echo $((t1 - t0))
}
# with_lock CMD...: CMD holding the kernel lock (fd 9, closed after)
with_lock()
{
	local st=0
	exec 9>>"$LOCK"
	flock 9
	"$@" || st=$?
	flock -u 9
	exec 9>&-
	return $st
}
# attached_us CMD...: µs from the fork to dtrun's "matched N probes" line
# (stderr), printed once every probe is attached and before BEGIN; then SIGINT
attached_us()
{
	local t0 t1 line= pid
	t0=$(now_us)
	"$@" 2>"$WORK/fifo" >/dev/null &
	pid=$!
	exec 3<"$WORK/fifo"
	while read -r line <&3; do
		case $line in *" matched "*) break ;; esac
	done
	t1=$(now_us)
	kill -INT "$pid" 2>/dev/null
	cat <&3 >/dev/null
	wait "$pid" || true
	exec 3<&-
	case $line in
	*" matched "*) echo $((t1 - t0)) ;;
	*) echo "bench: $*: no 'matched' line" >&2; return 1 ;;
	esac
}
startup()
{
	local w=$1 impl=$2
	case $impl in
	dcc) first_line_us "$DTRUN" -q "$WORK/w$w.ready.o" ;;
	c) first_line_us "$(cloader "$w")" -1 "$WORK/w$w.c.o" ;;
	bpftrace) printf 'BEGIN { printf("ready\\n"); exit(); }\n%s\n' "${B[w]}" >"$WORK/b.bt"
		first_line_us "$BPFTRACE" -q "$WORK/b.bt" ;;
	esac
}
: >"$WORK/rec"
# one round: every workload by every tool, interleaved
startup_round()
{
	local w impl us
	for w in 1 2 3 4 5; do
		for impl in $impls; do
			us=$(startup "$w" "$impl") && echo "$w $impl start $us" >>"$WORK/rec"
			# load to attached: the workload's own object for dcc (no
			# BEGIN); the others print "ready" once attached
			[ "$impl" = dcc ] && { us=$(attached_us "$DTRUN" "$WORK/w$w.dcc.o") || us=; }
			[ -n "$us" ] && echo "$w $impl attach $us" >>"$WORK/rec"
		done
	done
}
for ((i = 0; i < RUNS; i++)); do
	with_lock startup_round
done

# --- per event ------------------------------------------------------------
wait_ready()
{
	local end=$(($(date +%s) + 60))
	until grep -q -- "$1" "$WORK/t.out" "$WORK/t.err" 2>/dev/null; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.02
	done
}
load()
{
	case $1 in
	1 | 5) "$WORK/pcload" sys "$N" ;;
	2) "$WORK/pcload" read "$N" ;;
	3) "$WORK/pcopen" $((N / 10)) ;;
	4) sleep "$PROFILE_S"; echo "sleep 1 0" ;;
	esac
}
# one round of workload w by impl: records "w impl ns|xl|ver|wall|printed value"
perevent()
{
	local w=$1 impl=$2 ready
	case $impl in
	dcc) ready=matched; "$DTRUN" "$WORK/w$w.dcc.o" >"$WORK/t.out" 2>"$WORK/t.err" & ;;
	c) ready=ready; "$(cloader "$w")" "$WORK/w$w.c.o" >"$WORK/t.out" 2>"$WORK/t.err" & ;;
	bpftrace) ready=Attaching; "$BPFTRACE" -e "${B[w]}" >"$WORK/t.out" 2>"$WORK/t.err" & ;;
	esac
	TRACER=$!
	if ! wait_ready "$ready"; then
		echo "bench: W$w $impl never attached: $(head -c 300 "$WORK/t.err")" >&2
		kill -KILL "$TRACER"; wait "$TRACER" 2>/dev/null; TRACER=
		return
	fi
	sleep 0.3
	"$WORK/pcstat" "$TRACER" >"$WORK/s0"
	load "$w" >"$WORK/l"
	"$WORK/pcstat" "$TRACER" >"$WORK/s1"
	# lib.sh's stop: bpftrace 0.17 once let a SIGINT go and ran on for 40 min
	stop "$TRACER"
	TRACER=
	awk -v w="$w" -v impl="$impl" -F'\t' '
		NR == FNR { c[$1] = $6; t[$1] = $7; next }
		($1 in c) { xl += $3; ver += $5; dc = $6 - c[$1]; if (dc > 0) ns += ($7 - t[$1]) / dc }
		END { printf "%s %s ns %.1f\n%s %s xl %d\n%s %s ver %d\n", w, impl, ns, w, impl, xl, w, impl, ver }' \
		"$WORK/s0" "$WORK/s1" >>"$WORK/rec"
	if [ "$w" != 4 ]; then
		awk -v w="$w" -v impl="$impl" '{ if ($2 > 0) printf "%s %s wall %.1f\n", w, impl, $3 / $2 }' \
			"$WORK/l" >>"$WORK/rec"
	fi
	[ "$w" != 3 ] || echo "$w $impl printed $(grep -c 'pcloop /dev/null' "$WORK/t.out")" >>"$WORK/rec"
}
sysctl -qw kernel.bpf_stats_enabled=1
perevent_round()
{
	local w impl
	for w in 1 2 3 4 5; do
		"$WORK/pcload" sys 1 >/dev/null	# warm the generator's pages
		for impl in $impls; do
			perevent "$w" "$impl"
		done
	done
}
for ((r = 0; r < REPS; r++)); do
	with_lock perevent_round
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
[ "${KEEP:-0}" = 1 ] && cp "$WORK/rec" /tmp/workloads.rec

# --- the table ------------------------------------------------------------
machine
echo "# dcc $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); medians: start-up of $RUNS runs, the rest of $REPS rounds; N=$N"
awk -v names="$(printf '%s|' "${NAME[@]:1}")" '
	function med(list,   a, c, i, j, t) {
		c = split(list, a, " ")
		for (i = 2; i <= c; i++) {
			t = a[i] + 0
			for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
			a[j + 1] = t
		}
		return c == 0 ? "" : (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
	}
	{ v[$1, $2, $3] = v[$1, $2, $3] " " $4 }
	function cell(w, impl, m, scale,   x) {
		x = med(v[w, impl, m]); if (x == "") return "-"
		return sprintf(m == "start" || m == "attach" ? "%.1f" : (m == "ns" || m == "wall") ? "%.0f" : "%d", x / scale)
	}
	function ratio(w, a, b, m,   x, y) {
		x = med(v[w, a, m]); y = med(v[w, b, m])
		return (x == "" || y == "" || y == 0) ? "-" : sprintf("%.2fx", x / y)
	}
	END {
		split(names, nm, "|")
		split("start ms:start:1000|attached ms:attach:1000|xlated insns:xl:1|verified insns:ver:1|ns per program run (bpf_stats):ns:1|load generator ns per call:wall:1|W3 records printed:printed:1", ms, "|")
		for (k = 1; k <= 7; k++) {
			split(ms[k], f, ":")
			printf "\n| %s | dcc | hand-written C | bpftrace | dcc / C | dcc / bpftrace |\n| --- | --- | --- | --- | --- | --- |\n", f[1]
			for (w = 1; w <= 5; w++) {
				if (f[2] == "printed" && w != 3) continue
				if (f[2] == "wall" && w == 4) continue
				printf "| %s | %s | %s | %s | %s | %s |\n", nm[w], cell(w, "dcc", f[2], f[3]),
					cell(w, "c", f[2], f[3]), cell(w, "bpftrace", f[2], f[3]),
					ratio(w, "dcc", "c", f[2]), ratio(w, "dcc", "bpftrace", f[2])
			}
		}
	}' "$WORK/rec"
echo
echo "# start ms: fork to \"ready\" (BEGIN, after every probe is attached; C: pcrun/pcring -1)"
echo "# attached ms: load to attached, fork to dtrun's \"matched N probes\" for the workload's"
echo "#   own object (no BEGIN program, no ring buffer reader yet); C and bpftrace: as start ms"
echo "# ns per program run: sum over the tool's programs of run_time_ns / run_cnt over every event"
echo "#   on the machine during the load; W2 has two programs per event, bpftrace's W2 too"
echo "# load generator ns per call: its loop's wall time / calls (tracepoint and tool included)"
