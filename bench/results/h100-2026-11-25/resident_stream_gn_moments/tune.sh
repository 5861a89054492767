# Tune the `resident` variants' ROW_WG x ROW_QUADS on vocabulary rows of 32000 and 50257 (1024 rows:
# each candidate's check at full size stays near 10 s).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/t; mkdir -p $R; trap 'cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/t.tgz -C /tmp t' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"
S="--start 'ROW_WG=512 ROW_QUADS=25' --start 'ROW_WG=1024 ROW_QUADS=13' --start 'ROW_WG=256 ROW_QUADS=50' --start 'ROW_WG=1024 ROW_QUADS=16'"
T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
eval timeout 300 $P tune cross_entropy_bwd --variant resident --problem cross_entropy_bwd:b=1024,c=50257 --problem cross_entropy_bwd:b=1024,c=32000 $D --budget 250 $S --json $R/tune_ce_bwd.json > $R/tune_ce_bwd.log 2>&1; t tune_ce_bwd $?
eval timeout 250 $P tune softmax --variant resident --problem softmax:m=1024,n=50257 --problem softmax:m=1024,n=32000 $D --budget 200 $S --json $R/tune_softmax.json > $R/tune_softmax.log 2>&1; t tune_softmax $?
cat $R/tune_ce_bwd.log $R/tune_softmax.log | cut -c1-250
