# PoCL (this machine's CPUs): `resident` against `quads` on 50257-wide rows, two interleaved rounds.
P=build/apps/plumbline; R=bench/results/pocl-2026-11-25/resident_vocab
for round in 1 2; do
  for op in softmax log_softmax cross_entropy_bwd; do
    a=m; n=n; [ $op = cross_entropy_bwd ] && a=b && n=c
    for v in resident quads; do
      $P bench --device pocl:0 --problem $op:$a=128,$n=50257 --variant $v --repetitions 3 --min-time 0.2 2>&1 | grep " ms " | cut -c1-180 | tee -a $R/bench.log
    done
  done
done
