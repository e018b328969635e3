#!/usr/bin/env bash
# What a Prometheus scrape of dtrun --metrics costs as an aggregation grows:
# @k[n++] = count() gets KEYS keys from getppid_n (plus @h, 100 quantize
# keys), then curl times RUNS scrapes of /metrics (the walk of every
# aggregation, its sort in printa()'s order, the text). The runtime's lock
# is held for each aggregation's walk, so this is also how long a scrape
# can hold up the handling of records.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT=${PORT:-19391}

cat >"$WORK/k.d" <<'D'
syscall::getppid:entry /execname == "getppid_n"/ { @k[n++] = count(); @h[n % 100] = quantize(n); }
D
"$DCC" "$WORK/k.d" -o "$WORK/k.bpf.o"
machine
printf '| keys of @k | series | bytes | scrape min / median (ms) |\n| --- | --- | --- | --- |\n'
for keys in 1000 10000 50000; do
	"$DTRUN" --metrics "127.0.0.1:$PORT" "$WORK/k.bpf.o" >/dev/null 2>"$WORK/err" &
	pid=$!
	wait_for "$WORK/err" matched 60 || { echo "bench: dtrun never got ready" >&2; stop "$pid"; exit 1; }
	"$TRIGGERS/getppid_n" "$keys" >/dev/null
	for ((i = 0; i < RUNS; i++)); do
		curl -s -o "$WORK/scrape" -w '%{time_total}\n' "http://127.0.0.1:$PORT/metrics"
	done | sort -n >"$WORK/times"
	awk -v keys="$keys" -v series="$(grep -vc '^#' "$WORK/scrape")" \
		-v bytes="$(stat -c %s "$WORK/scrape")" \
		'{ t[NR] = $1 * 1000 } END { printf "| %d | %s | %s | %.1f / %.1f |\n", keys,
			series, bytes, t[1], t[int((NR + 1) / 2)] }' "$WORK/times"
	stop "$pid"
done
