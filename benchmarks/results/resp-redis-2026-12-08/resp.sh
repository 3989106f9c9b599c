#!/bin/bash
# RESP example against redis-server under the same redis-benchmark commands, alternating per combination
cd /work/main
OUT=$1
(sleep 100000 | java -jar features/runtime/target/rouse-runtime.jar > /tmp/w/runtime.log 2>&1) &
redis-server --port 6379 --save '' --appendonly no --daemonize yes > /dev/null
for i in $(seq 1 60); do redis-cli -p 6380 ping 2>/dev/null | grep -q PONG && break; sleep 1; done
redis-cli -p 6380 ping; redis-cli -p 6379 ping
echo "load: $(cat /proc/loadavg)" > $OUT
for port in 6380 6379; do
  redis-benchmark -p $port -c 16 -t ping,set,get -n 100000 -q > /dev/null
  redis-benchmark -p $port -c 16 -P 16 -t ping,set,get -n 400000 -q > /dev/null
done
for c in 16 50; do for P in 1 16; do n=$([ $P = 1 ] && echo 100000 || echo 400000)
  for port in ${ORDER:-6380 6379}; do
    echo "== port $port -c $c -P $P -n $n" >> $OUT
    redis-benchmark -p $port -c $c -P $P -t ping,set,get -n $n -q 2>&1 | tr '\r' '\n' | grep "requests per second" >> $OUT
  done; done; done
echo "end load: $(cat /proc/loadavg)" >> $OUT
redis-cli -p 6379 shutdown nosave
pkill -f rouse-runtime.jar
