# real-programs-clean: programs nobody here wrote, that valgrind reports
# with 0 bytes definitely and indirectly lost, get the same verdict and
# `run` exits 0: Debian's CPython (pymalloc, its arenas beside glibc's
# mmapped chunks) importing a dozen stdlib modules, git (log, status) and
# sqlite3. Where valgrind is installed, git's possibly-lost total is
# compared with valgrind's too.
. "$(dirname "$0")/../lib.sh"
clean() { # name command...
	name=$1; shift
	ls_run "$T/$name.json" -- "$@"
	expect_rc 0
	expect_json "$T/$name.json" 'all(.processes[]; .classes["definitely-lost"].bytes == 0
		and .classes["indirectly-lost"].bytes == 0)'
}
if [ -x /usr/bin/python3 ]; then
	clean python /usr/bin/python3 -c 'import json, sqlite3, decimal, asyncio, email, http.client, xml.etree.ElementTree, csv, argparse, logging, re, collections'
fi
if command -v git > /dev/null; then
	git init -q "$T/repo" && (cd "$T/repo" && echo a > a && git add a &&
		git -c user.name=t -c user.email=t@t commit -qm one) || fail "git setup"
	clean git-log git -C "$T/repo" log --oneline
	clean git-status git -C "$T/repo" status --short
	if command -v valgrind > /dev/null; then
		vg=$(valgrind --leak-check=full git -C "$T/repo" log --oneline 2>&1 |
			sed -n 's/.*possibly lost: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' | tr -d ,)
		[ -n "$vg" ] || vg="0 0"
		ours=$(jq -r '[.processes[0].classes["possibly-lost"] | .bytes, .objects] | join(" ")' "$T/git-log.json")
		[ "$vg" = "$ours" ] || fail "git log: possibly lost $ours (bytes objects), valgrind $vg"
	fi
fi
if command -v sqlite3 > /dev/null; then
	clean sqlite sqlite3 :memory: 'create table t(a); insert into t values (1), (2); select sum(a) from t;'
fi
exit 0
