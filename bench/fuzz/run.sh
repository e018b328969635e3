#!/usr/bin/env bash
# bench/fuzz/run.sh [SECONDS]: build the libFuzzer harnesses of tests/fuzz with
# clang-19 (ASan + UBSan + coverage) in build-fuzz/ and run each for SECONDS
# (default 60), one job each, one after the other. Prints per harness the
# executions, the coverage (libFuzzer's cov: edges, ft: features), the corpus
# size and the crashes; exits 1 if any harness found a crash, a leak, a
# timeout or an out-of-memory (the input is saved in build-fuzz/fuzz/artifacts/).
#
# Seeds are made each run from the tree, nothing is stored: every .d under
# tests/ and samples/ for fuzz_front; for fuzz_consumer the objects dcc makes
# of the scripts that compile (tests/fuzz/seeds/ has scripts written for
# this: every action, print() of D's types, system()), their .dcc.meta sections alone, and those
# blobs followed by bytes for their aggregation maps (plain and as JSON). The
# corpora (build-fuzz/fuzz/corpus-*) grow from run to run.
#
# Knobs: BUILD=dir (default build-fuzz/), CC (default clang-19), DCC=a dcc to
# make the objects with (default build/bin/dcc if built, else the fuzz tree's),
# TIMEOUT=s an input may take before it counts as a hang (default 5: this
# build runs 10-40x slower than dcc), HARNESSES="fuzz_front ...", FUZZ_ARGS=
# "-seed=1 ..." passed to every harness, DCC_FUZZ_BTF=file (default: the
# kernel's BTF), DCC_FUZZ_NOLIBS=1 (fuzz_front without the D library).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECS=${1:-60}
BUILD=${BUILD:-$ROOT/build-fuzz}
TIMEOUT=${TIMEOUT:-5}
HARNESSES=${HARNESSES:-"fuzz_front fuzz_consumer"}
WORK=$BUILD/fuzz
say() { printf 'fuzz: %s\n' "$*" >&2; }

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	say "configuring $BUILD"
	CC=${CC:-clang-19} cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DDCC_FUZZ=ON -DDCC_TESTS=OFF >/dev/null
fi
say "building $BUILD"
cmake --build "$BUILD" -j "$(nproc)" --target fuzz_front fuzz_consumer dcc >/dev/null

# Seeds, fresh each run.
rm -rf "$WORK/seed-fuzz_front" "$WORK/seed-fuzz_consumer"
mkdir -p "$WORK/seed-fuzz_front" "$WORK/seed-fuzz_consumer" "$WORK/artifacts"
find "$ROOT/tests" "$ROOT/samples" -name '*.d' | while read -r f; do
	cp "$f" "$WORK/seed-fuzz_front/$(echo "${f#"$ROOT"/}" | tr / _)"
done
DCC=${DCC:-$ROOT/build/bin/dcc}
[ -x "$DCC" ] || DCC=$BUILD/bin/dcc
OBJCOPY=$(command -v llvm-objcopy-19 || command -v llvm-objcopy)
for f in "$ROOT"/samples/*.d "$ROOT"/tests/e2e/tst.*.d "$ROOT"/tests/compile/meta/*.d \
	"$ROOT"/tests/vm/cases/*.d "$ROOT"/tests/fuzz/seeds/*.d; do
	o=$WORK/seed-fuzz_consumer/$(basename "$(dirname "$f")")_$(basename "$f" .d).o
	ASAN_OPTIONS=detect_leaks=0 "$DCC" "$f" -o "$o" 2>/dev/null || { rm -f "$o"; continue; }
	"$OBJCOPY" -O binary --only-section=.dcc.meta "$o" "${o%.o}.meta"
	# the blob again with 512 bytes for its aggregations' maps, and as JSON
	{ cat "${o%.o}.meta"; perl -e 'print pack("V2", 0xffffffff, 512), map { chr($_ % 251) } 0..511'; } \
		>"${o%.o}.aggs"
	{ printf J; cat "${o%.o}.aggs"; } >"${o%.o}.json"
done
say "seeds: $(ls "$WORK/seed-fuzz_front" | wc -l) scripts," \
	"$(ls "$WORK/seed-fuzz_consumer" | wc -l) objects and metadata blobs"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=0
printf '%-14s %10s %8s %7s %7s %7s %s\n' harness execs exec/s cov ft corpus result
for h in $HARNESSES; do
	mkdir -p "$WORK/corpus-$h"
	log=$WORK/$h.log
	rc=0
	# shellcheck disable=SC2086 # FUZZ_ARGS is a list
	"$BUILD/bin/$h" -max_total_time="$SECS" -timeout="$TIMEOUT" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$WORK/artifacts/$h-" ${FUZZ_ARGS:-} \
		"$WORK/corpus-$h" "$WORK/seed-$h" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+.* cov: ' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	result=ok
	if [ "$rc" -ne 0 ]; then
		result="FOUND: $(grep -m1 -oE 'ERROR: [A-Za-z]+: [^ ]+( [^ ]+)?|runtime error: .*|Test unit written to .*' "$log" || echo "exit $rc")"
		failed=1
	fi
	printf '%-14s %10s %8s %7s %7s %7s %s\n' "$h" "${execs:-?}" "${speed:-?}" "${cov:-?}" \
		"${ft:-?}" "${corp:-?}" "$result"
	if [ "$rc" -ne 0 ]; then
		grep -m1 'Test unit written to' "$log" >&2 || true
		sed -n '/==ERROR\|runtime error\|ALARM\|out-of-memory/,/^SUMMARY/p' "$log" | head -40 >&2
	fi
done
exit "$failed"
