#!/usr/bin/env bash
# Instructions for the same work: dcc's program for W1..W5 (the
# workloads.sh names) next to the hand-written C of percall/ as it is and
# rebuilt with -DDTRACE_WORK, which adds the bookkeeping DTrace's output
# needs and dcc's program does (see each .bpf.c's header): the per-CPU drop
# counts, negative syscall numbers, zeroed comm, W3's record header
# (probe, clause, CPU) and fault record. Translated (after the verifier's
# rewrites) and verified instructions summed over each tracer's programs,
# loaded on this kernel; no timings. Holds the kernel lock (LOCK) while
# loading, a few seconds.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOCK=${LOCK:-/tmp/dcc-kernel.lock}
CLANG=${CLANG:-clang-19}
PC=$BENCH_DIR/percall
ensure_tracefs
TRACER=
trap '[ -z "$TRACER" ] || kill -KILL "$TRACER" 2>/dev/null; cleanup' EXIT

cc -O2 -Wall -Wextra "$PC/pcrun.c" -lbpf -o "$WORK/pcrun"
cc -O2 -Wall -Wextra "$PC/pcring.c" -lbpf -o "$WORK/pcring"
workload_scripts
C=([1]=w1_count [2]=w2_quantize [3]=w4_printf [4]=w3_profile [5]=w5_never)
for w in 1 2 3 4 5; do
	printf '%s\n' "${D[w]}" >"$WORK/w$w.d"
	"$DCC" "$WORK/w$w.d" -o "$WORK/w$w.dcc.o"
	for v in c dtwork; do
		"$CLANG" -target bpf -O2 -g -I/usr/include/$(uname -m)-linux-gnu \
			$([ $v = dtwork ] && echo -DDTRACE_WORK) \
			-c "$PC/${C[w]}.bpf.c" -o "$WORK/w$w.$v.o"
	done
done

# insns CMD...: start the tracer, wait until it says it attached, print the
# sums of xlated and verified instructions of the programs it holds.
insns()
{
	"$@" >"$WORK/out" 2>"$WORK/err" &
	TRACER=$!
	if ! wait_for "$WORK/err" "ready\|matched" 30; then
		echo "bench: never attached: $*: $(head -c 300 "$WORK/err")" >&2
		stop "$TRACER"
		TRACER=
		echo "- -"
		return
	fi
	{ echo 0; sed -n 's/^prog_id:[ \t]*//p' /proc/"$TRACER"/fdinfo/* 2>/dev/null; } >"$WORK/mine"
	progstat | awk -F'\t' 'NR == FNR { mine[$1] = 1; next }
		$1 in mine { x += $6; v += $7 } END { print x + 0, v + 0 }' "$WORK/mine" -
	stop "$TRACER"
	TRACER=
}

exec 9>"$LOCK"
flock 9
machine
echo "# translated / verified instructions, summed over the programs"
row "workload" "dcc" "C" "C, DTrace's work"
for w in 1 2 3 4 5; do
	loader=$WORK/pcrun
	[ $w = 3 ] && loader=$WORK/pcring
	insns "$DTRUN" "$WORK/w$w.dcc.o" >"$WORK/n.dcc"
	insns "$loader" "$WORK/w$w.c.o" >"$WORK/n.c"
	insns "$loader" "$WORK/w$w.dtwork.o" >"$WORK/n.dtwork"
	read -r dx dv <"$WORK/n.dcc"
	read -r cx cv <"$WORK/n.c"
	read -r tx tv <"$WORK/n.dtwork"
	row "W$w" "$dx / $dv" "$cx / $cv" "$tx / $tv"
done
