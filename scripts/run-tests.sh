#!/usr/bin/env bash
# Runs the built Swift Testing suites (`swift test --skip-build`) under a watchdog, so that CI always ends
# with an answer that says what went wrong:
# - a run still going after $VARIANTD_TEST_LIMIT seconds (default 3600; the suite takes 7 minutes on two
#   idle cores and 9 with both busy) is hung: its output is flushed, every thread of the test process is
#   printed (gdb), then the process tree, then, last, the tests that started and have not ended and the test
#   line each thread in test code waits at, and the run fails;
# - a process the tests started and left running (a daemon, a decoder child, a SeaweedFS) is named — a
#   defect to fix in that test — and stopped, so that it cannot hold CI's output pipe open after the tests
#   have ended. Only this run's: another test run on the machine (another checkout's, or this one's) keeps
#   its servers.
set -uo pipefail
cd "$(dirname "$0")/.."
limit=${VARIANTD_TEST_LIMIT:-3600}
checkout=$PWD
# This run's token: the test support names its folders variantd-tests-$VARIANTD_TEST_RUN-*, and every
# process the tests start inherits it.
export VARIANTD_TEST_RUN="$(date +%s)-$$"

# The processes whose command line matches $1 and whose environment holds this run's token.
of_this_run() {
  for pid in $(pgrep -f -- "$1"); do
    grep -qxz -- "VARIANTD_TEST_RUN=$VARIANTD_TEST_RUN" "/proc/$pid/environ" 2>/dev/null && echo "$pid"
  done
}

# Processes started by this run's tests: test servers, whose folders name the token, and our own binaries
# from this checkout's build (a decoder child's command line names no folder).
leftovers() {
  { pgrep -f -- "variantd-tests-$VARIANTD_TEST_RUN-"; of_this_run "^$checkout/\\.build/"; } |
    sort -un | grep -v -x "$$" || true
}

# Swift Testing's lines are kept as well as shown, so that a hung run can name its unfinished tests.
log=$(mktemp "${TMPDIR:-/tmp}/variantd-test-output.XXXXXX")
trap 'rm -f "$log"' EXIT

# Tests whose "started" line has no "passed", "failed" or "skipped" line after it (a parameterised test's
# cases and its issues have lines of their own, left out; "Test run" is the whole run).
unfinished() {
  sed -n -E '/ Test case | recorded an issue/d; s/^.* Test (.+) started\.$/started \1/p
    s/^.* Test (.+) (passed|failed|skipped)( after .*|\.|:.*)$/ended \1/p' "$log" |
    sed -E 's/ with [0-9]+ test cases?$//' |
    awk '$1 == "started" { $1 = ""; open[$0]++ } $1 == "ended" { $1 = ""; open[$0]-- }
         END { for (name in open) if (open[name] > 0 && name != " run") print "  " name }'
}

# One line per thread of a gdb dump that has a frame in the tests' sources: the call it is in, and the test
# code it was called from, so that a cut tail still shows what a hung test waits for.
waiting_in_tests() {
  awk '/^Thread / { thread = $2; top = ""; next }
       /^#0 / { top = $0; sub(/^#0 +(0x[0-9a-f]+ in )?/, "", top); sub(/ \(.*$/, "", top) }
       /^#[0-9]+ / && thread != "" && match($0, /\/Tests\/[^ ]+:[0-9]+/) {
         print "  thread " thread ": " top " ← " substr($0, RSTART + 1, RLENGTH - 1); thread = "" }'
}

swift test --skip-build > >(tee "$log") 2>&1 &
tests=$!
(
  # The sleep goes when the watchdog is told to, or it would hold CI's output pipe open for $limit s.
  sleep "$limit" &
  sleeper=$!
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  wait "$sleeper"
  kill -0 "$tests" 2>/dev/null || exit 0
  # Swift Testing's lines wait in two stdio buffers, the test process's and then that of `swift test`, which
  # passes them on: both are flushed first, or the log would name tests that ended minutes ago.
  for pid in $(of_this_run 'PackageTests\.xctest') "$tests"; do
    timeout 60 gdb -p "$pid" -batch -ex 'call (int) fflush(0)' > /dev/null 2>&1
    sleep 1
  done
  echo "run-tests.sh: the tests are still running after $limit s; their threads and the process tree:" >&2
  threads=$(mktemp "${TMPDIR:-/tmp}/variantd-test-threads.XXXXXX")
  for pid in $(of_this_run 'PackageTests\.xctest'); do
    timeout 300 gdb -p "$pid" -batch -ex 'thread apply all bt 40' 2>&1 | grep -E '^(Thread|#)' |
      swift demangle --simplified >> "$threads"
  done
  cat "$threads" >&2
  ps -eo pid,ppid,etimes,args --forest >&2
  echo "run-tests.sh: tests started and not ended after $limit s:" >&2
  unfinished >&2
  echo "run-tests.sh: where each thread in test code waits (its innermost call, then its innermost test line):" >&2
  waiting_in_tests < "$threads" >&2
  rm -f "$threads"
  pkill -KILL -P "$tests"
  kill -KILL "$tests"
) &
watchdog=$!
wait "$tests"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null

# A decoder child of a daemon killed at the very end reads the end of its input and exits a moment later.
stray=$(leftovers)
for _ in $(seq 20); do
  [ -n "$stray" ] || break
  sleep 0.5
  stray=$(leftovers)
done
if [ -n "$stray" ]; then
  echo "run-tests.sh: processes the tests left running (stopped now):" >&2
  ps -o pid,etimes,args -p "$(echo $stray | tr ' ' ,)" >&2
  kill -KILL $stray 2>/dev/null
fi
exit "$status"
