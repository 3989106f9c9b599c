#!/bin/sh
# Timer lateness in the second that contains an update of org.rouse.timer, in the runtime jar and in Apache Karaf
# (org.rouse.benchmarks.update.TimerUpdateLateness). Run from the project root on a quiet machine; ~6 minutes.
# Writes benchmarks/results/timer-update-lateness.md and .csv. Extra Maven flags (e.g. -o) go in MVN_FLAGS.
set -eu
KARAF_VERSION=4.4.10
KARAF_TAR=target/karaf/apache-karaf-$KARAF_VERSION.tar.gz
# Karaf resolves the Rouse feature repository and bundles from the local Maven repository: install this tree's
mvn -B -q ${MVN_FLAGS:-} install -DskipTests -pl features/runtime,features/karaf,benchmarks -am
if [ ! -f "$KARAF_TAR" ]; then
    mvn -B -q ${MVN_FLAGS:-} dependency:copy -Dartifact=org.apache.karaf:apache-karaf:$KARAF_VERSION:tar.gz \
        -DoutputDirectory=target/karaf
fi
java -cp benchmarks/target/benchmarks.jar org.rouse.benchmarks.update.TimerUpdateLateness \
    --runtime features/runtime/target/rouse-runtime.jar --karaf "$KARAF_TAR" --updates 10 --every 5 "$@"
