#!/usr/bin/env bash
# Smoke test of the runnable jar, both ways of running it. usage: smoke.sh [java-binary] [jar]
#  1. --check: exit 0, at least 5 org.rouse.* bundle lines, and every bundle/component line of an org.rouse.* bundle
#     ends in ACTIVE (a delayed component, such as a health check nobody has run yet, in SATISFIED (delayed...); a
#     component that requires a configuration nobody gave in NO_CONFIGURATION (waiting for configuration ...));
#     the cluster bundle is there, ACTIVE, and without conf/org.rouse.cluster.cfg its component waits for that PID;
#  2. the Gogo shell with 'scr:list' and 'stop 0' on stdin: exit 0.
# The state lines are read from stdout alone: the log lines other threads write to stderr at the same moment must
# not split them. Every reason for a failure is repeated at the end, where a CI log's tail shows it.
set -u
JAVA=${1:-java}
JAR=${2:-$(dirname "$0")/target/rouse-runtime.jar}
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT
reasons=()

"$JAVA" -version 2>&1 | head -1
timeout 120 "$JAVA" -jar "$JAR" --check >"$OUT" 2>"$ERR"; rc=$?
echo "---- --check stderr"; cat "$ERR"
echo "---- --check stdout"; cat "$OUT"
[ "$rc" -eq 0 ] || reasons+=("--check exit code $rc")
while IFS= read -r problem; do reasons+=("--check said: $problem"); done < <(grep -E '^\[rouse\]   ' "$OUT")
rouse_lines=$(grep -E '^\[rouse\] (bundle|component) +org\.rouse\.' "$OUT")
bundle_count=$(grep -cE '^\[rouse\] bundle +org\.rouse\.' "$OUT")
[ "$bundle_count" -ge 5 ] || reasons+=("expected at least 5 org.rouse.* bundle lines, saw $bundle_count")
while IFS= read -r line; do
  [ -n "$line" ] && reasons+=("not ACTIVE: $line")
done < <(printf '%s\n' "$rouse_lines" \
  | grep -vE ' ACTIVE$| SATISFIED \(delayed: activated by its first user\)$| (NO|UNSATISFIED)_CONFIGURATION \(waiting for configuration [^)]+\)$')
grep -qE '^\[rouse\] bundle +org\.rouse\.cluster .* ACTIVE$' "$OUT" || reasons+=("no ACTIVE org.rouse.cluster bundle line")
grep -qE '^\[rouse\] component +org\.rouse\.cluster .*\(waiting for configuration org\.rouse\.cluster\)$' "$OUT" \
  || reasons+=("the cluster component is not reported as waiting for configuration org.rouse.cluster")

printf 'scr:list\nstop 0\n' | timeout 120 "$JAVA" -jar "$JAR" >"$OUT" 2>&1; rc=$?
echo "---- shell with 'scr:list' and 'stop 0'"; cat "$OUT"
[ "$rc" -eq 0 ] || reasons+=("shell with 'stop 0' exit code $rc")

if [ "${#reasons[@]}" -eq 0 ]; then
  echo "SMOKE: OK"
  exit 0
fi
printf 'SMOKE: %s\n' "${reasons[@]}"
echo "SMOKE: FAILED"
exit 1
