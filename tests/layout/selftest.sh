#!/bin/sh
# tests/layout/selftest.sh: check.sh on a small scratch tree, once clean and once
# per rule with one file breaking it: each rule must fail naming that file and
# line, and pass again as a pending rule. Proves the rules can fail.
check=$(cd "$(dirname "$0")" && pwd)/check.sh
tree=$(mktemp -d) || exit 2
trap 'rm -rf "$tree"' EXIT
status=0

mkdir -p "$tree/dcc/base" "$tree/dcc/front" "$tree/dcc/sema" "$tree/dcc/cg" \
	"$tree/dcc/verify" "$tree/runtime" "$tree/loader" "$tree/headers/dcc"
printf '/* the ABI */\n' >"$tree/headers/dcc/abi.h"
printf '/* arena */\n' >"$tree/dcc/base/arena.h"
printf '#include <llvm-c/Core.h>\n#include <linux/bpf.h>\n' >"$tree/dcc/cg/cg.c"
printf '#include <bpf/btf.h>\n' >"$tree/dcc/sema/btf.c"
printf '#include <bpf/libbpf.h>\n#include <dcc/abi.h>\n#include "rt.h"\n' >"$tree/runtime/rt.c"
printf '/* runtime */\n' >"$tree/runtime/rt.h"
printf 'add_library(dccrt STATIC rt.c)\n' >"$tree/runtime/CMakeLists.txt"
printf 'add_library(dccload STATIC l.c)\ntarget_link_libraries(dccload dccrt)\n' \
	>"$tree/loader/CMakeLists.txt"
# a function of exactly 120 lines, '{' to '}'
{
	printf 'static int f(void)\n{\n'
	i=0
	while [ $i -lt 118 ]; do echo '	;'; i=$((i + 1)); done
	printf '}\n'
} >"$tree/dcc/front/long.c"

run() {
	out=$(RULES_PENDING=$1 BUILTIN_REGISTRY=dcc/sema/builtin.c "$check" "$tree" 2>&1)
	rc=$?
}

run ""
if [ $rc -ne 0 ]; then
	echo "FAIL: the clean scratch tree breaks a rule:"
	echo "$out"
	status=1
fi

# expect RULE FILE LINE CONTENT: writing CONTENT to FILE breaks RULE at LINE
expect() {
	rule=$1 file=$2 line=$3
	mkdir -p "$tree/$(dirname "$file")"
	[ -f "$tree/$file" ] && cp "$tree/$file" "$tree/$file.orig"
	printf '%s\n' "$4" >>"$tree/$file"
	run ""
	if [ $rc -ne 1 ] || ! echo "$out" | grep -q "^$file:$line: $rule:"; then
		echo "FAIL: $file does not break $rule at line $line (status $rc):"
		echo "$out"
		status=1
	else
		echo "ok: $(echo "$out" | grep "^$file:$line: $rule:")"
	fi
	# the rule as RULES_PENDING names it, when it can be deferred
	pend=
	case "$rule" in file-length | func-length)
		case "$file" in dcc/sema/* | dcc/cg/*) pend=length-sema-cg ;; esac ;;
	esac
	case "$rule" in helper-numbers | builtin-names) pend=$rule ;; esac
	if [ -n "$pend" ]; then
		run "$pend"
		if [ $rc -ne 0 ]; then
			echo "FAIL: $rule in $file fails although $pend is pending:"
			echo "$out"
			status=1
		fi
	fi
	if [ -f "$tree/$file.orig" ]; then
		mv "$tree/$file.orig" "$tree/$file"
	else
		rm -f "$tree/$file"
	fi
}

lines() {
	i=0
	while [ $i -lt "$1" ]; do echo '/* filler */'; i=$((i + 1)); done
}

expect llvm-include dcc/sema/x.c 1 '#include <llvm-c/Core.h>'
expect llvm-include runtime/x.h 1 '#  include "llvm-c/Target.h"'
expect libbpf-include dcc/front/x.c 1 '#include <bpf/btf.h>'
expect libbpf-include dcc/base/arena.h 2 '#include <bpf/libbpf.h>'
expect libbpf-include dcc/cg/cg.c 3 '#include <bpf/bpf.h>'
expect libbpf-include dcc/sema/types.c 1 '#include <bpf/btf.h>'
expect file-length dcc/verify/big.c 901 "$(lines 901)"
expect file-length dcc/sema/big.c 901 "$(lines 901)"
expect func-length dcc/front/x.c 2 "$(printf 'static int f(void)\n{\n%s\n}' "$(lines 119)")"
expect func-length loader/x.c 3 "$(printf 'int\nf(int x)\n{\n%s\n}' "$(lines 119)")"
expect func-length dcc/cg/x.c 5 "$(printf 'static void g(void)\n{\n}\nint f(int x)\n{\n%s\n}' \
	"$(lines 119)")"
expect helper-numbers dcc/cg/y.c 1 '	v = cg_helper(cg, 14, cg->i64, NULL, 0, NULL);'
expect helper-numbers dcc/cg/y.c 2 "$(printf 'enum {\n\tH_LOOKUP = 1, H_UPDATE = 2,\n};')"
expect builtin-names dcc/sema/y.c 1 '	if (!strcmp(n->name, "printf"))'
expect builtin-names dcc/cg/cg.c 3 '	else if (strncmp(name, "copyinstr", 9) == 0)'
expect runtime-no-dcc runtime/y.c 1 '#include "arena.h"'
expect runtime-no-dcc loader/y.c 1 '#include "../dcc/base/arena.h"'
expect runtime-no-dcc runtime/CMakeLists.txt 2 'target_link_libraries(dccrt dcc_sema)'
expect runtime-no-dcc loader/CMakeLists.txt 3 'include_directories(${PROJECT_SOURCE_DIR}/dcc/base)'

# The registry itself may compare names.
printf 'if (!strcmp(n->name, "printf"))\n' >"$tree/dcc/sema/builtin.c"
run ""
if [ $rc -ne 0 ]; then
	echo "FAIL: the registry (dcc/sema/builtin.c) may compare builtin names:"
	echo "$out"
	status=1
fi
rm -f "$tree/dcc/sema/builtin.c"

[ $status -eq 0 ] && echo "selftest: every rule fails on its scratch file and holds otherwise"
exit $status
