#!/bin/sh
# USDT's cost per firing: the usdt_sdt trigger fires dcctest:tick N times
# (four arguments: two registers, a stack slot, a constant), untraced, traced
# by a clause that reads no argument, and by one that reads all four. Run as
# root, from the tree root, after a build; holds the kernel lock per run.
set -e
N=${N:-1000000}
B=${B:-build}
T=$B/tests/triggers/usdt_sdt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$B/bin/dcc -n 'dcctest$target:::tick { @ = count(); }' -o "$tmp/none.o"
$B/bin/dcc -n 'dcctest$target:::tick { @ = sum(arg0 + arg1 + arg2 + arg3); }' -o "$tmp/four.o"
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
base=$(ms $T "$N")
none=$(flock /tmp/dcc-kernel.lock sh -c "$(printf '%s' "ms() { s=\$(date +%s%N); \"\$@\" >/dev/null 2>&1; echo \$(( (\$(date +%s%N) - s) / 1000000 )); }; ms $B/bin/dtrun -q -c '$T $N' $tmp/none.o")")
four=$(flock /tmp/dcc-kernel.lock sh -c "$(printf '%s' "ms() { s=\$(date +%s%N); \"\$@\" >/dev/null 2>&1; echo \$(( (\$(date +%s%N) - s) / 1000000 )); }; ms $B/bin/dtrun -q -c '$T $N' $tmp/four.o")")
echo "untraced: $base ms for $N firings"
echo "traced, no argument read: $none ms ($(( (none - base) * 1000000 / N )) ns a firing, start-up included)"
echo "traced, four arguments: $four ms ($(( (four - none) * 1000000 / N )) ns more a firing)"
