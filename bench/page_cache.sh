#!/usr/bin/env bash
# dcc's start by the state of its own file in the page cache: a copy of
# bin/dcc compiling samples/hello.d (median and minimum ms, page faults)
#   written   the cache as writing the file left it (a link or a cp): small folios
#   primed    after cmake/page_cache_prime.c (run after each link and install):
#             2 MiB folios, each mapped by one page-table entry
#   reread    dropped, then read again by one dcc run, which advises its own
#             text (dcc/driver/start_memory.c): what a start finds after the
#             cache was evicted; /sys/block/*/queue/read_ahead_kb decides how
#             much of the start-up's first reads come before that advice
# The three are timed interleaved. Needs the dcc built with the link script
# (its segments 2 MiB-aligned: readelf -l shows Align 0x200000).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PRIME=$BUILD/cmake/dcc_page_cache_prime
[ -x "$PRIME" ] || { echo "bench: no $PRIME (a sanitizer build, or a linker without the script)" >&2; exit 1; }

for v in written primed reread; do
	cp "$DCC" "$WORK/dcc.$v"
done
"$PRIME" "$WORK/dcc.primed"
sync "$WORK/dcc.reread"
dd if="$WORK/dcc.reread" iflag=nocache count=0 status=none
"$WORK/dcc.reread" "$ROOT/samples/hello.d" -o "$WORK/h.o"

faults()
{
	if command -v perf >/dev/null 2>&1; then
		perf stat -x, -e page-faults -r 5 "$@" 2>&1 >/dev/null | awk -F, '/page-faults/ { print $1 }'
	else
		echo -
	fi
}

machine
echo "# dcc samples/hello.d by the page cache of dcc's file, ms over $RUNS runs (interleaved)"
row "cache" "median" "min" "faults"
declare -A T
for ((i = 0; i < RUNS; i++)); do
	for v in written primed reread; do
		T[$v]+="$(time_ms "$WORK/dcc.$v" "$ROOT/samples/hello.d" -o "$WORK/h.o") "
	done
done
for v in written primed reread; do
	row "$v" $(echo "${T[$v]}" | tr ' ' '\n' | grep . | stats) \
		"$(faults "$WORK/dcc.$v" "$ROOT/samples/hello.d" -o "$WORK/h.o")"
done
