#!/usr/bin/env bash
# bench/fuzz/run.sh [SECONDS]: build the libFuzzer harnesses of tests/fuzz with
# clang-19 (ASan + UBSan + coverage) in build-fuzz/ and run each for SECONDS
# (default 60), one job each, one after the other. Prints per harness the
# executions, the coverage (libFuzzer's cov: edges, ft: features), the corpus
# size and the crashes; exits 1 if any harness found a crash, a leak, a
# timeout or an out-of-memory (the input is saved in build-fuzz/fuzz/artifacts/).
#
# FAST=1, the throughput mode: the harnesses are built a second time with the
# fuzzer's instrumentation alone (no ASan, no UBSan: 2.5-4x the executions a
# CPU second) in build-fuzz-fast/ and those run; whatever they find, and every
# input they add to the corpus, is then run again under the ASan + UBSan
# build, which decides what is reported. A memory error that does not crash
# the fast build is only caught if its input also brought new coverage.
#
# Every run is added to build-fuzz/fuzz/ledger.tsv (time, harness, build,
# seconds, executions, result): "asan" runs had the sanitizers, "fast" runs
# had not, "replay" rows are the fast runs' inputs run again under them.
# `bench/fuzz/run.sh tally` sums the ledger.
#
# Seeds are made each run from the tree, nothing is stored: every .d under
# tests/ and samples/ for fuzz_front; for fuzz_consumer the objects dcc makes
# of the scripts that compile (tests/fuzz/seeds/ has scripts written for
# this: every action, print() of D's types, system()), their .dcc.meta sections alone, and those
# blobs followed by bytes for their aggregation maps (plain, as JSON, with
# records to the API's callback, with -x options: the prefixes of
# tests/fuzz/fuzz_consumer.c), and the blobs followed by ring-buffer
# records for their clauses (bench/fuzz/records.pl). The
# corpora (build-fuzz/fuzz/corpus-*) grow from run to run.
#
# Knobs: BUILD=dir (default build-fuzz/), FAST_BUILD=dir (default
# build-fuzz-fast/), CC (default clang-19), DCC=a dcc to
# make the objects with (default build/bin/dcc if built, else the fuzz tree's),
# TIMEOUT=s an input may take before it counts as a hang (default 5: this
# build runs 10-40x slower than dcc), HARNESSES="fuzz_front ...", FUZZ_ARGS=
# "-seed=1 ..." passed to every harness, FORK=N (libFuzzer's -fork=N with
# -ignore_crashes=1: N processes, going on after a crash, for long
# campaigns), NOBUILD=1 (run what is built: for runs side by side),
# DCC_FUZZ_BTF=file (default: the
# kernel's BTF), DCC_FUZZ_NOLIBS=1 (fuzz_front without the D library).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECS=${1:-60}
BUILD=${BUILD:-$ROOT/build-fuzz}
TIMEOUT=${TIMEOUT:-5}
HARNESSES=${HARNESSES:-"fuzz_front fuzz_consumer"}
WORK=$BUILD/fuzz
say() { printf 'fuzz: %s\n' "$*" >&2; }

FAST_BUILD=${FAST_BUILD:-$ROOT/build-fuzz-fast}
LEDGER=$WORK/ledger.tsv

if [ "${1:-}" = tally ]; then
	[ -f "$LEDGER" ] || { say "no ledger at $LEDGER"; exit 1; }
	awk -F'\t' '{ n[$2 " " $3] += $5; s[$2 " " $3] += $4; t[$3] += $5; all += $5 }
		END {
			for (k in n) printf "%-28s %12d executions %8d s\n", k, n[k], s[k]
			printf "with sanitizers (asan + replay): %d\n", t["asan"] + t["replay"]
			printf "without (fast): %d\ntotal: %d\n", t["fast"], all
		}' "$LEDGER" | sort
	exit 0
fi

configure() { # dir, extra cmake options
	[ -f "$1/CMakeCache.txt" ] && return
	say "configuring $1"
	CC=${CC:-clang-19} cmake -S "$ROOT" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DDCC_FUZZ=ON -DDCC_TESTS=OFF "${@:2}" >/dev/null
}
build() { [ "${NOBUILD:-}" ] || { say "building $1"; cmake --build "$1" -j "$(nproc)" "${@:2}" >/dev/null; }; }
configure "$BUILD"
build "$BUILD" --target fuzz_front fuzz_consumer dcc
RUN=$BUILD
if [ "${FAST:-}" ]; then
	# no dcc here: without a sanitizer's runtime nothing defines the
	# coverage callbacks the libraries call
	configure "$FAST_BUILD" -DDCC_FUZZ_SANITIZERS=OFF
	build "$FAST_BUILD" --target fuzz_front fuzz_consumer
	RUN=$FAST_BUILD
fi

# Seeds, fresh each run, for the harnesses run (two runs of different
# harnesses may go on side by side).
mkdir -p "$WORK/artifacts"
seed_front() {
	rm -rf "$WORK/seed-fuzz_front"
	mkdir -p "$WORK/seed-fuzz_front"
	find "$ROOT/tests" "$ROOT/samples" -name '*.d' | while read -r f; do
		cp "$f" "$WORK/seed-fuzz_front/$(echo "${f#"$ROOT"/}" | tr / _)"
	done
	say "seeds: $(ls "$WORK/seed-fuzz_front" | wc -l) scripts"
}
seed_consumer() {
	local dcc=${DCC:-$ROOT/build/bin/dcc} objcopy o
	[ -x "$dcc" ] || dcc=$BUILD/bin/dcc
	objcopy=$(command -v llvm-objcopy-19 || command -v llvm-objcopy)
	# -x options (and -q) for the .opt seeds, one set an object in turn
	local opts=(tracefmt=classic rawbytes,-q quiet aggsortkey,aggsortrev aggpack agghist,-q
		aggzoom flowindent strsize=8 stackindent=2,tracefmt=classic encoding=ascii
		noresolve aggpercpu aggsortpos=1,aggsortkeypos=1 bufpolicy=ring nosuchoption
		printsize=12x oformat=json,quiet rawbytes,tracefmt=classic,-q encoding=ebcdic
		aggsortpos=-1 oformat=xml tracefmt=odd strsize=1024,rawbytes stackindent=x
		aggsortkeypos=x) i=0
	rm -rf "$WORK/seed-fuzz_consumer"
	mkdir -p "$WORK/seed-fuzz_consumer"
	for f in "$ROOT"/samples/*.d "$ROOT"/tests/e2e/tst.*.d "$ROOT"/tests/compile/meta/*.d \
		"$ROOT"/tests/vm/cases/*.d "$ROOT"/tests/fuzz/seeds/*.d; do
		o=$WORK/seed-fuzz_consumer/$(basename "$(dirname "$f")")_$(basename "$f" .d).o
		ASAN_OPTIONS=detect_leaks=0 "$dcc" "$f" -o "$o" 2>/dev/null || { rm -f "$o"; continue; }
		"$objcopy" -O binary --only-section=.dcc.meta "$o" "${o%.o}.meta"
		# the blob again with 512 bytes for its aggregations' maps, and as JSON
		{ cat "${o%.o}.meta"; perl -e 'print pack("V2", 0xffffffff, 512), map { chr($_ % 251) } 0..511'; } \
			>"${o%.o}.aggs"
		{ printf J; cat "${o%.o}.aggs"; } >"${o%.o}.json"
		# records to the API's callback, aggregations truncated and cleared
		{ printf R; cat "${o%.o}.aggs"; } >"${o%.o}.fn"
		{ perl -e 'print map { $_ eq "-q" ? "Q" : "X" . chr(length) . $_ } split /,/, $ARGV[0]' \
			"${opts[i++ % ${#opts[@]}]}"; cat "${o%.o}.aggs"; } >"${o%.o}.opt"
		# the blob and ring-buffer records for it: for each clause one of
		# zeros, one of a byte pattern and a run-time fault
		perl "$ROOT/bench/fuzz/records.pl" <"${o%.o}.meta" >"${o%.o}.rec"
	done
	say "seeds: $(ls "$WORK/seed-fuzz_consumer" | wc -l) objects and metadata blobs"
}
for h in $HARNESSES; do
	case $h in
	fuzz_front) seed_front ;;
	fuzz_consumer) seed_consumer ;;
	esac
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
mode=asan
[ "${FAST:-}" ] && mode=fast
ledger() { # harness build seconds execs result
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$@" >>"$LEDGER"
}

# What a fast run found or added, run again under the sanitizers: the
# artifacts one by one (each result reported), the new corpus inputs in
# one process. Prints "EXECS RESULT".
replay() { # harness stamp-file
	local h=$1 stamp=$2 n=0 bad="" log=$WORK/$h.replay.log
	local -a new=()
	mapfile -t new < <(find "$WORK/corpus-$h" -type f -newer "$stamp")
	: >"$log"
	for a in $(find "$WORK/artifacts" -name "$h-*" -newer "$stamp" -type f); do
		n=$((n + 1))
		if ! "$BUILD/bin/$h" -timeout="$TIMEOUT" -rss_limit_mb=2048 "$a" >>"$log" 2>&1; then
			bad="$bad $(basename "$a")"
		fi
	done
	if [ ${#new[@]} -gt 0 ]; then
		# one process for all (-runs=0: each input once); a failure stops
		# it and writes the input as an artifact (counted as no executions)
		local dir=$WORK/replay-$h
		rm -rf "$dir"
		mkdir -p "$dir"
		cp -l "${new[@]}" "$dir/"
		if "$BUILD/bin/$h" -timeout="$TIMEOUT" -rss_limit_mb=2048 -runs=0 \
			-artifact_prefix="$WORK/artifacts/$h-replay-" "$dir" >>"$log" 2>&1; then
			n=$((n + ${#new[@]}))
		else
			bad="$bad corpus"
		fi
		rm -rf "$dir"
	fi
	echo "$n ${bad:-ok}"
}

failed=0
printf '%-14s %-5s %10s %8s %7s %7s %7s %s\n' harness build execs exec/s cov ft corpus result
for h in $HARNESSES; do
	mkdir -p "$WORK/corpus-$h"
	log=$WORK/$h.log
	stamp=$WORK/$h.stamp
	touch "$stamp"
	sleep 1 # a file made in this second is -newer than the stamp
	rc=0
	fork=()
	[ "${FORK:-}" ] && fork=(-fork="$FORK" -ignore_crashes=1)
	# shellcheck disable=SC2086 # FUZZ_ARGS is a list
	"$RUN/bin/$h" -max_total_time="$SECS" -timeout="$TIMEOUT" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$WORK/artifacts/$h-" "${fork[@]}" \
		${FUZZ_ARGS:-} "$WORK/corpus-$h" "$WORK/seed-$h" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+.* cov: ' "$log" | tail -1)
	# -fork: no final stats; the parent's last line counts the children's
	[ "$execs" ] || execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
	[ "$speed" ] || speed=$(echo "$last" | sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	crashes=$(echo "$last" | sed -n 's/.* oom\/timeout\/crash: \([0-9/]*\).*/\1/p')
	result=ok
	if [ "$rc" -ne 0 ] || { [ "$crashes" ] && [ "$crashes" != 0/0/0 ]; }; then
		result="FOUND: $(grep -m1 -oE 'ERROR: [A-Za-z]+: [^ ]+( [^ ]+)?|runtime error: .*|Test unit written to .*|oom/timeout/crash: [0-9/]+' "$log" | tail -1 || echo "exit $rc")"
		failed=1
	fi
	printf '%-14s %-5s %10s %8s %7s %7s %7s %s\n' "$h" "$mode" "${execs:-?}" "${speed:-?}" \
		"${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
	ledger "$h" "$mode" "$SECS" "${execs:-0}" "$result"
	if [ "$result" != ok ]; then
		grep -m1 'Test unit written to' "$log" >&2 || true
		sed -n '/==ERROR\|runtime error\|ALARM\|out-of-memory/,/^SUMMARY/p' "$log" | head -40 >&2
	fi
	if [ "$mode" = fast ]; then
		read -r n res < <(replay "$h" "$stamp")
		printf '%-14s %-5s %10s %8s %7s %7s %7s %s\n' "$h" replay "$n" - - - - "$res"
		ledger "$h" replay 0 "$n" "$res"
		if [ "$res" != ok ]; then
			failed=1
			sed -n '/==ERROR\|runtime error\|ALARM\|out-of-memory/,/^SUMMARY/p' \
				"$WORK/$h.replay.log" | head -40 >&2
		fi
	fi
done
exit "$failed"
