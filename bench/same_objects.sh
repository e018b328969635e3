#!/usr/bin/env bash
# same_objects.sh OLD_DCC NEW_DCC [VAR=value ...]: compile every D script of
# the tree (tests/, samples/) and of the conformance suite (CONFORMANCE, if
# that directory exists) with both compilers, each from the script's own
# directory, and compare the objects byte for byte and the diagnostics.
# The VAR=value pairs go to NEW_DCC's environment only (DCC_PASSES=...,
# DCC_LLVM_ARGS=...), to try a pipeline or an option on the same binary.
# Prints the counts and each script whose object or diagnostics differ;
# exits 1 if any does. No kernel: nothing is loaded. JOBS (2) compiles run
# at once.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_DCC NEW_DCC [VAR=value ...]" >&2; exit 2; }
OLD=$(realpath "$1")
NEW=$(realpath "$2")
shift 2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CONFORMANCE=${CONFORMANCE:-/work/shared/conformance/dtrace-utils}
JOBS=${JOBS:-2}
WORK=$(mktemp -d /tmp/dcc-same.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

{
	find "$ROOT/tests" "$ROOT/samples" -name '*.d'
	if [ -d "$CONFORMANCE" ]; then find "$CONFORMANCE" -name '*.d'; fi
} | sort | awk '{ print NR, $0 }' >"$WORK/list"

# one script: n path -> $WORK/{old,new}.n.{o,err}
export OLD NEW WORK
export NEW_ENV="$*"
# shellcheck disable=SC2016
xargs -P "$JOBS" -L1 -a "$WORK/list" bash -c '
	cd "$(dirname "$1")" || exit 0
	timeout 60 "$OLD" "$1" -o "$WORK/old.$0.o" >/dev/null 2>"$WORK/old.$0.err" || true
	env $NEW_ENV timeout 60 "$NEW" "$1" -o "$WORK/new.$0.o" >/dev/null 2>"$WORK/new.$0.err" || true'

objects=0 same=0 failing=0 differ=0
while read -r n path; do
	o="$WORK/old.$n.o" m="$WORK/new.$n.o"
	if [ -f "$o" ] || [ -f "$m" ]; then
		objects=$((objects + 1))
		if [ -f "$o" ] && [ -f "$m" ] && cmp -s "$o" "$m"; then
			same=$((same + 1))
			continue
		fi
	else
		failing=$((failing + 1))
		# the messages name the object file, which differs: compare the rest
		if diff -q <(sed "s/\(old\|new\)\.$n\.o/X.o/g" "$WORK/old.$n.err") \
			<(sed "s/\(old\|new\)\.$n\.o/X.o/g" "$WORK/new.$n.err") >/dev/null; then
			continue
		fi
	fi
	differ=$((differ + 1))
	echo "differs: $path"
done <"$WORK/list"
echo "scripts $(wc -l <"$WORK/list"): objects $objects (identical $same), no object $failing; differ $differ"
[ "$differ" -eq 0 ]
