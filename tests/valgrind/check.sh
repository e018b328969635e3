#!/bin/sh
# valgrind.samples: dtrun runs every sample under valgrind's memcheck
# (children too) with no error and no leak: each sample is compiled, then
# run with a short command as $target, so that each ends by itself.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
work=$(mktemp -d /tmp/dcc-valgrind.XXXXXX)
trap 'rm -rf "$work"' EXIT
status=0
for d in "$src"/samples/*.d; do
	name=$(basename "$d" .d)
	"$build/bin/dcc" "$d" -o "$work/$name.bpf.o"
	if valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --trace-children=yes \
		--error-exitcode=99 --suppressions="$src/tests/valgrind/libbpf.supp" \
		"$build/bin/dtrun" -q -c "/bin/ls /" "$work/$name.bpf.o" \
		>"$work/$name.out" 2>"$work/$name.err"; then
		echo "ok   $name"
	else
		rc=$?
		echo "FAIL $name (status $rc)"
		grep -v '^--' "$work/$name.err" | head -40
		status=1
	fi
done
exit $status
