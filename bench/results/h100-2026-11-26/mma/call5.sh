# Call 5: the mma variants of matmul and gemm_bias_act (one core, xgemm_mma.h): checked, tuned,
# then side by side with PyTorch at the new entries, and xgemm on the same problems (the before).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma
O=$OUT/c5; mkdir -p $O
P=.gpu/plumbline
( cd opencl/kernels && ../../.gpu/kinfo/kinfo xgemm_mma_bias_act.cl xgemm_mma_bias_act "-DDTYPE_BF16 -cl-nv-verbose -I." | grep -E "Used|limit" ) > $O/kinfo.log 2>&1
for op in matmul gemm_bias_act; do timeout 120 $P check $op --device nvidia:0 --variant mma --cases 40 --seed 11 >> $O/check.log 2>&1; done
S1="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 PREFETCH=2"; S2="MWG=256 NWG=128 KWG=16 MWARPS=4 NWARPS=2 PREFETCH=2"; S3="MWG=128 NWG=256 KWG=16 MWARPS=2 NWARPS=4 PREFETCH=2"
timeout 170 $P tune matmul --device nvidia:0 --variant mma --batch $R/gemm16.batch --budget 140 --start "$S1" --start "$S2" --start "$S3" --json $O/tune_matmul.json > $O/tune_matmul.log 2>&1
timeout 130 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $R/gemm16.batch --budget 100 --start "$S1" --start "$S2" --start "$S3" --json $O/tune_gba.json > $O/tune_gba.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 100 $P bench --device nvidia:0 --variant xgemm --timing stream --repetitions 9 --min-time 0.01 --batch $R/gemm16.batch --json $O/xgemm.json > $O/xgemm.log 2>&1
timeout 170 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/gemm16.batch > $O/sbs.log 2>&1
cd $OUT && tar czf r.tgz c5 && rm -rf c5
