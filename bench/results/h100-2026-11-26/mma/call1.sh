# Call 1: the tensor-core matmul (xgemm_mma.cl) on the H100: feature detection, registers, checks,
# side by side with PyTorch at the plan's defaults, a tuning run, side by side again with its entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma
O=$OUT/c1; mkdir -p $O
P=.gpu/plumbline
$P devices > $O/devices.log 2>&1
D="-DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -cl-nv-verbose -I."
( cd opencl/kernels && for t in F16 BF16; do ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_$t $D"; done ) > $O/kinfo.log 2>&1
timeout 120 $P check matmul --device nvidia:0 --variant mma --cases 48 > $O/check.log 2>&1 || { cd $OUT && tar czf r.tgz c1 && rm -rf c1; exit 1; }
grep -v '^#' $R/matmul16.batch | while read -r line; do for v in normal edge; do timeout 60 $P check matmul --device nvidia:0 --variant mma --problem "$line" --values $v >> $O/check_bench.log 2>&1; done; done
timeout 100 $P bench --device nvidia:0 --variant xgemm --timing stream --repetitions 9 --min-time 0.01 --batch $R/matmul16.batch --json $O/xgemm.json > $O/xgemm.log 2>&1
timeout 150 bash bench/side_by_side.sh $P $O/sbs_default python3 0.01 --batch $R/matmul16.batch > $O/sbs_default.log 2>&1
timeout 200 $P tune matmul --device nvidia:0 --variant mma --batch $R/matmul16.batch --budget 150 --json $O/tune.json > $O/tune.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/sbs_tuned python3 0.01 --batch $R/matmul16.batch > $O/sbs_tuned.log 2>&1
cd $OUT && tar czf r.tgz c1 && rm -rf c1
