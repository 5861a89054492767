# issue15_close/run3: (A) can ncu read an OpenCL kernel here; (B) blocks_3x3s2 with d_y loaded before
# the maxima (.gpu/kE) against the committed form, same defines; (C) softmax/log_softmax
# `resident_short` tuned, then the attention rows and the pool beside PyTorch in one run.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/issue15_close
O=$OUT/run3
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run3); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
echo "ncu: $NCU"
timeout 90 $NCU --clock-control none --target-processes all -c 3 --section SpeedOfLight $B bench --device nvidia:0 --problem $P --variant blocks_3x3s2 --timing launch --repetitions 1 --min-time 0.001 > $O/ncu_try.log 2>&1
grep -v "^==PROF==" $O/ncu_try.log | grep -E "max_pool|Throughput|Duration|WARNING|ERROR|calibr" | head -20
save
D=POOL_BX=128,POOL_BI=1,POOL_BJ=4
for k in main kE main kE; do
  plan=opencl/kernels/pooling.plan; [ $k = kE ] && plan=.gpu/kE/pooling.plan
  timeout 40 $B bench --device nvidia:0 --problem $P --plan $plan --variant blocks_3x3s2 --define $D --timing stream --repetitions 9 --min-time 0.02 > $O/bench_pool_$k.log 2>&1
  echo "$k $(grep @nvidia $O/bench_pool_$k.log | cut -c70-170)"
done
save
for op in softmax log_softmax; do
  timeout 100 $B tune $op --device nvidia:0 --variant resident_short --problem $op:m=32768,n=512 --problem $op:m=256,n=512 --budget 80 --json $O/tune_$op.json > $O/tune_$op.log 2>&1
  tail -2 $O/tune_$op.log | head -1 | cut -c1-220
done
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; save
timeout 150 bash bench/side_by_side.sh $B $O/short python3 0.01 --batch $R/short_rows.batch > $O/short.log 2>&1; save
grep -E "^\|" $O/short/side_by_side.md | cut -d'|' -f2,3,6,7
