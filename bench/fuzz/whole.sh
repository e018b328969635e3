#!/bin/bash
# bench/fuzz/whole.sh [SECONDS] [FIRST]: the whole-compiler fuzzer
# (tests/gen/check.sh) over consecutive seeds from FIRST (default: a random
# one) for about SECONDS (default 300), in chunks of 20 seeds, each chunk
# under /tmp/dcc-kernel.lock so that others can use the kernel between them.
# Prints the programs run a second and the failures; failing programs are
# kept in $KEEP (default /tmp/dcc-gen-whole). Exit status 1 if any failed.
# BUILD is the build tree (default build/).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
KEEP=${KEEP:-/tmp/dcc-gen-whole}
secs=${1:-300}
seed=${2:-$((RANDOM * 32768 + RANDOM))}
chunk=20
[ -x "$BUILD/bin/dgen" ] || { echo "whole.sh: build first (no $BUILD/bin/dgen)" >&2; exit 2; }
first=$seed start=$(date +%s) fails=0 n=0
while [ $(($(date +%s) - start)) -lt "$secs" ]; do
	last=$((seed + chunk - 1))
	out=$(flock /tmp/dcc-kernel.lock sh "$ROOT/tests/gen/check.sh" "$BUILD" "$seed" "$last" "$KEEP")
	grep '^FAIL' <<<"$out"
	fails=$((fails + $(grep -c '^FAIL' <<<"$out")))
	n=$((n + chunk))
	seed=$((last + 1))
done
t=$(($(date +%s) - start))
awk -v n="$n" -v t="$t" -v f="$fails" -v a="$first" -v b="$((seed - 1))" 'BEGIN {
	printf "whole: seeds %d..%d: %d programs in %d s (%.2f programs/s), %d failed\n",
		a, b, n, t, (t > 0 ? n / t : 0), f }'
[ "$fails" -eq 0 ]
