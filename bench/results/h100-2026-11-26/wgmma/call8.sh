# Call 8: gemm.plan's wgmma variants checked on random problems, then matmul's and gemm_bias_act's tuned.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c8; mkdir -p $O
R=bench/results/h100-2026-11-26/wgmma
P=.gpu/plumbline
timeout 90 $P check matmul --device nvidia:0 --variant wgmma --cases 16 --seed 21 2>&1 | tail -1 | tee $O/check.log
timeout 90 $P check gemm_bias_act --device nvidia:0 --variant wgmma --cases 12 --seed 21 2>&1 | tail -1 | tee -a $O/check.log
timeout 120 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_linear --cases 8 --seed 21 2>&1 | tail -1 | tee -a $O/check.log
S1="MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0"; S2="MWG=64 NWG=256 KWG=16 MWARPS=4 STAGES=4 WG_PENDING=1"
S3="MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=1"; S4="MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1"
timeout 230 $P tune matmul --device nvidia:0 --variant wgmma --batch $R/matmul16.batch --budget 160 --start "$S1" --start "$S2" --start "$S3" --start "$S4" > $O/tune_matmul.log 2>&1
timeout 200 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/bias_act16.batch --budget 130 --start "$S1" --start "$S2" --start "$S3" --start "$S4" > $O/tune_bias_act.log 2>&1
grep -h "^winner\|entry\|wrote" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c8 && rm -rf c8
