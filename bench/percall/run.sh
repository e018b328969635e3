#!/usr/bin/env bash
# Per-call cost of two D workloads, each done three ways: dcc + dtrun, bpftrace
# and a hand-written libbpf C program (see README.md). Prints one table.
#
#   bench/percall/run.sh
#
# BUILD  build tree with bin/dcc and bin/dtrun (default: build/)
# N      syscalls / reads the load generator makes per run (default 2000000)
# REPS   runs per workload and implementation (default 5): median (min-max)
# AOT=1  also measure bpftrace-aotrt (needs `bpftrace --aot`; prints no maps)
# VARIANTS=1  also rows of the hand-written programs doing DTrace's
#             bookkeeping (c-dtwork) and W2 rows with dcc's choices
# KEEP=1 keep the work directory (objects, raw records, tracer outputs)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
N=${N:-2000000}
REPS=${REPS:-5}
AOT=${AOT:-0}
VARIANTS=${VARIANTS:-0}
DCC=$BUILD/bin/dcc
DTRUN=$BUILD/bin/dtrun
CLANG=${CLANG:-clang-19}

[ "$(id -u)" -eq 0 ] || { echo "percall: run as root" >&2; exit 1; }
[ -x "$DCC" ] && [ -x "$DTRUN" ] || { echo "percall: no $DCC or $DTRUN (set BUILD)" >&2; exit 1; }
BPFTRACE=$(command -v bpftrace || true)
AOTRT=$(command -v bpftrace-aotrt || true)

W=$(mktemp -d /tmp/percall.XXXXXX)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
MOUNTED=
TRACER=
finish()
{
	[ -z "$TRACER" ] || kill -KILL "$TRACER" 2>/dev/null || true
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	[ -z "$MOUNTED" ] || umount /sys/kernel/tracing 2>/dev/null || true
	if [ "${KEEP:-0}" = 1 ]; then echo "# kept $W" >&2; else rm -rf "$W"; fi
}
trap finish EXIT
# bpftrace reads tracepoint formats from tracefs
if [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing
	MOUNTED=1
fi

# --- build everything ---------------------------------------------------
for p in pcload pcrun pcstat; do
	cc -O2 -Wall -Wextra "$HERE/$p.c" -lbpf -o "$W/$p"
done
# hand-written objects: w1.c, w2.c and W2 variants with one of dcc's choices
# each (c-relookup, c-hashagg, c-dcclike: both) or without the hash
# insert/delete per event (c-inplace, c-taskstor); see w2_quantize.bpf.c
bpfcc()
{
	"$CLANG" -target bpf -O2 -g -Wall -Wextra -I/usr/include/$(uname -m)-linux-gnu \
		"${@:3}" -c "$HERE/$1.bpf.c" -o "$W/$2.bpf.o"
}
bpfcc w1_count w1.c
bpfcc w1_count w1.c-dtwork -DDTRACE_WORK
bpfcc w2_quantize w2.c
bpfcc w2_quantize w2.c-relookup -DRELOOKUP
bpfcc w2_quantize w2.c-hashagg -DHASH_AGG
bpfcc w2_quantize w2.c-dcclike -DRELOOKUP -DHASH_AGG
bpfcc w2_quantize w2.c-inplace -DINPLACE
bpfcc w2_quantize w2.c-taskstor -DTASK_STORAGE
bpfcc w2_quantize w2.c-dtwork -DDTRACE_WORK
D1='syscall:::entry { @[execname] = count(); }'
D2='syscall::read:entry { self->ts = timestamp; }
syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
B1='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
B2='tracepoint:syscalls:sys_enter_read { @ts[tid] = nsecs; }
tracepoint:syscalls:sys_exit_read /@ts[tid]/ { @ = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'
printf '%s\n' "$D1" >"$W/w1.d"
printf '%s\n' "$D2" >"$W/w2.d"
"$DCC" "$W/w1.d" -o "$W/w1.bpf.o"
"$DCC" "$W/w2.d" -o "$W/w2.bpf.o"
if [ "$AOT" = 1 ] && [ -n "$BPFTRACE" ] && [ -n "$AOTRT" ]; then
	"$BPFTRACE" --aot "$W/w1.aot" -e "$B1" >/dev/null 2>&1 || AOT=0
	"$BPFTRACE" --aot "$W/w2.aot" -e "$B2" >/dev/null 2>&1 || AOT=0
else
	AOT=0
fi

# --- one measurement ----------------------------------------------------
# wait_for TEXT FILE...: until one of the FILEs holds TEXT (60 s at most)
wait_for()
{
	local text=$1 end=$(($(date +%s) + 60))
	shift
	until cat "$@" 2>/dev/null | grep -q -- "$text"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.05
	done
}

# the count the tracer printed: W1 the @[pcloop] value, W2 the histogram's total
count_of()
{
	local wl=$1 impl=$2 f=$3
	case $wl/$impl in
	w1/dcc) awk '$1 == "pcloop" { print $2 }' "$f" ;;
	w1/bpftrace) sed -n 's/^@\[pcloop\]: //p' "$f" ;;
	w1/c*) awk '$1 == "pcloop" { print $2 }' "$f" ;;
	w2/dcc) awk '/\|/ && $1 ~ /^-?[0-9]+$/ { s += $NF } END { print s + 0 }' "$f" ;;
	w2/bpftrace) awk -F'|' '/^\[/ { c = split($1, a, " "); s += a[c] } END { print s + 0 }' "$f" ;;
	w2/c*) awk '$1 == "total" { print $2 }' "$f" ;;
	*) echo "-" ;;
	esac
}

# measure WL IMPL REP: one run of the tracer around one run of the load
# generator; appends a record to $W/records:
#   wl impl rep ns_event wall_ns_per_call count  then per program
#   name:ns_run:runs:xlated:verified
measure()
{
	local wl=$1 impl=$2 rep=$3 ready mode obj out=$W/out.$1.$2.$3 err=$W/err.$1.$2.$3
	local script=B1
	[ "$wl" = w2 ] && script=B2
	mode=sys
	[ "$wl" = w2 ] && mode=read
	case $impl in
	dcc) ready=matched; "$DTRUN" "$W/$wl.bpf.o" >"$out" 2>"$err" & ;;
	c*) ready=ready; "$W/pcrun" "$W/$wl.$impl.bpf.o" >"$out" 2>"$err" & ;;
	bpftrace) ready=Attaching; "$BPFTRACE" -e "${!script}" >"$out" 2>"$err" & ;;
	aotrt) ready=Attaching; "$AOTRT" "$W/$wl.aot" >"$out" 2>"$err" & ;;
	esac
	TRACER=$!
	if ! wait_for "$ready" "$out" "$err"; then
		echo "percall: $impl $wl never got ready: $(head -c 300 "$err")" >&2
		exit 1
	fi
	sleep 0.5
	"$W/pcstat" "$TRACER" >"$W/before"
	"$W/pcload" "$mode" "$N" >"$W/load"
	"$W/pcstat" "$TRACER" >"$W/after"
	if [ "$impl" = aotrt ]; then
		kill -TERM "$TRACER"	# bpftrace-aotrt 0.17 catches no signal
	else
		kill -INT "$TRACER"
	fi
	wait "$TRACER" 2>/dev/null || true
	TRACER=
	awk -v wl="$wl" -v impl="$impl" -v rep="$rep" -v n="$N" \
		-v wall="$(awk '{ print $3 }' "$W/load")" \
		-v count="$(count_of "$wl" "$impl" "$out")" -F'\t' '
		NR == FNR { cnt[$1] = $6; ns[$1] = $7; next }
		($1 in cnt) {
			dc = $6 - cnt[$1]; dn = $7 - ns[$1]
			if (dc <= 0) next
			ev += dn / dc
			progs = progs sprintf(" %s:%.1f:%d:%d:%d", $2, dn / dc, dc, $3, $5)
		}
		END {
			printf "%s %s %d %.1f %.1f %s%s\n", wl, impl, rep, ev, wall / n,
				count == "" ? "-" : count, progs
		}' "$W/before" "$W/after" >>"$W/records"
}

baseline()
{
	local wl=$1 rep=$2 mode=sys
	[ "$wl" = w2 ] && mode=read
	"$W/pcload" "$mode" "$N" | awk -v wl="$wl" -v rep="$rep" -v n="$N" \
		'{ printf "%s none %d - %.1f -\n", wl, rep, $3 / n }' >>"$W/records"
}

impls="dcc c"
[ -n "$BPFTRACE" ] && impls="$impls bpftrace"
[ "$AOT" = 1 ] && impls="$impls aotrt"
: >"$W/records"
sysctl -qw kernel.bpf_stats_enabled=1
# interleaved so that a burst of noise from elsewhere spreads over all rows
for ((rep = 1; rep <= REPS; rep++)); do
	for wl in w1 w2; do
		baseline "$wl" "$rep"
		for impl in $impls; do
			measure "$wl" "$impl" "$rep"
		done
		if [ "$wl" = w1 ] && [ "$VARIANTS" = 1 ]; then
			measure "$wl" c-dtwork "$rep"
		fi
		if [ "$wl" = w2 ] && [ "$VARIANTS" = 1 ]; then
			for impl in c-relookup c-hashagg c-dcclike c-inplace c-taskstor c-dtwork; do
				measure "$wl" "$impl" "$rep"
			done
		fi
	done
done
sysctl -qw kernel.bpf_stats_enabled="$old_stats"
[ "${KEEP:-0}" = 1 ] && cp "$W/records" "$W/records.txt"

# --- the table ------------------------------------------------------------
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r), $(nproc) CPUs," \
	"$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "# N=$N calls per run, $REPS runs each: median (min-max)"
echo "# W1: syscall:::entry { @[execname] = count(); }   load: N getppid()"
echo "# W2: read entry/return quantize of the latency     load: N 1-byte reads of /dev/zero"
awk -v n="$N" '
	function med(list, k,   a, c, i, j, t) {
		c = split(list, a, " ")
		for (i = 2; i <= c; i++) {	# insertion sort, numeric
			t = a[i] + 0
			for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		if (k == "min") return a[1]
		if (k == "max") return a[c]
		return (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
	}
	function cell(list) {
		if (list == "") return "-"
		return sprintf("%.0f (%.0f-%.0f)", med(list, "med"), med(list, "min"), med(list, "max"))
	}
	{
		key = $1 " " $2
		if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
		if ($4 != "-") ev[key] = ev[key] " " $4
		wall[key] = wall[key] " " $5
		cnt[key] = cnt[key] (cnt[key] == "" ? "" : ",") $6
		np[key] = 0
		for (i = 7; i <= NF; i++) {
			split($i, f, ":")
			p = ++np[key]
			pname[key, p] = f[1]; pns[key, p] = pns[key, p] " " f[2]
			pxl[key, p] = f[4]; pver[key, p] = f[5]
		}
	}
	END {
		printf "%-3s %-9s %-19s %7s %9s %-19s %s\n", "wl", "impl", "ns/event", "xlated",
			"verified", "wall ns/call", "count (want: W1 N+2, W2 >= N)"
		for (k = 1; k <= nk; k++) {
			key = order[k]; split(key, kk, " ")
			xl = 0; ver = 0
			for (p = 1; p <= np[key]; p++) {
				xl += pxl[key, p]; ver += pver[key, p]
			}
			printf "%-3s %-9s %-19s %7s %9s %-19s %s\n", kk[1], kk[2], cell(ev[key]),
				np[key] ? xl : "-", np[key] ? ver : "-", cell(wall[key]), cnt[key]
			if (ev[key] != "") evm[kk[1], kk[2]] = med(ev[key], "med")
		}
		print ""
		printf "%-3s %-9s %-16s %-19s %7s %9s\n", "wl", "impl", "program", "ns/run",
			"xlated", "verified"
		for (k = 1; k <= nk; k++) {
			key = order[k]; split(key, kk, " ")
			for (p = 1; p <= np[key]; p++)
				printf "%-3s %-9s %-16s %-19s %7s %9s\n", kk[1], kk[2], pname[key, p],
					cell(pns[key, p]), pxl[key, p], pver[key, p]
		}
		print ""
		for (w = 1; w <= 2; w++) {
			wl = "w" w
			if (((wl, "dcc") in evm) && ((wl, "c") in evm))
				printf "%s dcc/hand-written %.2fx", wl, evm[wl, "dcc"] / evm[wl, "c"]
			if (((wl, "dcc") in evm) && ((wl, "bpftrace") in evm))
				printf "   dcc/bpftrace %.2fx", evm[wl, "dcc"] / evm[wl, "bpftrace"]
			printf "   (goal: <= 1.15x hand-written, < 1x bpftrace; medians of ns/event)\n"
			kd = wl " dcc"; kc = wl " c"
			if (np[kd] > 1 && np[kd] == np[kc])
				for (p = 1; p <= np[kd]; p++)
					printf "%s   program %d (%s vs %s): dcc/hand-written %.2fx\n", wl, p,
						pname[kd, p], pname[kc, p],
						med(pns[kd, p], "med") / med(pns[kc, p], "med")
		}
	}' "$W/records"
echo "# ns/event: sum over the programs of run_time_ns/run_cnt (kernel.bpf_stats_enabled),"
echo "#   over every event on the machine during the load, not only the generator's"
echo "# xlated: instructions after the verifier's rewrites, summed over the programs"
echo "# wall ns/call: the load generator's loop time / N; row 'none' runs without tracing"
