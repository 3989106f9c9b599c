#!/bin/bash
# Alternating runs of timer-slack's 1 ms slack variants on two builds of the benchmarks jar, 3 rounds each per run:
#   ab.sh OUT FIRST_NAME FIRST_JAR SECOND_NAME SECOND_JAR   -> OUT/<name>-<timers>-<iteration>.log
set -eu
out=$1
mkdir -p "$out"
for i in 1 2 3; do
  for pair in "$2=$3" "$4=$5"; do
    name=${pair%%=*}
    jar=${pair#*=}
    for n in 711 10000; do
      java -cp "$jar" org.rouse.benchmarks.Harness timer-slack --variant "Rouse slack 1 ms, $n" \
        > "$out/$name-$n-$i.log" 2>&1
    done
  done
done
