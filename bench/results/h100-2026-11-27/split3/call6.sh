# Call 6: the wgmma GEMM classes of the three lines still above 2x PyTorch tuned with STAGED in the
# search (matmul large: tb=1; gemm_bias_act large: gelu; large_plain: none), then the GEMM lines side
# by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c6; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 150 $P tune matmul --device nvidia:0 --variant wgmma --batch $R/tb1.batch --budget 110 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=0" --start "MWG=128 NWG=192 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=1" \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=1" --start "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1 STAGED=1" > $O/tune_tb1.log 2>&1
timeout 150 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/gelu16.batch --budget 110 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=1" --start "MWG=128 NWG=64 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=0" \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=1" --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=1 STAGED=1" > $O/tune_gelu.log 2>&1
timeout 110 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/plain.batch --budget 75 \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=1" --start "MWG=128 NWG=192 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=1" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=0" > $O/tune_plain.log 2>&1
grep -h "^winner\|best so far" $O/tune_*.log | cut -c1-230
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 110 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c6 && rm -rf c6
