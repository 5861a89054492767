# Call 1 (stop 49): tiles the tuner never drew for the 16-bit backward's GEMMs. 2 -> 3 stages of
# 128 x 128 x 32 paid 30% (stop 47), so slabs in flight count; one-warpgroup work-groups (64 rows,
# fewer registers) could put 3-4 work-groups on a multiprocessor, each with its own 48 KiB.
# ptxas's registers for each; the tuner on a d_a-like and a d_b-like product; then wgmma_split.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning /tmp/tuning.orig
K=opencl/kernels
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
C=("MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 STAGED=1"
   "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 STAGED=1"
   "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=1 STAGED=1"
   "MWG=64 NWG=192 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 STAGED=1"
   "MWG=64 NWG=256 KWG=16 MWARPS=4 STAGES=4 WG_PENDING=0 STAGED=1"
   "MWG=64 NWG=256 KWG=32 MWARPS=4 STAGES=2 WG_PENDING=0 STAGED=1"
   "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=6 WG_PENDING=0 STAGED=1"
   "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=0 STAGED=1"
   "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 STAGED=1")
S=(); for c in "${C[@]}"; do S+=(--start "$c"); done
for c in "${C[@]}"; do
  D="-I$K -DDTYPE_BF16 -DNWARPS=1 -DASYNC=1 -DWGMMA=1 $(echo $c | sed 's/\([A-Z_]*=\)/-D\1/g')"
  timeout 60 .gpu/ptxprof $K/xgemm_mma.cl none "$D" 1 1 1 0 1 $O/x.ptx > /dev/null 2>&1
  echo "$c: $(ptxas -arch=sm_90a -v $O/x.ptx -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers, used [0-9]* barriers\|Used [0-9]* registers' | head -1) $(ptxas -arch=sm_90a -v $O/x.ptx -o /dev/null 2>&1 | grep -o '[0-9]* bytes smem' | head -1)" | tee -a $O/ptxas.log
done
rm -f $O/x.ptx
for p in "matmul:m=4096,k=8192,n=1024,ta=0,tb=1,dtype=bf16" "matmul:m=1024,k=8192,n=4096,ta=1,tb=0,dtype=bf16"; do
  timeout 110 $P tune matmul --device nvidia:0 --variant wgmma --problem $p --budget 75 "${S[@]}" > $O/tune_$(echo $p | cut -c8-40 | tr ',=' '__').log 2>&1
  echo "rc $?"
done
grep -hE "MWG|winner|pairs" $O/tune_*.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/after_matmul.tuning
cp /tmp/tuning.orig opencl/tuning/nvidia-h100-80gb-hbm3.tuning
timeout 230 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 --budget 190 "${S[@]}" > $O/tune_split.log 2>&1
echo "rc $?"
grep -hE "MWG|winner|pairs" $O/tune_split.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/after_split.tuning
