#!/usr/bin/env bash
# Smoke test of the runnable jar, both ways of running it. usage: smoke.sh [java-binary] [jar]
#  1. --check: exit 0, at least 5 org.rouse.* bundle lines, and every bundle/component line of an org.rouse.* bundle
#     ends in ACTIVE (a delayed component, such as a health check nobody has run yet, in SATISFIED (delayed...));
#  2. the Gogo shell with 'scr:list' and 'stop 0' on stdin: exit 0.
set -u
JAVA=${1:-java}
JAR=${2:-$(dirname "$0")/target/rouse-runtime.jar}
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
ok=1

"$JAVA" -version 2>&1 | head -1
timeout 120 "$JAVA" -jar "$JAR" --check >"$OUT" 2>&1; rc=$?
cat "$OUT"
[ "$rc" -eq 0 ] || { echo "SMOKE: --check exit code $rc"; ok=0; }
rouse_lines=$(grep -E '^\[rouse\] (bundle|component) +org\.rouse\.' "$OUT")
bundle_count=$(grep -cE '^\[rouse\] bundle +org\.rouse\.' "$OUT")
[ "$bundle_count" -ge 5 ] || { echo "SMOKE: expected at least 5 org.rouse.* bundles, saw $bundle_count"; ok=0; }
not_active=$(printf '%s\n' "$rouse_lines" | grep -vE ' ACTIVE$| SATISFIED \(delayed: activated by its first user\)$')
[ -z "$not_active" ] || { echo "SMOKE: not ACTIVE:"; echo "$not_active"; ok=0; }

printf 'scr:list\nstop 0\n' | timeout 120 "$JAVA" -jar "$JAR" >"$OUT" 2>&1; rc=$?
cat "$OUT"
[ "$rc" -eq 0 ] || { echo "SMOKE: shell with 'stop 0' exit code $rc"; ok=0; }

[ "$ok" -eq 1 ] && echo "SMOKE: OK" && exit 0
echo "SMOKE: FAILED"
exit 1
