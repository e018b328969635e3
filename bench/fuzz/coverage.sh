#!/usr/bin/env bash
# bench/fuzz/coverage.sh: source coverage of what the fuzzers' corpora reach.
# Builds the harnesses with clang's source-based coverage (no sanitizers) in
# build-fuzz-cov/, runs each harness once over its corpus (the one
# bench/fuzz/run.sh grew in build-fuzz/fuzz/corpus-NAME, plus its seeds) and
# prints llvm-cov's line, function and region coverage of the code each
# harness is meant to reach: the front end (dcc/front, dcc/sema) for
# fuzz_front; the metadata reader and the runtime (runtime/) for fuzz_consumer.
#
# Knobs: BUILD=dir (default build-fuzz-cov/), CORPUS=dir holding corpus-NAME
# and seed-NAME folders (default build-fuzz/fuzz/), HARNESSES="fuzz_front ...",
# DETAIL=1 for the per-file table.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-fuzz-cov}
CORPUS=${CORPUS:-$ROOT/build-fuzz/fuzz}
HARNESSES=${HARNESSES:-"fuzz_front fuzz_consumer"}
PROFDATA=$(command -v llvm-profdata-19 || command -v llvm-profdata)
COV=$(command -v llvm-cov-19 || command -v llvm-cov)
say() { printf 'coverage: %s\n' "$*" >&2; }

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	say "configuring $BUILD"
	CC=${CC:-clang-19} cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DDCC_FUZZ=ON -DDCC_FUZZ_COVERAGE=ON -DDCC_TESTS=OFF >/dev/null
fi
say "building $BUILD"
cmake --build "$BUILD" -j "$(nproc)" --target fuzz_front fuzz_consumer >/dev/null

# the folders whose code each harness is for
reach() {
	case $1 in
	fuzz_front) echo "$ROOT/dcc/front $ROOT/dcc/sema" ;;
	fuzz_consumer) echo "$ROOT/runtime" ;;
	esac
}

printf '%-14s %7s %-22s %9s %9s %9s\n' harness inputs code lines functions regions
for h in $HARNESSES; do
	dirs=()
	for d in "$CORPUS/corpus-$h" "$CORPUS/seed-$h"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	[ ${#dirs[@]} -gt 0 ] || { say "$h: no corpus in $CORPUS (run bench/fuzz/run.sh first)"; continue; }
	n=$(find "${dirs[@]}" -type f | wc -l)
	rm -f "$BUILD/$h".*.profraw
	LLVM_PROFILE_FILE="$BUILD/$h.%p.profraw" "$BUILD/bin/$h" -runs=0 "${dirs[@]}" \
		>"$BUILD/$h.log" 2>&1 || { say "$h: failed, see $BUILD/$h.log"; continue; }
	"$PROFDATA" merge -sparse "$BUILD/$h".*.profraw -o "$BUILD/$h.profdata"
	# shellcheck disable=SC2046 # the folders are a list
	"$COV" report "$BUILD/bin/$h" -instr-profile="$BUILD/$h.profdata" $(reach "$h") \
		>"$BUILD/$h.report"
	[ "${DETAIL:-}" ] && cat "$BUILD/$h.report"
	# TOTAL: regions missed cover functions missed exec lines missed cover ...
	read -r _ reg _ regc fn _ fnc ln _ lnc _ < <(grep '^TOTAL' "$BUILD/$h.report")
	printf '%-14s %7s %-22s %9s %9s %9s\n' "$h" "$n" "$(reach "$h" | sed "s|$ROOT/||g")" \
		"$lnc of $ln" "$fnc of $fn" "$regc of $reg"
done
