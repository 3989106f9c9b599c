#!/bin/bash
for i in 1 2 3; do
  for j in main lead2; do
    for n in 711 10000; do
      java -cp /tmp/bench-$j.jar org.rouse.benchmarks.Harness timer-slack --variant "Rouse slack 1 ms, $n" --out /tmp/ab3/$j-$n-$i > /tmp/ab3/$j-$n-$i.log 2>&1
    done
  done
done
echo done > /tmp/ab3/finished
