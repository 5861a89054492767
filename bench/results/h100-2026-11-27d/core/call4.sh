# Call 4: does NVIDIA's OpenCL launch a wgmma kernel of 48 KiB of slabs? CL_KERNEL_LOCAL_MEM_SIZE says
# 50176 (1024 over: the array's 1024-byte alignment), ptxas 49152. plumbline_exp: launch.cpp's local-memory
# check relaxed by 1024 bytes (an experiment, not committed). Checks at the plan's defaults (no tuning
# entries: 128 x 128 x 32, 3 stages), then the 16-bit GEMM lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/notune
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=/tmp/notune PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c4; mkdir -p $O
R=bench/results/h100-2026-11-27d/core
P=.gpu/plumbline_exp
(timeout 60 $P check matmul --device nvidia:0 --variant wgmma --cases 8 --seed 41 2>&1 | tail -3
 timeout 60 $P check gemm_bias_act --device nvidia:0 --variant wgmma --cases 6 --seed 41 2>&1 | tail -2
 timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_linear --cases 4 --seed 41 2>&1 | tail -2
 for d in bf16 f16; do v=wgmma_split; [ $d = f16 ] && v=wgmma_split3
   timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant $v --problem gemm_bias_act_bwd:m=2048,k=1030,n=1026,act=silu,dtype=$d --values normal 2>&1 | tail -1; done
) > $O/check.log 2>&1
cat $O/check.log
timeout 300 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/matmul16.batch --batch $R/bias_act16.batch --batch $R/bwd16.batch > $O/sbs.log 2>&1
tail -3 $O/sbs.log
cat $O/sbs/side_by_side.md
cp $O/sbs/side_by_side.md $O/; rm -rf $O/sbs
