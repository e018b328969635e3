#!/usr/bin/env bash
# Compile time: dcc (D -> BPF object) next to bpftrace's compile-only modes
# (--emit-elf, a dry run that writes the ELF; --aot, the portable AOT file)
# for samples/hello.d and a generated 20-clause script.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tracefs
gen_twenty

machine
echo "# compile time, ms over $RUNS runs"
row "what" "median" "min"
row "dcc samples/hello.d" $(repeat_ms "$DCC" "$ROOT/samples/hello.d" -o "$WORK/hello.bpf.o")
row "dcc 20-clause script" $(repeat_ms "$DCC" "$WORK/twenty.d" -o "$WORK/twenty.bpf.o")
if [ -n "$BPFTRACE" ]; then
	HELLO_BT='BEGIN { printf("hello, world\n"); exit(); }'
	row "bpftrace --emit-elf hello" $(repeat_ms "$BPFTRACE" --emit-elf "$WORK/hello.elf" -e "$HELLO_BT")
	row "bpftrace --emit-elf 20-clause" $(repeat_ms "$BPFTRACE" --emit-elf "$WORK/twenty.elf" "$WORK/twenty.bt")
	row "bpftrace --aot hello" $(repeat_ms "$BPFTRACE" --aot "$WORK/hello.aot" -e "$HELLO_BT")
	row "bpftrace --aot 20-clause" $(repeat_ms "$BPFTRACE" --aot "$WORK/twenty.aot" "$WORK/twenty.bt")
else
	echo "# bpftrace not installed: no comparison"
fi
