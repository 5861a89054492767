# Call 3: the wgmma variants at 48 KiB (gemm.plan/conv.plan defaults now 128 x 128 x 32 at 3 stages; the
# require lines without the 1 KiB margin): checks of every wgmma variant at its defaults (classes
# without an H100 entry run them), then matmul's and gemm_bias_act's tunes.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
R=bench/results/h100-2026-11-27d/core
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for ov in "matmul wgmma 10" "gemm_bias_act wgmma 8" "gemm_bias_act_bwd wgmma_linear 6" "conv2d wgmma_gemm 4" "conv2d wgmma_igemm 4" \
          "conv2d_bwd_data wgmma_gemm 4" "conv2d_bwd_data wgmma_igemm 4"; do set -- $ov
   timeout 60 $P check $1 --device nvidia:0 --variant $2 --cases $3 --seed 31 2>&1 | tail -2; done
 for p in m=1024,k=1024,n=1024,act=gelu_tanh m=2048,k=1030,n=1026,act=silu; do for d in bf16 f16; do
   v=wgmma_split; [ $d = f16 ] && v=wgmma_split3
   timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant $v --problem gemm_bias_act_bwd:$p,dtype=$d --values normal 2>&1 | tail -1; done; done
 timeout 60 $P check conv2d --device nvidia:0 --variant wgmma_igemm_split --problem conv2d:n=8,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1,dtype=bf16 2>&1 | tail -1
 timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant wgmma_igemm_split --problem conv2d_bwd_data:n=8,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1,dtype=bf16 2>&1 | tail -1
 timeout 60 $P check conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --problem conv2d_bwd_weight:n=8,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1,dtype=bf16 2>&1 | tail -1
) > $O/check.log 2>&1
cat $O/check.log
timeout 130 $P tune matmul --device nvidia:0 --variant wgmma --batch $R/matmul16.batch --budget 100 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 STAGED=0" --start "MWG=64 NWG=128 KWG=64 MWARPS=4 STAGES=2 WG_PENDING=0 STAGED=1" > $O/tune_matmul.log 2>&1
timeout 140 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/bias_act16.batch --budget 110 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 STAGED=1" --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=1 STAGED=1" > $O/tune_bias_act.log 2>&1
grep -h "^winner\|best so far\|wrong\|invalid" $O/tune_*.log | cut -c1-230
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
