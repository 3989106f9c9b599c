#!/bin/bash
# The rouse shell commands in a real Apache Karaf 4.4.10, run non-interactively through bin/client (as an ssh exec
# is): each must print its report, a bad argument must give the usage message, rouse:strategy must persist to
# etc/org.rouse.lock.cfg, and the command ACL installed by the rouse-api feature must refuse it to a user without the
# manager role. Run from anywhere; ~2 minutes. Extra Maven flags (e.g. -o) go in MVN_FLAGS. Karaf resolves the Rouse
# bundles from the local Maven repository, so this first installs this tree's (run it where nothing else installs
# them meanwhile, e.g. under the same lock as builds).
set -eu
cd "$(dirname "$0")/../.."
KARAF_VERSION=4.4.10
KARAF_TAR=${KARAF_TAR:-$HOME/.m2/repository/org/apache/karaf/apache-karaf/$KARAF_VERSION/apache-karaf-$KARAF_VERSION.tar.gz}
VERSION=0.1.0-SNAPSHOT
mvn -B -q ${MVN_FLAGS:-} install -DskipTests -pl features/karaf -am
if [ ! -f "$KARAF_TAR" ]; then
    mvn -B -q ${MVN_FLAGS:-} dependency:get -Dartifact=org.apache.karaf:apache-karaf:$KARAF_VERSION:tar.gz
fi
BASE=$PWD/target/karaf-shell-check
rm -rf "$BASE"
mkdir -p "$BASE"
tar xzf "$KARAF_TAR" -C "$BASE"
KARAF=$BASE/apache-karaf-$KARAF_VERSION
# ports of our own, so that another Karaf on this machine does not get in the way
SSH_PORT=$((20000 + $$ % 10000))
sed -i "s/^sshPort = 8101/sshPort = $SSH_PORT/" "$KARAF/etc/org.apache.karaf.shell.cfg"
sed -i "s/^rmiRegistryPort = 1099/rmiRegistryPort = $((SSH_PORT + 1))/; s/^rmiServerPort = 44444/rmiServerPort = $((SSH_PORT + 2))/" \
    "$KARAF/etc/org.apache.karaf.management.cfg"
printf 'port = 0\n' > "$KARAF/etc/org.rouse.examples.resp.cfg"
printf 'scripts = 20\nreport.interval.s = 3600\n' > "$KARAF/etc/org.rouse.examples.scripts.cfg"
# the distribution ships with no user: enable its sample admin one, and add one that may only look
sed -i 's/^#karaf = karaf,/karaf = karaf,/; s/^#_g_\\:admingroup/_g_\\:admingroup/' "$KARAF/etc/users.properties"
printf 'ops = ops,viewer,ssh\n' >> "$KARAF/etc/users.properties"

"$KARAF/bin/karaf" server > "$BASE/console.out" 2>&1 &
stop() { "$KARAF/bin/stop" > /dev/null 2>&1 || true; wait 2> /dev/null || true; }
trap stop EXIT

# bin/client ends the exec'd command as soon as its own input ends: give it an input that stays open
exec 3< <(sleep 100000)
client() { "$KARAF/bin/client" -a "$SSH_PORT" -u karaf -p karaf -r 60 -d 2 "$1" <&3 2>&1; }
ops() { "$KARAF/bin/client" -a "$SSH_PORT" -u ops -p ops -r 60 -d 2 "$1" <&3 2>&1; }
FAILED=0
# check NAME OUTPUT REGEX: the output must match the extended regular expression
check() {
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then
        echo "ok   $1"
    else
        echo "FAIL $1: expected /$3/ in:"
        printf '%s\n' "$2" | sed 's/^/     /'
        FAILED=1
    fi
}
# refute NAME OUTPUT REGEX: the output must not match
refute() {
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then
        echo "FAIL $1: unexpected /$3/ in:"
        printf '%s\n' "$2" | sed 's/^/     /'
        FAILED=1
    else
        echo "ok   $1"
    fi
}

client "feature:repo-add mvn:org.rouse/rouse-features/$VERSION/xml/features" > /dev/null
client "feature:install rouse rouse-examples" > /dev/null
i=0
until client "rouse:timers" | grep -q "org.rouse.examples.scripts"; do
    i=$((i + 1))
    [ $i -lt 60 ] || { echo "FAIL rouse:timers never listed the script host"; exit 1; }
    sleep 1
done

check "rouse:timers prints the report" "$(client 'rouse:timers')" '^engine wheel, dispatcher wakeups [0-9]+'
check "rouse:late prints the owners" "$(client 'rouse:late 3')" '^org\.rouse\.examples\.scripts\[[0-9]+\] +script'
check "rouse:running prints its header" "$(client 'rouse:running')" '^bundle +owner +timer +running \(ms\)'
check "rouse:selector prints the engine" "$(client 'rouse:selector')" '^engine nio-'
check "rouse:connections lists the RESP server" "$(client 'rouse:connections')" \
    '^org\.rouse\.examples\.resp\[[0-9]+\] +0 +1 +0'
check "rouse:locks 2 prints the totals" "$(client 'rouse:locks 2')" '^engine strategies, strategies '
check "rouse:contended prints its header" "$(client 'rouse:contended')" '^lock +strategy +acquired'
TOP=$(client 'rouse:locks top')
check "rouse:locks top gives the usage" "$TOP" "not 'top'; usage: rouse:locks \[n \| reset\]"
refute "rouse:locks top is no coercion error" "$TOP" 'Cannot coerce'
check "rouse:timers reset" "$(client 'rouse:timers reset')" '^timer statistics reset'
check "rouse:strategy fast names the allowed values" "$(client 'rouse:strategy fast')" \
    "unknown strategy 'fast'.*adaptive, fair, jdk, spin-yield"
check "rouse:strategy fair (manager)" "$(client 'rouse:strategy fair')" '^org\.rouse\.lock: strategy = fair'
i=0
until grep -Eq '^strategy *= *fair' "$KARAF/etc/org.rouse.lock.cfg" 2> /dev/null; do
    i=$((i + 1))
    [ $i -lt 30 ] || break
    sleep 1
done
check "the strategy is written to etc/org.rouse.lock.cfg" "$(cat "$KARAF/etc/org.rouse.lock.cfg" 2>&1)" \
    '^strategy *= *fair'
check "config:edit shows it" "$(client 'config:property-list --pid org.rouse.lock')" 'strategy = fair'
check "a viewer reads the reports" "$(ops 'rouse:timers')" '^engine wheel'
check "a viewer may not change a strategy" "$(ops 'rouse:strategy jdk')" 'Command not found: .*rouse:strategy'
check "... as for config:edit" "$(ops 'config:edit org.rouse.lock')" 'Command not found: .*config:edit'
check "the strategy stays" "$(client 'rouse:strategy')" '^default strategy fair'

[ $FAILED -eq 0 ] && echo "all checks passed" || { echo "some checks failed (Karaf log: $KARAF/data/log/karaf.log)"; exit 1; }
