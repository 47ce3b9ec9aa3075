# 422: the HTML report's area chart as a streamgraph (eventlog2html's
# streamgraph view), checked in chromium on a real -hc profile: centred
# columns, no byte ticks, and back to a stacked chart when unticked.
. "$(dirname "$0")/../lib.sh"
in=$ROOT/tests/fixtures/eventlog/cost-centres-hc.eventlog
"$LEAKSCOPE" eventlog -o "$T/r.html" "$in" || fail "html exit $?"
browser_check "the streamgraph" check_stream.mjs "$T/r.html"
exit 0
