#!/usr/bin/env bash
# Load (issue 12): what dtrun does at the machine's peak and with an
# aggregation too large for its map.
#
# 1. printf on every read(2) of two generators, one per CPU, for SECONDS
#    (default 60): every record is printed or counted as a drop, exactly
#    (printed + dropped = the reads the generators made), dtrun's peak RSS
#    stays bounded, and nothing crashes.
# 2. @[timestamp] = count() over KEYS (default 10^6) distinct keys: with the
#    default aggsize the keys that do not fit are reported as aggregation
#    drops (exactly KEYS - printed rows); with an aggsize large enough every
#    key is printed, and the time from ^C to the last row is reported.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SECONDS_LOAD=${SECONDS_LOAD:-60}
KEYS=${KEYS:-1000000}

# a generator: 7-byte reads of /dev/zero until the time is up, then the
# count on stdout (7 bytes: the dynamic loader's own reads are larger)
cat >"$WORK/readgen.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char b[7];
	int fd = open("/dev/zero", O_RDONLY);
	time_t end = time(NULL) + atoi(argv[1]);
	unsigned long n = 0;
	while (time(NULL) < end)
		for (int i = 0; i < 1000; i++, n++)
			if (read(fd, b, sizeof(b)) != sizeof(b))
				return 1;
	printf("%lu\n", n);
	return 0;
}
EOF
cc -O2 -o "$WORK/readgen" "$WORK/readgen.c"

machine
echo "# 1. printf on every read of 2 generators (one per CPU), ${SECONDS_LOAD} s"
cat >"$WORK/reads.d" <<'EOF'
syscall::read:entry
/execname == "readgen" && arg2 == 7/
{
	printf("%d %d\n", pid, arg2);
}
EOF
"$DCC" "$WORK/reads.d" -o "$WORK/reads.bpf.o"
"$DTRUN" -q "$WORK/reads.bpf.o" 2>"$WORK/reads.err" | grep -c . >"$WORK/printed" &
sleep 1	# attached within ~10 ms; the generators start after
dpid=$(pgrep -n -f "dtrun -q $WORK/reads.bpf.o")
taskset -c 0 "$WORK/readgen" "$SECONDS_LOAD" >"$WORK/gen0" &
g0=$!
taskset -c 1 "$WORK/readgen" "$SECONDS_LOAD" >"$WORK/gen1" &
g1=$!
peak=0
while kill -0 "$g0" 2>/dev/null || kill -0 "$g1" 2>/dev/null; do
	hwm=$(awk '/VmHWM/ { print $2 }' "/proc/$dpid/status" 2>/dev/null || echo 0)
	[ "${hwm:-0}" -gt "$peak" ] && peak=$hwm
	sleep 1
done
wait "$g0" "$g1"
hwm=$(awk '/VmHWM/ { print $2 }' "/proc/$dpid/status" 2>/dev/null || echo 0)
[ "${hwm:-0}" -gt "$peak" ] && peak=$hwm
sleep 1
stop "$dpid"
wait
made=$(($(cat "$WORK/gen0") + $(cat "$WORK/gen1")))
printed=$(cat "$WORK/printed")
dropped=$(awk '/drops? on CPU/ { s += $2 } END { print s + 0 }' "$WORK/reads.err")
row "reads made" "$made" ""
row "records printed" "$printed" "$(awk -v p="$printed" -v s="$SECONDS_LOAD" 'BEGIN { printf "%.0f/s", p / s }')"
row "records dropped (reported)" "$dropped" ""
row "printed + dropped - made" "$((printed + dropped - made))" "(0: nothing lost silently)"
row "dtrun peak RSS, KiB" "$peak" ""
grep -v 'drops\? on CPU' "$WORK/reads.err" | sed 's/^/stderr: /' || true

echo "# 2. @[timestamp] = count() over $KEYS distinct keys (getppid_n $KEYS)"
cat >"$WORK/keys.d" <<'EOF'
syscall::getppid:entry
/execname == "getppid_n"/
{
	@[timestamp] = count();
}
EOF
# aggsize is fixed at compile time (the maps' sizes are in the object)
for size in default $((KEYS * 128)); do
	opt=()
	[ "$size" = default ] || opt=(-x "aggsize=$size")
	"$DCC" "${opt[@]}" "$WORK/keys.d" -o "$WORK/keys.bpf.o"
	/usr/bin/time -f %M -o "$WORK/keys.rss" \
		"$DTRUN" -q "$WORK/keys.bpf.o" >"$WORK/keys.out" 2>"$WORK/keys.err" &
	sleep 1
	pid=$(pgrep -n -f "dtrun -q.*$WORK/keys.bpf.o")
	"$TRIGGERS/getppid_n" "$KEYS" >/dev/null
	t0=$(now_us)
	stop "$pid"
	while pgrep -f "dtrun -q.*$WORK/keys.bpf.o" >/dev/null; do sleep 0.01; done
	t1=$(now_us)
	wait
	rows=$(grep -c '^ *[0-9]' "$WORK/keys.out" || true)
	adrops=$(awk '/aggregation drops? on CPU/ { s += $2 } END { print s + 0 }' "$WORK/keys.err")
	row "aggsize $size: rows printed" "$rows" ""
	row "aggsize $size: aggregation drops" "$adrops" "rows + drops - keys = $((rows + adrops - KEYS))"
	row "aggsize $size: ^C to exit (printing), ms" "$(((t1 - t0) / 1000))" ""
	row "aggsize $size: peak RSS, KiB" "$(tail -1 "$WORK/keys.rss")" ""
done
