# Call 5: launch.cpp's local-memory check now counts the PTX's declarations on NVIDIA (runtime.hpp,
# ptx_local_bytes): checks of the wgmma variants at their defaults (conv's too), then the tunes of the
# wgmma GEMM variants (the 3-stage defaults against the 2-stage entries, and neighbours).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c5; mkdir -p $O
R=bench/results/h100-2026-11-27d/core
P=.gpu/plumbline
(for ov in "matmul wgmma 6" "conv2d wgmma_gemm 4" "conv2d wgmma_igemm 4" "conv2d_bwd_data wgmma_gemm 4" "conv2d_bwd_data wgmma_igemm 4"; do set -- $ov
   timeout 60 $P check $1 --device nvidia:0 --variant $2 --cases $3 --seed 51 2>&1 | tail -1; done
 timeout 60 $P check conv2d --device nvidia:0 --variant wgmma_igemm_split --problem conv2d:n=8,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1,dtype=bf16 2>&1 | tail -1
 timeout 60 $P check conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --problem conv2d_bwd_weight:n=8,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1,dtype=bf16 2>&1 | tail -1
) > $O/check.log 2>&1
cat $O/check.log
timeout 100 $P tune matmul --device nvidia:0 --variant wgmma --batch $R/matmul16.batch --budget 75 \
  --start "MWG=64 NWG=128 KWG=64 MWARPS=4 STAGES=2 WG_PENDING=0 STAGED=1" > $O/tune_matmul.log 2>&1
timeout 100 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/bias_act16.batch --budget 75 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 STAGED=1" --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=1" > $O/tune_bias_act.log 2>&1
grep "act=none" $R/bwd16.batch > /tmp/linear.batch; grep "bf16" $R/bwd16.batch | grep gelu > /tmp/split.batch; grep "f16" $R/bwd16.batch | grep -v bf16 > /tmp/split3.batch
timeout 70 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_linear --batch /tmp/linear.batch --budget 40 > $O/tune_linear.log 2>&1
timeout 80 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --batch /tmp/split.batch --budget 50 > $O/tune_split.log 2>&1
timeout 90 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split3 --batch /tmp/split3.batch --budget 55 > $O/tune_split3.log 2>&1
grep -h "^winner\|best so far\|invalid" $O/tune_*.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
