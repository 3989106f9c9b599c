#!/bin/bash
# The Rouse Web Console page in a real Apache Karaf 4.4.10: feature:install rouse rouse-webconsole, then the page and
# its data.json must refuse a request without credentials (401), answer the Karaf admin user (200) with live timer
# samples, and the API bundle's optional javax.servlet import must be wired. Run from anywhere; ~3 minutes (Karaf
# downloads Pax Web and the Web Console from Maven Central the first time). Extra Maven flags go in MVN_FLAGS; like
# shell-check.sh it installs this tree's bundles into the local Maven repository first.
set -eu
cd "$(dirname "$0")/../.."
KARAF_VERSION=4.4.10
KARAF_TAR=${KARAF_TAR:-$HOME/.m2/repository/org/apache/karaf/apache-karaf/$KARAF_VERSION/apache-karaf-$KARAF_VERSION.tar.gz}
VERSION=0.1.0-SNAPSHOT
mvn -B -q ${MVN_FLAGS:-} install -DskipTests -pl features/karaf -am
if [ ! -f "$KARAF_TAR" ]; then
    mvn -B -q ${MVN_FLAGS:-} dependency:get -Dartifact=org.apache.karaf:apache-karaf:$KARAF_VERSION:tar.gz
fi
BASE=$PWD/target/karaf-webconsole-check
rm -rf "$BASE"
mkdir -p "$BASE"
tar xzf "$KARAF_TAR" -C "$BASE"
KARAF=$BASE/apache-karaf-$KARAF_VERSION
SSH_PORT=$((20000 + $$ % 10000))
HTTP_PORT=$((SSH_PORT + 3))
sed -i "s/^sshPort = 8101/sshPort = $SSH_PORT/" "$KARAF/etc/org.apache.karaf.shell.cfg"
sed -i "s/^rmiRegistryPort = 1099/rmiRegistryPort = $((SSH_PORT + 1))/; s/^rmiServerPort = 44444/rmiServerPort = $((SSH_PORT + 2))/" \
    "$KARAF/etc/org.apache.karaf.management.cfg"
# Pax Web: our port, loopback only (Karaf's default is 0.0.0.0:8181)
printf 'org.osgi.service.http.port = %s\norg.ops4j.pax.web.listening.addresses = 127.0.0.1\n' "$HTTP_PORT" \
    > "$KARAF/etc/org.ops4j.pax.web.cfg"
printf 'port = 0\n' > "$KARAF/etc/org.rouse.examples.resp.cfg"
printf 'scripts = 20\nreport.interval.s = 3600\n' > "$KARAF/etc/org.rouse.examples.scripts.cfg"
sed -i 's/^#karaf = karaf,/karaf = karaf,/; s/^#_g_\\:admingroup/_g_\\:admingroup/' "$KARAF/etc/users.properties"

"$KARAF/bin/karaf" server > "$BASE/console.out" 2>&1 &
stop() { "$KARAF/bin/stop" > /dev/null 2>&1 || true; wait 2> /dev/null || true; }
trap stop EXIT
exec 3< <(sleep 100000)
client() { "$KARAF/bin/client" -a "$SSH_PORT" -u karaf -p karaf -r 60 -d 2 "$1" <&3 2>&1; }
fail() { echo "WEBCONSOLE-CHECK FAILED: $*"; exit 1; }

client "feature:repo-add mvn:org.rouse/rouse-features/$VERSION/xml/features" > /dev/null
client "feature:install rouse" > /dev/null
client "feature:install rouse-webconsole" > /dev/null
client "bundle:headers org.rouse.api" | grep -q "javax.servlet" || fail "org.rouse.api does not import javax.servlet"
PAGE=http://127.0.0.1:$HTTP_PORT/system/console/rouse
code=""
for _ in $(seq 1 60); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -u karaf:karaf "$PAGE/data.json" || true)
    [ "$code" = 200 ] && break
    sleep 2
done
[ "$code" = 200 ] || fail "data.json as karaf answered $code"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$PAGE/data.json")" = 401 ] || fail "data.json without credentials is not 401"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$PAGE")" = 401 ] || fail "the page without credentials is not 401"
curl -s -u karaf:karaf "$PAGE" | grep -q 'id="rouse-timer-chart"' || fail "the page has no timer chart"
sleep 3
curl -s -u karaf:karaf "$PAGE/data.json" | grep -q '"latenessP99":\[[0-9]' || fail "data.json has no timer lateness samples"
echo "WEBCONSOLE-CHECK: OK (Karaf $KARAF_VERSION, $PAGE)"
