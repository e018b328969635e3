#!/usr/bin/env bash
# Sizes: the dtrun loader (as built and stripped, and what it links), the
# objects dcc writes, next to bpftrace's binary, its --emit-elf objects and
# its AOT files with the bpftrace-aotrt runtime.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tracefs
gen_twenty
SYSCOUNT_D='syscall:::entry { @[execname] = count(); }'
printf '%s\n' "$SYSCOUNT_D" >"$WORK/syscount.d"

sz() { stat -c %s "$1"; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KiB", b / 1024 }'; }
libs() { ldd "$1" 2>/dev/null | awk '/=>/ { print $1 }' | sed 's/\.so.*//' | tr '\n' ' '; }

"$DCC" "$ROOT/samples/hello.d" -o "$WORK/hello.bpf.o"
"$DCC" "$WORK/twenty.d" -o "$WORK/twenty.bpf.o"
"$DCC" "$WORK/syscount.d" -o "$WORK/syscount.bpf.o"
strip -o "$WORK/dtrun.stripped" "$DTRUN"

machine
echo "# sizes in bytes"
row "what" "bytes" "" ""
row "dtrun (as built, RelWithDebInfo)" "$(sz "$DTRUN")" "$(kb "$(sz "$DTRUN")")" ""
row "dtrun (stripped)" "$(sz "$WORK/dtrun.stripped")" "$(kb "$(sz "$WORK/dtrun.stripped")")" "links: $(libs "$DTRUN")"
row "dcc (as built)" "$(sz "$DCC")" "$(kb "$(sz "$DCC")")" ""
row "hello.bpf.o (dcc)" "$(sz "$WORK/hello.bpf.o")" "" ""
row "syscount.bpf.o (dcc)" "$(sz "$WORK/syscount.bpf.o")" "" ""
row "twenty.bpf.o (dcc, 20 clauses)" "$(sz "$WORK/twenty.bpf.o")" "" ""
if [ -n "$BPFTRACE" ]; then
	"$BPFTRACE" --emit-elf "$WORK/hello.elf" -e 'BEGIN { printf("hello, world\n"); exit(); }' >/dev/null 2>&1
	"$BPFTRACE" --emit-elf "$WORK/twenty.elf" "$WORK/twenty.bt" >/dev/null 2>&1
	"$BPFTRACE" --emit-elf "$WORK/syscount.elf" -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }' >/dev/null 2>&1
	"$BPFTRACE" --aot "$WORK/hello.aot" -e 'BEGIN { printf("hello, world\n"); exit(); }' >/dev/null 2>&1
	"$BPFTRACE" --aot "$WORK/twenty.aot" "$WORK/twenty.bt" >/dev/null 2>&1
	row "bpftrace (binary)" "$(sz "$BPFTRACE")" "$(kb "$(sz "$BPFTRACE")")" "links: $(libs "$BPFTRACE" | cut -c1-120)"
	[ -n "$AOTRT" ] && row "bpftrace-aotrt (AOT runtime)" "$(sz "$AOTRT")" "$(kb "$(sz "$AOTRT")")" ""
	row "hello.elf (bpftrace --emit-elf)" "$(sz "$WORK/hello.elf")" "" ""
	row "syscount.elf (bpftrace, raw_syscalls)" "$(sz "$WORK/syscount.elf")" "" ""
	row "twenty.elf (bpftrace --emit-elf)" "$(sz "$WORK/twenty.elf")" "" ""
	row "hello AOT file (bpftrace --aot)" "$(sz "$WORK/hello.aot")" "" ""
	row "twenty AOT file (bpftrace --aot)" "$(sz "$WORK/twenty.aot")" "" ""
fi
