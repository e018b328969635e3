#!/usr/bin/env bash
# bench/fuzz/speed.sh HARNESS RUNS BIN... : executions per CPU second of
# libFuzzer harness binaries, compared on the same work. Each BIN runs
# HARNESS's fixed inputs (INPUTS=dir, default the first 500 files of
# build-fuzz/fuzz/corpus-HARNESS, copied once to build-fuzz/speed/HARNESS)
# and then RUNS mutations with -seed=1, into a scratch corpus removed after
# each run. The binaries are interleaved ROUNDS times (default 3: the VM is
# shared and noisy); prints per binary the user+system CPU seconds and the
# executions per CPU second of each round, then the median and the best.
# CPU time, not wall time: the other helpers' load makes wall time say
# little. Counts libFuzzer's own work as well as the harness's.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
h=$1 runs=$2
shift 2
ROUNDS=${ROUNDS:-3}
SP=$ROOT/build-fuzz/speed
INPUTS=${INPUTS:-$SP/$h}
if [ ! -d "$INPUTS" ]; then
	mkdir -p "$INPUTS"
	find "$ROOT/build-fuzz/fuzz/corpus-$h" -type f | sort | head -500 |
		xargs -r cp -t "$INPUTS" || true # head ends find early
fi
n=$(find "$INPUTS" -type f | wc -l)
declare -A rates
for ((r = 1; r <= ROUNDS; r++)); do
	for b in "$@"; do
		scratch=$(mktemp -d "$SP/scratch.XXXXXX")
		/usr/bin/time -o "$scratch.time" -f '%U %S' env ASAN_OPTIONS=detect_leaks=0 "$b" \
			-seed=1 -runs=$((n + runs)) -rss_limit_mb=4096 "$scratch" "$INPUTS" \
			>/dev/null 2>"$scratch.log" || true
		execs=$(awk '/^Done [0-9]+ runs/ { print $2 }' "$scratch.log")
		cpu=$(awk 'NF == 2 { print $1 + $2 }' "$scratch.time" | tail -1)
		rm -rf "$scratch" "$scratch.log" "$scratch.time"
		rate=$(awk -v e="${execs:-0}" -v c="${cpu:-0}" 'BEGIN { printf "%.0f", (c > 0 ? e / c : 0) }')
		printf '%s round %d: %s execs in %s CPU s: %s exec/CPU-s\n' "$b" "$r" "${execs:-?}" \
			"${cpu:-?}" "$rate"
		rates[$b]="${rates[$b]:-} $rate"
	done
done
for b in "$@"; do
	# shellcheck disable=SC2086 # a list of numbers
	printf '%s: median %s, best %s exec/CPU-s\n' "$b" \
		"$(printf '%s\n' ${rates[$b]} | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" \
		"$(printf '%s\n' ${rates[$b]} | sort -n | tail -1)"
done
