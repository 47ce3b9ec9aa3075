# trace-check.sh - helpers for the record tests (sourced after lib.sh).
#
#   ls_dump TRACE OUT     leakscope dump TRACE > OUT, its stderr in OUT.err,
#                         its status in $drc
#   consistent DUMP       fail unless the trace's view of the heap is
#                         consistent: no free of a block it does not hold,
#                         no allocation of an address it holds; every stack
#                         an allocation names was defined before it
#   site_stack DUMP FN    the stack id whose innermost frame is in function FN
#   count_allocs DUMP STACK SIZE   allocations of SIZE bytes from STACK

ls_dump() { # trace out
	drc=0
	"$LEAKSCOPE" dump "$1" > "$2" 2> "$2.err" || drc=$?
}

consistent() { # dump
	awk '$2 == "stack" { sub("id=", "", $3); def[$3] = 1 }
	$2 == "alloc" { s = $6; sub("stack=", "", s)
		if (s != 0 && !(s in def)) { print "undefined " $0; bad++ }
		if ($4 in live) { print "alloc of a live block: " $0; bad++ }
		live[$4] = 1 }
	$2 == "free" { if (!($4 in live)) { print "free of an unknown block: " $0; bad++ }
		delete live[$4] }
	END { exit bad > 0 }' "$1" > "$1.bad" || { head -n 5 "$1.bad"; fail "trace $1 is not consistent"; }
}

site_stack() { # dump function
	a=$(sed -n "s/^- symbol addr=\(0x[0-9a-f]*\) .*frames=$2 at .*/\1/p" "$1" | head -n 1)
	[ -n "$a" ] || fail "no symbol for $2 in $1"
	sed -n "s/^- stack id=\([0-9]*\) frames=$a,.*/\1/p; s/^- stack id=\([0-9]*\) frames=$a\$/\1/p" "$1" | head -n 1
}

count_allocs() { # dump stack size
	grep -c "^[0-9.]* alloc tid=[0-9]* addr=0x[0-9a-f]* size=$3 stack=$2\$" "$1"
}
