#!/bin/sh
# git-scenario.sh DIR [COMMITS] - a git workload with hooks, deterministic:
# in a fresh repository DIR (removed first), COMMITS (default 200) commits of
# small changes, each through a pre-commit hook (a pipeline over the staged
# names that refuses a file containing "FORBIDDEN") and a post-commit hook
# (appends the new commit's short hash and subject to a log through a
# pipeline); then log, status, a branch and merge, gc and fsck. Author,
# committer and dates are fixed, and no user or system configuration is
# read, so hashes and output are the same on every run and machine.
#
# Used by bench/process-heavy.sh (timed) and bench/real-suites.sh (output
# compared plain and under leakscope). Prints what it did; exits non-zero
# at the first failing git command.
set -eu
DIR=$1
COMMITS=${2:-200}
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
export HOME="$DIR" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Bench Author" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="Bench Committer" GIT_COMMITTER_EMAIL=committer@example.org
export TZ=UTC LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE 2> /dev/null || true

git init -q -b main repo
cd repo
git config gc.auto 0
git config core.pager cat
cat > .git/hooks/pre-commit <<'HOOK'
#!/bin/sh
# refuse a staged file that says FORBIDDEN; count what is staged
n=$(git diff --cached --name-only | sort | uniq | wc -l)
if git diff --cached --name-only -z | xargs -0 grep -l FORBIDDEN 2> /dev/null | grep -q .; then
	echo "pre-commit: FORBIDDEN found" >&2
	exit 1
fi
echo "$n" >> .git/staged-counts
HOOK
cat > .git/hooks/post-commit <<'HOOK'
#!/bin/sh
git log -1 --format='%h %s' | tr 'a-z' 'A-Z' | sed 's/^/done: /' >> .git/commit-log
HOOK
chmod +x .git/hooks/pre-commit .git/hooks/post-commit

i=1
while [ "$i" -le "$COMMITS" ]; do
	t=$((1700000000 + i * 60))
	export GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000"
	f=src/file$((i % 17)).txt
	mkdir -p src
	echo "line $i of $f" >> "$f"
	[ $((i % 5)) -eq 0 ] && echo "note $i" > "notes-$((i % 3)).md"
	git add -A
	git commit -q -m "change $i: $f"
	i=$((i + 1))
done

# a refused commit: the pre-commit hook must stop it
echo FORBIDDEN > bad.txt
git add bad.txt
if git commit -q -m "must be refused" 2> ../refused.err; then
	echo "the pre-commit hook let FORBIDDEN through" >&2
	exit 1
fi
echo "refused: $(cat ../refused.err)"
git rm -q --cached bad.txt
rm bad.txt

# a branch and a merge
export GIT_AUTHOR_DATE="@1800000000 +0000" GIT_COMMITTER_DATE="@1800000000 +0000"
git checkout -q -b topic HEAD~3
echo topic > topic.txt
git add topic.txt
git commit -q -m "topic work"
git checkout -q main
git merge -q --no-edit topic
echo "head: $(git rev-parse HEAD)"
echo "commits: $(git rev-list --count HEAD)"
git log --format='%h %an %s' | head -n 5
git log --stat --format='%h' -3 | tail -n 4
echo "status:"
git status --porcelain=v1
git status --short --branch
echo "hook log: $(wc -l < .git/commit-log) lines, last: $(tail -n 1 .git/commit-log)"
echo "staged counts: $(sort -n .git/staged-counts | uniq -c | tr -s ' ' | tr '\n' ';')"
git gc -q
git count-objects -v | grep -E '^(count|in-pack|packs)'
git fsck --no-progress --strict
echo "fsck: ok"
git grep -c "line 1" -- src | sort | head -n 3
git shortlog -sn HEAD
