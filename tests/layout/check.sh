#!/bin/sh
# tests/layout/check.sh [SRC]: the source tree at SRC (default: the checkout this
# script lives in) against the layering rules of ARCHITECTURE.md and STYLE.md, one
# line "FILE:LINE: RULE: what is wrong" per breach; exit status 1 if any.
# Needs no build, no kernel and no root: only sh, find, grep and awk.
#
#   llvm-include     <llvm-c/...> is included only in dcc/cg
#   libbpf-include   no libbpf header (<bpf/...>) in dcc/front, dcc/base, dcc/cg,
#                    nor in dcc/sema but for its BTF reader (BTF_READERS)
#   file-length      no file under dcc/, runtime/, loader/ over MAX_FILE lines
#   func-length      no function there over MAX_FUNC lines
#   helper-numbers   dcc/cg calls BPF helpers by their <linux/bpf.h> names, never
#                    by a number or a local enum of numbers
#   builtin-names    no strcmp()-style comparison with a D builtin's name in
#                    dcc/sema or dcc/cg outside the registry (BUILTIN_REGISTRY)
#   runtime-no-dcc   runtime/ and loader/ include nothing from dcc/ (headers/dcc,
#                    the ABI, is theirs) and link no compiler library
#
# A rule named in RULES_PENDING is reported as a note and does not fail: that is
# for rules that do not hold on main yet (the branches that make them hold switch
# them on). length-sema-cg defers file-length and func-length in dcc/sema and
# dcc/cg only. Each variable below can be overridden from the environment.
RULES_PENDING=${RULES_PENDING-""}
# The files that may name builtins: the registry (paths from SRC).
BUILTIN_REGISTRY=${BUILTIN_REGISTRY-"dcc/sema/builtin.c dcc/sema/builtins.def"}
# The one file of dcc/sema that may use libbpf's BTF API.
BTF_READERS=${BTF_READERS-dcc/sema/btf.c}
MAX_FILE=${MAX_FILE-900}
MAX_FUNC=${MAX_FUNC-120}

SRC=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 2
for d in dcc runtime loader; do
	if [ ! -d "$d" ]; then
		echo "check.sh: $SRC has no $d/: not a dcc source tree" >&2
		exit 2
	fi
done

# D's builtin variables, actions, subroutines and aggregating functions.
BUILTINS="args arg0 arg1 arg2 arg3 arg4 arg5 arg6 arg7 arg8 arg9 caller curcpu curlwpsinfo
curpsinfo curthread cwd epid errno execargs execname gid id ipl lwpsinfo pid ppid probefunc
probemod probename probeprov psinfo root stackdepth tid timestamp ucaller uid uregs
ustackdepth vtimestamp walltimestamp
avg count lquantize llquantize max min quantize stddev sum
trace tracemem printf printa print stack ustack jstack exit speculate commit discard
speculation freopen ftruncate system raise stop copyout copyoutstr breakpoint chill panic
setopt normalize denormalize clear trunc func ufunc mod umod sym usym uaddr
alloca basename bcopy cleanpath copyin copyinstr copyinto d_path dirname getmajor getminor
htonl htonll htons ntohl ntohll ntohs index inet_ntoa inet_ntoa6 inet_ntop lltostr memref
progenyof rand rindex strchr strjoin strlen strrchr strstr strtok strtoll substr toupper
tolower json link_ntop"

# Breaches are counted in a file: report runs at the end of pipelines, in a subshell.
fails=$(mktemp) && notes=$(mktemp) || exit 2
trap 'rm -f "$fails" "$notes"' EXIT
pending() {
	case " $RULES_PENDING " in *" $1 "*) return 0 ;; esac
	return 1
}
# report RULE: the breaches on stdin ("FILE:LINE: text"), as errors or as notes
report() {
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		if pending "$1"; then
			echo "$1 $line" >>"$notes"
		else
			echo "$line"
			echo "$line" >>"$fails"
		fi
	done
}
# files DIR...: the C sources and headers under each DIR that exists
files() {
	for d in "$@"; do
		[ -d "$d" ] && find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \)
	done | LC_ALL=C sort
}
# grep_rule RULE MESSAGE ERE FILE...: each line matching ERE is a breach
grep_rule() {
	rule=$1 msg=$2 re=$3
	shift 3
	[ $# -gt 0 ] || return 0
	grep -nE "$re" "$@" /dev/null | sed "s|^\([^:]*:[0-9]*\):.*|\1: $rule: $msg|" |
		report "$rule"
}

# llvm-include
set -- $(files dcc runtime loader headers tests | grep -v '^dcc/cg/')
grep_rule llvm-include "includes <llvm-c/...>: only dcc/cg may use LLVM" \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]llvm-c/' "$@"

# libbpf-include: dcc/sema sees libbpf through its BTF reader only
set -- $(files dcc/front dcc/base dcc/cg; files dcc/sema | grep -vxF "$BTF_READERS")
grep_rule libbpf-include "includes a libbpf header: only $BTF_READERS and dcc/verify may" \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]bpf/' "$@"

# file-length and func-length: a function starts at a column-0 line with a name
# and '(', its body runs from the '{' at column 0 to the next '}' at column 0.
set -- $(files dcc runtime loader)
awk -v maxfile="$MAX_FILE" -v maxfunc="$MAX_FUNC" '
FNR == 1 { start = 0; sig = "" }
/^[A-Za-z_].*\(/ && !start {
	sig = $0
	sub(/\(.*/, "", sig)
	sub(/.*[ \t*]/, "", sig)
}
/^\{/ { start = FNR; name = sig; next }
/^\}/ && start {
	if (FNR - start + 1 > maxfunc)
		printf "%s:%d: func-length: %s() is %d lines, over %d\n", FILENAME, start,
			name, FNR - start + 1, maxfunc
	start = 0
}
FNR == maxfile + 1 { printf "%s:%d: file-length: over %d lines\n", FILENAME, FNR, maxfile }
' "$@" | while IFS= read -r line; do
	case "$line" in
	dcc/sema/* | dcc/cg/*) echo "$line" | report length-sema-cg ;;
	*) echo "$line" | report length ;; # a name no RULES_PENDING holds
	esac
done

# helper-numbers: a number as a helper call's id, or an H_* enumerator holding one
set -- $(files dcc/cg)
grep_rule helper-numbers "calls a BPF helper by number: use its BPF_FUNC_* name" \
	'cg_helper[[:space:]]*\([^,]*,[[:space:]]*[0-9]' "$@"
grep_rule helper-numbers "numbers a BPF helper in a local enum: use its BPF_FUNC_* name" \
	'\<H_[A-Z0-9_]+[[:space:]]*=[[:space:]]*[0-9]' "$@"

# builtin-names
names=$(echo $BUILTINS | tr ' ' '|')
set -- $(files dcc/sema dcc/cg | grep -vxF "$(echo $BUILTIN_REGISTRY | tr ' ' '\n')")
grep_rule builtin-names "compares with a D builtin's name: resolve it through the registry" \
	"(strn?cmp|strcasecmp|streq|memcmp)[[:space:]]*\(.*\"($names)\"" "$@"

# runtime-no-dcc: an include naming a path into dcc/ that is not headers/dcc, or
# a quoted include of a header found neither beside the file nor in runtime/,
# loader/ or headers/ but named as one of the compiler's; the build linking a
# compiler library or adding dcc/ to the include path.
compiler_headers=$(files dcc | grep '\.h$' | sed 's|.*/||' | LC_ALL=C sort -u)
for f in $(files runtime loader); do
	awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*[<"][^>"]*/) {
		s = substr($0, RSTART, RLENGTH)
		sub(/^[^<"]*/, "", s)
		print FNR, substr(s, 1, 1), substr(s, 2)
	}' "$f" |
	while read -r n q inc; do
		msg="$f:$n: runtime-no-dcc: includes $inc from the compiler:"
		msg="$msg only headers/dcc is shared"
		case "$inc" in
		*..*dcc/* | *dcc/*..*)
			echo "$msg"
			continue ;;
		dcc/*)
			[ -f "headers/$inc" ] || echo "$msg"
			continue ;;
		*dcc/*)
			echo "$msg"
			continue ;;
		esac
		[ "$q" = '"' ] || continue
		for d in "$(dirname "$f")" runtime loader headers; do
			[ -f "$d/$inc" ] && continue 2
		done
		if echo "$compiler_headers" | grep -qxF "$(basename "$inc")"; then
			echo "$msg"
		fi
	done
done | report runtime-no-dcc
set -- $(find runtime loader -name CMakeLists.txt | LC_ALL=C sort)
grep_rule runtime-no-dcc "links or includes the compiler (dcc/): only headers/dcc is shared" \
	'\<dcc_(base|front|sema|cg|verify|driver)\>|\<dcccomp\>|_DIR\}?/dcc(/|[[:space:]]|\)|$)' \
	"$@"

# Pending rules: a count each, the list with VERBOSE=1.
for rule in $RULES_PENDING; do
	n=$(grep -c "^$rule " "$notes")
	[ "$n" -gt 0 ] || continue
	first=$(grep -m1 "^$rule " "$notes" | sed 's/^[^ ]* \([^:]*:[0-9]*\):.*/\1/')
	echo "note: pending rule $rule: $n breaches, first $first (VERBOSE=1 lists them)"
	[ -n "$VERBOSE" ] && grep "^$rule " "$notes" | sed "s/^$rule /  /"
done
if [ -s "$fails" ]; then
	echo "layout: the tree breaks the rules above (tests/layout/check.sh says how each is read)"
	exit 1
fi
echo "layout: every rule holds${RULES_PENDING:+ (pending: $RULES_PENDING)}"
