# Checks and paired timings of the working tree's kernels against HEAD's (.gpu/old): group_norm_bwd
# `planes` with co-moments (x and d_y read twice each), `resident` rows past the registers.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R; trap 'tar czf $OUT/r.tgz -C /tmp r' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"; B="$D --repetitions 9 --min-time 0.01"
OLD=.gpu/old/opencl/kernels; T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
timeout 60 $P check group_norm_bwd --variant planes --cases 60 $D > $R/check_gn.log 2>&1; t check_gn $?
for op in softmax log_softmax cross_entropy_bwd; do
  timeout 40 $P check $op --variant resident --define ROW_QUADS=1,ROW_WG=32 --cases 24 --seed 5 $D > $R/check_small_$op.log 2>&1; t check_small_$op $?
  timeout 60 $P check $op --variant resident --cases 30 $D > $R/check_$op.log 2>&1; t check_$op $?
done
grep -h "pass\|FAIL" $R/check_*.log
timeout 60 $P bench $B --batch bench/batches/unet_groupnorm.batch --baseline-plan $OLD/norms.plan --json $R/paired_gn.json > $R/paired_gn.log 2>&1; t paired_gn $?
grep -h "ratio" $R/paired_gn.log | cut -c1-200
timeout 150 $P bench $B --problem softmax:m=2048,n=50257 --problem cross_entropy_bwd:b=2048,c=50257 --baseline-plan $OLD/softmax.plan --json $R/paired_ce.json > $R/paired_ce.log 2>&1; t paired_ce $?
grep -h "ratio" $R/paired_ce.log | cut -c1-200
