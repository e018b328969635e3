#!/usr/bin/env bash
# What a keyed aggregation costs per event when every event makes a new key
# (the map inserts) against when the key exists (update in place), and what
# a thread-local set and freed each event costs: ns per program run from
# kernel.bpf_stats_enabled while getppid_n makes LOAD calls. The aggregation
# maps are allocated on first use (BPF_F_NO_PREALLOC, see ARCHITECTURE.md):
# the first row is where that costs, the second where it must not.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOAD=${LOAD:-40000}	# below the default aggsize's 52,428 8-byte keys: no drops

cc -O2 -Wall -Wextra "$BENCH_DIR/percall/pcstat.c" -lbpf -o "$WORK/pcstat"
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -qw kernel.bpf_stats_enabled="$old_stats"; cleanup' EXIT
sysctl -qw kernel.bpf_stats_enabled=1

P='syscall::getppid:entry /execname == "getppid_n"/'
declare -A SRC=(
	[newkey]="$P { @[timestamp] = count(); }"
	[samekey]="$P { @[execname] = count(); }"
	[selfvar]="$P { self->t = timestamp; } ${P%/} && self->t/ { self->t = 0; }"
)

# one_run NAME: ns per run summed over the object's programs, one number
# (none when no run was counted: kernel.bpf_stats_enabled turned off meanwhile)
one_run()
{
	local pid
	"$DTRUN" "$WORK/$1.bpf.o" >"$WORK/out" 2>&1 &
	pid=$!
	wait_for "$WORK/out" matched 60 || { echo "bench: $1 never got ready" >&2; stop "$pid"; return 1; }
	"$WORK/pcstat" "$pid" >"$WORK/before"
	"$TRIGGERS/getppid_n" "$LOAD" >/dev/null
	"$WORK/pcstat" "$pid" >"$WORK/after"
	stop "$pid"
	awk -F'\t' 'NR == FNR { c[$1] = $6; t[$1] = $7; next }
		($1 in c) && $6 > c[$1] { ns += ($7 - t[$1]) / ($6 - c[$1]) }
		END { if (ns > 0) printf "%.1f\n", ns }' "$WORK/before" "$WORK/after"
}

machine
echo "# ns per program run while getppid_n makes $LOAD calls, $RUNS runs"
row "what" "median" "min"
for w in newkey samekey selfvar; do
	printf '%s\n' "${SRC[$w]}" >"$WORK/$w.d"
	"$DCC" "$WORK/$w.d" -o "$WORK/$w.bpf.o"
	for ((i = 0; i < RUNS; i++)); do one_run "$w"; done >"$WORK/ns"
	row "$w: ${SRC[$w]#"$P "}" $(stats <"$WORK/ns")
done
