# Call 2 (stop 49): call 1 found the 56x56 1x1 layer (c=256, k=128: two output tiles) at 4-6x PyTorch's
# time, split 16 ways (32 work-groups); the class mixed it with 3x3 layers of 36 tiles. conv.plan now
# gives 1x1 layers of at most 4 tiles a class of their own (few_tiles), with splits up to 128 in the
# space: checks, its tune, then the medium layers side by side again.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/w2; mkdir -p $O
R=bench/results/h100-2026-11-27f/bwd_weight_medium
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 230 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/tune2.batch --budget 180 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=64" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=128" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 PIXELS_M=0 SPLITS=64" \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=32" \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 PIXELS_M=0 SPLITS=48" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs|medium \[|tiles \[" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
for p in n=32,c=256,h=56,w=56,k=128,r=1,s=1,dtype=bf16 n=3,c=200,h=9,w=11,k=100,r=1,s=1,dtype=f16 n=5,c=130,h=7,w=9,k=300,r=1,s=1,dtype=bf16; do
  for v in edge normal; do
    timeout 60 $P check conv2d_bwd_weight --device nvidia:0 --problem conv2d_bwd_weight:$p --values $v >> $O/check.log 2>&1 || echo "rc $? $p $v" >> $O/check.log
  done
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
timeout 150 bash bench/side_by_side.sh $P $O/after python3 0.01 --batch $R/medium16.batch > $O/after.log 2>&1
grep -o "variant [a-z_0-9@]*" $O/after/ours.log | sort | uniq -c
tail -8 $O/after/side_by_side.md 2>/dev/null || tail -5 $O/after.log
