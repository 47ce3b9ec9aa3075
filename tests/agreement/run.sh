#!/bin/sh
# tests/agreement/run.sh [--tools "leakscope valgrind lsan"] [--opts "O0 O2"] [NAME...]
#
# Runs the agreement victims (tests/agreement/victims/*.c, *.cc: our own
# programs for the situations that valgrind's memcheck/tests and LLVM's
# compiler-rt/test/lsan/TestCases check; tests/agreement/CASES.md maps
# them) under three leak checkers and says, for each victim, optimization
# level and checker, whether the checker agrees with the victim's
# expectation:
#
#   leakscope  build/leakscope run --show-reachable -f json (the classes of
#              every process of the run, plus the report of a
#              `leakscope check` the victim asked for)
#   valgrind   valgrind --leak-check=full --show-leak-kinds=all
#              --errors-for-leak-kinds=definite --error-exitcode=23
#   lsan       the victim built with clang -fsanitize=leak (its exit code is
#              23 when it reports a leak, as ours)
#
# Each checker is run only where it is installed; a victim that a checker
# cannot judge (it uses an API that checker lacks) is "n/a" for it.
# Output: one line per checker, optimization level and victim, "agree" or
# "DISAGREE: expected X, got Y"; then a count per checker; the last line
# is leakscope's: "N agree, M disagree". Exit status 0 when leakscope
# disagreed nowhere, 1 otherwise. Work files are kept in build/agreement/.
#
# The expectation of a victim is written in its header, in comment lines:
#
#   EXPECT: ITEM; ITEM; ...     what a correct leak checker says, where
#                               an ITEM is one of
#       definitely-lost B N     B bytes in N blocks, exactly (the sum over
#       indirectly-lost B N     every process of the run and every check);
#       possibly-lost B N       a class not named must be 0 bytes in 0 blocks
#       still-reachable >=B >=N at least B bytes in at least N blocks
#       hidden B                no listed group (any class, reachable
#                               ones listed too) is of B-byte blocks
#       rc N                    the exit status of the run
#   EXPECT-LSAN: ... / EXPECT-VALGRIND: ... / EXPECT-LEAKSCOPE: ...
#                               replaces EXPECT for that checker, where
#                               it says the same thing its own way (LSan
#                               counts a malloc(0) block as 1 byte)
#   EXPECT-OR: ITEMS            also agrees: these items instead (one
#                               alternative a line), where an ITEM may be
#       note /ERE/              a line of the checker's output matches ERE
#   TOOLS: leakscope lsan       the checkers that can judge it (default all)
#   OPTS: O0 O1 O2              optimization levels (default O0 O2)
#   CFLAGS: ... / LIBS: ...     extra compiler / linker flags
#   REQUIRES: avx               skip unless the CPU has it
#   DSO: FILE.c                 build FILE.c as BIN-lib.so next to BIN
#   SUPP: PATTERN               a suppression of the allocating function
#                               PATTERN (leak:*PATTERN* for leakscope and
#                               LSan, fun:PATTERN for valgrind)
#
# LSan knows two classes only: it is judged on definitely (its "direct")
# and indirectly lost; what is possibly lost or reachable it must not
# report.
#
# Not part of `make check` (valgrind alone takes minutes): run it by hand,
# or from tests/run.sh with a test script that calls it with --tools leakscope.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
V=$ROOT/tests/agreement/victims
OUT=${AGREE_OUT:-$ROOT/build/agreement}
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
tools="leakscope valgrind lsan"
want_opts=""
while [ $# -gt 0 ]; do
	case "$1" in
	--tools) tools=$2; shift 2 ;;
	--opts) want_opts=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
names="$*"
mkdir -p "$OUT/bin" "$OUT/run"

available() { # tool -> 0 when it can run here
	case "$1" in
	leakscope) [ -x "$LEAKSCOPE" ] ;;
	valgrind) command -v valgrind > /dev/null ;;
	lsan) command -v clang > /dev/null && [ -n "$(clang -print-file-name=libclang_rt.lsan-x86_64.a 2> /dev/null |
		grep /)" ] && [ -f "$(clang -print-file-name=libclang_rt.lsan-x86_64.a)" ] ;;
	*) false ;;
	esac
}
for t in $tools; do
	available "$t" || { echo "note: $t is not available here; its runs are skipped"; tools=$(echo " $tools " | sed "s/ $t / /"); }
done
command -v jq > /dev/null || { echo "run.sh: jq is needed" >&2; exit 2; }

# directive FILE NAME: the values of "NAME:" comment lines, one a line
directive() {
	sed -n "s@^[[:space:]/*]*$2:[[:space:]]*@@p" "$1" | sed 's/[[:space:]]*\*\/[[:space:]]*$//'
}

# build SRC OPT FLAVOUR BIN: compile the victim (cached on mtimes)
build() {
	src=$1 opt=$2 flavour=$3 bin=$4
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$V/agree.h" ]; then
		return 0
	fi
	cflags=$(directive "$src" CFLAGS | tr '\n' ' ')
	libs=$(directive "$src" LIBS | tr '\n' ' ')
	case "$src" in *.cc) lang=cxx ;; *) lang=c ;; esac
	if [ "$flavour" = lsan ]; then
		[ $lang = cxx ] && cc=clang++ || cc=clang
		extra="-fsanitize=leak -DAGREE_LSAN"
	else
		[ $lang = cxx ] && cc=c++ || cc=cc
		extra=""
	fi
	dso=$(directive "$src" DSO)
	if [ -n "$dso" ]; then
		cc -g -"$opt" -fPIC -shared -o "$bin-lib.so" "$V/$dso" ||
			return 1
	fi
	# shellcheck disable=SC2086
	$cc -g -"$opt" $extra -I"$ROOT/include" -I"$V" $cflags -o "$bin" "$src" \
		-pthread -ldl $libs 2> "$bin.build.log" || { cat "$bin.build.log" >&2; return 1; }
}

# Each parser prints the got-line:
#   DL_B DL_N IL_B IL_N PL_B PL_N SR_B SR_N NF_B NF_N
# followed by one line "sizes: S S ..." (per-block size of each listed
# group) and the checker's output (for note /ERE/).
parse_leakscope() { # out.json check.json stderr
	files=$1
	[ -s "$2" ] && files="$files $2"
	# shellcheck disable=SC2086
	jq -rs '[.[] | .processes[]?] as $p
		| def s($c; $k): [$p[].classes[$c][$k] // 0] | add // 0;
		"\(s("definitely-lost"; "bytes")) \(s("definitely-lost"; "objects")) \(s("indirectly-lost"; "bytes")) \(s("indirectly-lost"; "objects")) \(s("possibly-lost"; "bytes")) \(s("possibly-lost"; "objects")) \(s("still-reachable"; "bytes")) \(s("still-reachable"; "objects")) \(s("not-freed"; "bytes")) \(s("not-freed"; "objects"))",
		"sizes: \([$p[].leaks[]? | select(.objects > 0) | (.bytes / .objects | floor)] | map(tostring) | join(" "))",
		($p[].scan_note // empty), ($p[].alloc_note // empty)' $files 2> /dev/null || echo "0 0 0 0 0 0 0 0 0 0
sizes:"
	cat "$3"
}

parse_valgrind() { # log...
	awk '
	function num(s) { gsub(",", "", s); return s + 0 }
	/LEAK SUMMARY:/ { insum = 1; next }
	insum && /definitely lost:/ { dl_b += num($(idx("lost:") + 1)); dl_n += num(blocks()) }
	insum && /indirectly lost:/ { il_b += num($(idx("lost:") + 1)); il_n += num(blocks()) }
	insum && /possibly lost:/   { pl_b += num($(idx("lost:") + 1)); pl_n += num(blocks()) }
	insum && /still reachable:/ { sr_b += num($(idx("reachable:") + 1)); sr_n += num(blocks()) }
	insum && /suppressed:/      { insum = 0 }
	/ bytes in [0-9,]+ blocks are / {
		b = $2; n = ""
		for (i = 2; i < NF; i++) if ($i == "in") { n = $(i + 1); break }
		if (num(n) > 0) sizes = sizes " " int(num(b) / num(n))
	}
	function idx(w,   i) { for (i = 1; i <= NF; i++) if ($i == w) return i; return 0 }
	function blocks(   i) { for (i = 1; i <= NF; i++) if ($i == "in") return $(i + 1); return 0 }
	END { print dl_b + 0, dl_n + 0, il_b + 0, il_n + 0, pl_b + 0, pl_n + 0, sr_b + 0, sr_n + 0, 0, 0
	      print "sizes:" sizes }' "$@"
	cat "$@"
}

parse_lsan() { # stderr
	awk '
	/^(Direct|Indirect) leak of [0-9]+ byte/ {
		b = $4; n = $7
		if ($1 == "Direct") { dl_b += b; dl_n += n } else { il_b += b; il_n += n }
		if (n > 0) sizes = sizes " " int(b / n)
	}
	END { print dl_b + 0, dl_n + 0, il_b + 0, il_n + 0, 0, 0, 0, 0, 0, 0
	      print "sizes:" sizes }' "$1"
	cat "$1"
}

# describe GOT-LINE RC: the got-line in the words of an expectation
describe() {
	set -- $1 "$2"
	printf 'definitely-lost %s %s; indirectly-lost %s %s; possibly-lost %s %s; still-reachable %s %s' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8"
	[ "$9" != 0 ] || [ "${10}" != 0 ] && printf '; not-freed %s %s' "$9" "${10}"
	printf '; rc %s' "${11}"
}

# judge TOOL EXPECTATION GOTFILE RC: 0 when the run agrees
judge() {
	case "$2" in
	"note "*)
		re=$(echo "$2" | sed 's@^note /\(.*\)/ *$@\1@')
		tail -n +3 "$3" | grep -Eq -- "$re"
		return ;;
	esac
	awk -v tool="$1" -v ex="$2" -v rc="$4" '
	NR == 1 { split($0, g, " ") }
	NR == 2 { sub(/^sizes:/, ""); nsz = split($0, sz, " ") }
	END {
		e["definitely-lost"] = "0 0"; e["indirectly-lost"] = "0 0"; e["possibly-lost"] = "0 0"
		n = split(ex, items, ";")
		for (i = 1; i <= n; i++) {
			m = split(items[i], w, " ")
			if (m == 0) continue
			if (w[1] == "hidden") hidden[w[2]] = 1
			else if (w[1] == "rc") erc = w[2]
			else if (w[1] == "still-reachable") { sub(/^>=/, "", w[2]); sub(/^>=/, "", w[3]); srb = w[2]; srn = w[3]; sr = 1 }
			else if (w[1] in e) e[w[1]] = w[2] " " w[3]
			else { print "    unknown expectation item: " items[i] > "/dev/stderr"; exit 1 }
		}
		if (g[1] " " g[2] != e["definitely-lost"]) exit 1
		if (g[3] " " g[4] != e["indirectly-lost"]) exit 1
		if (g[9] != 0 || g[10] != 0) exit 1
		if (tool != "lsan") {
			if (g[5] " " g[6] != e["possibly-lost"]) exit 1
			if (sr && (g[7] + 0 < srb + 0 || g[8] + 0 < srn + 0)) exit 1
		}
		for (i = 1; i <= nsz; i++) if (sz[i] in hidden) exit 1
		if (erc != "" && erc != rc) exit 1
		exit 0
	}' "$3"
}

# agrees TOOL SRC GOTFILE RC: the main expectation, or an EXPECT-OR one
agrees() {
	tool=$1 src=$2 got=$3 rc=$4
	up=$(echo "$tool" | tr '[:lower:]' '[:upper:]')
	exp=$(directive "$src" "EXPECT-$up" | paste -sd';')
	[ -n "$exp" ] || exp=$(directive "$src" EXPECT | paste -sd';')
	judge "$tool" "$exp" "$got" "$rc" && return 0
	directive "$src" EXPECT-OR | sed 's/^ *//; s/ *$//' > "$got.alt"
	while read -r alt; do
		[ -n "$alt" ] && judge "$tool" "$alt" "$got" "$rc" && return 0
	done < "$got.alt"
	return 1
}

supp_files() { # src base: write the suppression files the victim asks for
	: > "$2.ls.supp"; : > "$2.lsan.supp"; : > "$2.vg.supp"
	directive "$1" SUPP | while read -r pat; do
		echo "leak:*$pat*" >> "$2.ls.supp"
		echo "leak:*$pat*" >> "$2.lsan.supp"
		printf '{\n   agree-%s\n   Memcheck:Leak\n   ...\n   fun:%s\n   ...\n}\n' "$pat" "$pat" >> "$2.vg.supp"
	done
}

# run_tool TOOL SRC BIN BASE: run; leaves BASE.got and prints the status
run_tool() {
	tool=$1 src=$2 bin=$3 base=$4
	args=$(directive "$src" ARGS)
	rm -f "$base".* 2> /dev/null
	supp_files "$src" "$base"
	rc=0
	case "$tool" in
	leakscope)
		sopt=""
		[ -s "$base.ls.supp" ] && sopt="--suppressions $base.ls.supp"
		# shellcheck disable=SC2086
		AGREE_LEAKSCOPE=$LEAKSCOPE AGREE_CHECK_OUT=$base.check.json timeout -k 5 120 \
			"$LEAKSCOPE" run --show-reachable $sopt -f json -o "$base.json" -- "$bin" $args \
			> "$base.stdout" 2> "$base.stderr" < /dev/null || rc=$?
		parse_leakscope "$base.json" "$base.check.json" "$base.stderr" > "$base.got" ;;
	valgrind)
		sopt=""
		[ -s "$base.vg.supp" ] && sopt="--suppressions=$base.vg.supp"
		# shellcheck disable=SC2086
		timeout -k 5 300 valgrind --leak-check=full --show-leak-kinds=all \
			--errors-for-leak-kinds=definite --error-exitcode=23 $sopt \
			--log-file="$base.vg.%p" -- "$bin" $args \
			> "$base.stdout" 2> "$base.stderr" < /dev/null || rc=$?
		parse_valgrind "$base".vg.* > "$base.got" ;;
	lsan)
		# a failing allocation returns NULL, as the C library's does
		lopt="allocator_may_return_null=1"
		[ -s "$base.lsan.supp" ] && lopt="$lopt:suppressions=$base.lsan.supp:print_suppressions=0"
		# shellcheck disable=SC2086
		LSAN_OPTIONS=$lopt timeout -k 5 120 "$bin" $args \
			> "$base.stdout" 2> "$base.stderr" < /dev/null || rc=$?
		parse_lsan "$base.stderr" > "$base.got" ;;
	esac
	echo "$rc"
}

has_cpu() { grep -qw "$1" /proc/cpuinfo; }

for t in $tools; do eval "agree_$t=0 disagree_$t=0 na_$t=0"; done
for src in "$V"/*.c "$V"/*.cc; do
	[ -f "$src" ] || continue
	name=$(basename "$src"); name=${name%.*}
	case "$name" in *-lib) continue ;; esac
	if [ -n "$names" ]; then
		case " $names " in *" $name "*) ;; *) continue ;; esac
	fi
	[ -n "$(directive "$src" EXPECT)" ] || { echo "$name: no EXPECT line" >&2; continue; }
	opts=$(directive "$src" OPTS); [ -n "$opts" ] || opts="O0 O2"
	[ -n "$want_opts" ] && opts=$(for o in $opts; do case " $want_opts " in *" $o "*) echo "$o" ;; esac; done)
	vtools=$(directive "$src" TOOLS); [ -n "$vtools" ] || vtools="leakscope valgrind lsan"
	skipwhy=""
	for r in $(directive "$src" REQUIRES); do has_cpu "$r" || skipwhy="the CPU has no $r"; done
	for opt in $opts; do
		for tool in $tools; do
			label=$(printf '%-9s %s %s' "$tool" "$opt" "$name")
			case " $vtools " in
			*" $tool "*) ;;
			*) echo "$label: n/a (uses an API $tool does not have)"; eval "na_$tool=\$((na_$tool + 1))"; continue ;;
			esac
			if [ -n "$skipwhy" ]; then
				echo "$label: n/a ($skipwhy)"; eval "na_$tool=\$((na_$tool + 1))"; continue
			fi
			flavour=plain
			[ "$tool" = lsan ] && flavour=lsan
			bin=$OUT/bin/$name-$opt-$flavour
			if ! build "$src" "$opt" "$flavour" "$bin"; then
				echo "$label: DISAGREE: cannot build it ($bin.build.log)"
				eval "disagree_$tool=\$((disagree_$tool + 1))"
				continue
			fi
			base=$OUT/run/$name-$opt-$tool
			rc=$(run_tool "$tool" "$src" "$bin" "$base")
			if agrees "$tool" "$src" "$base.got" "$rc"; then
				echo "$label: agree"
				eval "agree_$tool=\$((agree_$tool + 1))"
			else
				up=$(echo "$tool" | tr '[:lower:]' '[:upper:]')
				exp=$(directive "$src" "EXPECT-$up" | paste -sd';')
				[ -n "$exp" ] || exp=$(directive "$src" EXPECT | paste -sd';')
				echo "$label: DISAGREE: expected $exp, got $(describe "$(head -n 1 "$base.got")" "$rc")"
				eval "disagree_$tool=\$((disagree_$tool + 1))"
			fi
		done
	done
done

status=0
for t in $tools; do
	eval "a=\$agree_$t d=\$disagree_$t n=\$na_$t"
	[ "$t" = leakscope ] && continue
	echo "$t: $a agree, $d disagree, $n n/a"
done
case " $tools " in
*" leakscope "*)
	echo "leakscope: $agree_leakscope agree, $disagree_leakscope disagree, $na_leakscope n/a"
	echo "$agree_leakscope agree, $disagree_leakscope disagree"
	[ "$disagree_leakscope" -eq 0 ] || status=1 ;;
esac
exit $status
