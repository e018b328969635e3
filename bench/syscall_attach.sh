#!/usr/bin/env bash
# Syscall probes: one tracepoint a syscall, or one program on raw_syscalls
# filtering on the syscall number (issue 13, "How costs grow"). For K
# syscalls matched (KS, "1 2 4 8 16 32 all"; getppid first, never read) and
# each way dcc can attach them (VARIANTS):
#
#   each   one syscalls/sys_enter_NAME tracepoint a syscall (DCC_SYSCALL_RAW_MIN
#          set high, so dcc never takes raw_syscalls)
#   tp     one program on the raw_syscalls/sys_enter tracepoint (a perf event),
#          a switch on the number (DCC_SYSCALL_RAW_MIN=0)
#   btf    one tp_btf program on raw_syscalls' sys_enter, the same switch
#          (DCC_SYSCALL_RAW_MIN=0 DCC_SYSCALL_RAW_KIND=btf)
#   raw    the same on the raw_tp sys_enter (no BTF; the arguments read from
#          pt_regs with a helper) (DCC_SYSCALL_RAW_KIND=raw)
#
# it prints, medians of RUNS runs interleaved: open+load, attach, detach (the
# links) and closing the tracepoints' perf events (dtrun -v's timings), the
# whole run of `BEGIN { exit(0); }` + the clause; then with the clause
# `{ @ = count(); }` tracing, the ns per call of getppid() (a probed
# syscall) and of read() (not probed) from pcload's own clock, the ns per
# program run (bpf_stats) and the time from ^C to dtrun's exit.
RUNS=${RUNS:-3}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOCK=${LOCK:-/tmp/dcc-kernel.lock}
KS=${KS:-1 2 4 8 16 32 all}
VARIANTS=${VARIANTS:-each tp raw btf}
N=${N:-300000}
PC=$BENCH_DIR/percall
ensure_tracefs
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
TRACER=
trap '[ -z "$TRACER" ] || kill -KILL "$TRACER" 2>/dev/null; sysctl -qw kernel.bpf_stats_enabled="$old_stats"; cleanup' EXIT
for p in pcstat pcload; do
	cc -O2 -Wall -Wextra "$PC/$p.c" -lbpf -o "$WORK/$p"
done
med() { stats | cut -d' ' -f1; }

# the K syscalls: getppid, then the provider's list without read and getppid
# and without those that have no sys_enter_NAME tracepoint (dcc takes
# raw_syscalls for those whatever their number); "all": every one of them
names()
{
	local k=$1
	[ "$k" != all ] || k=100000
	"$DCC" -l -n 'syscall:::entry' 2>/dev/null | awk -v k="$k" '
		BEGIN { print "getppid"; n = 1 }
		NR > 1 && $4 != "read" && $4 != "getppid" && n < k { print $4 }' |
		while read -r s; do
			[ "$s" != getppid ] && [ ! -e "/sys/kernel/tracing/events/syscalls/sys_enter_$s" ] ||
				echo "$s"
		done | head -n "$k"
}

# compile VARIANT K CLAUSE-BODY OUT
compile()
{
	local v=$1 k=$2 body=$3 out=$4 desc
	desc=$(names "$k" | sed 's/.*/syscall::&:entry/' | paste -sd, -)
	local env=(DCC_SYSCALL_RAW_MIN=100000)
	[ "$v" = each ] || env=(DCC_SYSCALL_RAW_MIN=0)
	case $v in btf | raw | tp) env+=(DCC_SYSCALL_RAW_KIND=$v) ;; esac
	printf '%s\n%s\n{\n%s\n}\n' "$5" "$desc" "$body" >"$WORK/s.d"
	env "${env[@]}" "$DCC" "$WORK/s.d" -o "$out"
}

# one `dtrun -v` run of OBJ (BEGIN exits): "load attach detach close wall" ms
startstop()
{
	flock "$LOCK" bash -c 't0=${EPOCHREALTIME/./}; "$@" || exit; t1=${EPOCHREALTIME/./}
		echo $((t1 - t0)) >"$0"' "$WORK/v.us" "$DTRUN" -q -v "$1" >/dev/null 2>"$WORK/v.err" ||
		{ echo "fail"; return; }
	awk -v us="$(cat "$WORK/v.us")" '
		/open\+load/ { for (i = 1; i < NF; i++) { if ($i == "open+load") l = $(i + 1); if ($i == "attach") a = $(i + 1) } }
		/timing: detach/ { d = $4 }
		/timing: closing/ { c = $(NF - 1) }
		END { printf "%s %s %s %s %.1f\n", l, a, d, c + 0, us / 1000 }' "$WORK/v.err"
}

wait_ready()
{
	local end=$(($(date +%s) + 60))
	until grep -q matched "$WORK/t.err" 2>/dev/null; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.02
	done
}

# one traced run of OBJ: "sys_ns read_ns prog_ns ctrlc_ms"
traced()
{
	flock "$LOCK" bash -c '
		"$1" "$2" >/dev/null 2>"$3/t.err" & tr=$!
		end=$(($(date +%s) + 60))
		until grep -q matched "$3/t.err"; do
			[ "$(date +%s)" -lt "$end" ] || { kill -KILL $tr; exit 1; }
			sleep 0.02
		done
		sleep 0.2
		"$3/pcstat" $tr >"$3/s0"
		"$3/pcload" sys "$4" >"$3/l"
		"$3/pcload" read "$4" >>"$3/l"
		"$3/pcstat" $tr >"$3/s1"
		t0=${EPOCHREALTIME/./}
		kill -INT $tr
		wait $tr
		t1=${EPOCHREALTIME/./}
		echo $((t1 - t0)) >"$3/ctrlc"' _ "$DTRUN" "$1" "$WORK" "$N" || { echo fail; return; }
	local prog
	prog=$(awk -F'\t' 'NR == FNR { c[$1] = $6; t[$1] = $7; next }
		($1 in c) { dc += $6 - c[$1]; dt += $7 - t[$1] }
		END { printf "%.0f", dc ? dt / dc : 0 }' "$WORK/s0" "$WORK/s1")
	awk -v prog="$prog" -v c="$(cat "$WORK/ctrlc")" '
		{ ns[$1] = $3 / $2 } END { printf "%.0f %.0f %s %.1f\n", ns["sys"], ns["read"], prog, c / 1000 }' "$WORK/l"
}

# pcload untraced, under the lock like the traced runs: "sys_ns read_ns"
untraced()
{
	flock "$LOCK" bash -c '"$1/pcload" sys "$2" >"$1/l0"; "$1/pcload" read "$2" >>"$1/l0"' _ "$WORK" "$N"
	awk '{ ns[$1] = $3 / $2 } END { printf "%.0f %.0f\n", ns["sys"], ns["read"] }' "$WORK/l0"
}

# STATS=0: bpf_stats off, so that the ns per call do not include its two
# clock reads a program run (the ns per program run column is then empty)
[ "${STATS:-1}" = 0 ] || sysctl -qw kernel.bpf_stats_enabled=1
machine
echo "# dcc $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), RUNS=$RUNS, N=$N"
echo "| syscalls | variant | open+load ms | attach ms | detach ms | closing perf events ms | whole run ms | getppid ns/call | read ns/call (not probed) | ns per program run | ^C to exit ms |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for k in $KS; do
	for v in $VARIANTS; do
		compile "$v" "$k" '	@ = count();' "$WORK/$v.$k.ss.o" 'BEGIN { exit(0); }' || continue
		compile "$v" "$k" '	@ = count();' "$WORK/$v.$k.tr.o" '' || continue
	done
	: >"$WORK/rows"
	for ((i = 0; i < RUNS; i++)); do
		echo "untraced tr $(untraced)" >>"$WORK/rows"
		for v in $VARIANTS; do
			[ -e "$WORK/$v.$k.ss.o" ] || continue
			echo "$v ss $(startstop "$WORK/$v.$k.ss.o")" >>"$WORK/rows"
			echo "$v tr $(traced "$WORK/$v.$k.tr.o")" >>"$WORK/rows"
		done
	done
	kk=$k
	[ "$k" != all ] || kk="all ($(names all | wc -l))"
	for v in $VARIANTS; do
		cells=
		for c in 3 4 5 6 7; do
			cells="$cells | $(awk -v v="$v" -v c="$c" '$1 == v && $2 == "ss" && $3 != "fail" { print $c }' "$WORK/rows" | med)"
		done
		for c in 3 4 5 6; do
			cells="$cells | $(awk -v v="$v" -v c="$c" '$1 == v && $2 == "tr" && $3 != "fail" { print $c }' "$WORK/rows" | stats | sed 's| | / |')"
		done
		echo "| $kk | $v$cells |"
	done
	awk '$1 == "untraced" { print $3 }' "$WORK/rows" | stats >"$WORK/u1"
	awk '$1 == "untraced" { print $4 }' "$WORK/rows" | stats >"$WORK/u2"
	echo "| $kk | untraced (median / min) | | | | | | $(sed 's| | / |' "$WORK/u1") | $(sed 's| | / |' "$WORK/u2") | | |"
done
