#!/bin/bash
# Runs redis-benchmark against the RESP example (runtime, port 6380) and redis-server (port 6379), interleaved.
set -u
# run from the project root, after: mvn -B -pl features/runtime -am package -DskipTests
ROOT=$(pwd)
mkdir -p /tmp/wt-s-rt && cd /tmp/wt-s-rt
rm -f /tmp/wt-s-rt/stdin.fifo; mkfifo /tmp/wt-s-rt/stdin.fifo; exec 3<>/tmp/wt-s-rt/stdin.fifo
java -jar $ROOT/features/runtime/target/rouse-runtime.jar <&3 > /tmp/wt-s-rt/runtime.log 2>&1 &
RT=$!
redis-server --port 6379 --save '' --appendonly no --daemonize no > /tmp/wt-s-rt/redis.log 2>&1 &
RS=$!
for i in $(seq 1 60); do redis-cli -p 6380 PING >/dev/null 2>&1 && redis-cli -p 6379 PING >/dev/null 2>&1 && break; sleep 1; done
redis-server --version
# warm-up of the JVM
redis-benchmark -p 6380 -c 16 -t ping,set,get -n 100000 -q > /dev/null
for c in 16 50; do for P in 1 16; do
  if [ $P = 1 ]; then n=100000; else n=400000; fi
  for port in 6380 6379; do
    echo "== port $port -c $c -P $P -n $n"
    redis-benchmark -p $port -c $c -P $P -t ping,set,get -n $n -q
  done
done; done
kill $RS
kill $RT
wait
exec 3>&-
