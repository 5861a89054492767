# The shape with the per-class entries: cross_entropy_bwd 8192 x 50257 (its check on the host
# takes minutes), `resident` (vocab class) against HEAD's kernels (`quads`), interleaved.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r3; mkdir -p $R; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"; B="$D --repetitions 9 --min-time 0.01"
T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
timeout 560 $P bench $B --problem cross_entropy_bwd:b=8192,c=50257 --baseline-plan .gpu/old/opencl/kernels/softmax.plan --json $R/paired_big.json > $R/paired_big.log 2>&1; t paired_big $?
cut -c1-220 $R/paired_big.log
