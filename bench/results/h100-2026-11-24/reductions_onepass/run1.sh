set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for op in sum mean bias_add_bwd; do timeout 60 $P check $op --cases 100 --device nvidia:0 --seed 28 > $R/check_$op.log 2>&1; tail -1 $R/check_$op.log; done
for p in sum:m=4096,n=4096,over=all mean:m=1,n=16777216,over=row bias_add_bwd:m=4096,n=4096 bias_add_bwd:m=4097,n=4099,dtype=bf16; do timeout 60 $P check --problem $p --device nvidia:0 --values normal 2>&1 | tail -1; done
timeout 110 $P tune sum --variant onepass --batch .gpu/s28/sums.batch --device nvidia:0 --budget 80 > $R/tune_sum.log 2>&1; tail -3 $R/tune_sum.log
timeout 110 $P tune mean --variant onepass --batch .gpu/s28/means.batch --device nvidia:0 --budget 70 > $R/tune_mean.log 2>&1; tail -3 $R/tune_mean.log
timeout 130 $P tune bias_add_bwd --variant fused --problem bias_add_bwd:m=4096,n=4096 --device nvidia:0 --budget 100 > $R/tune_bab.log 2>&1; tail -3 $R/tune_bab.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
for round in 1 2; do
  timeout 60 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch .gpu/s28/red.batch --json $R/ours_$round.json > $R/ours_$round.log 2>&1
  timeout 60 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch .gpu/s28/red.batch --variant split --json $R/split_$round.json > $R/split_$round.log 2>&1
done
timeout 90 python3 bench/peers/torch_peer.py $R/ours_2.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
python3 bench/side_by_side.py $R/ours_2.json $R/torch.json --json $R/sbs.json --markdown $R/sbs.md; cat $R/sbs.md
grep -h "ms" $R/split_2.log | head -20
tar czf $OUT/r.tgz -C /tmp r
