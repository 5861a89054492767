# Call 7 (stop 53): the landed forms (8526b4d) side by side (the forward's gelu_tanh lines and the gelu
# backwards), then gemm_bias_act's wgmma tuned again on the entry's two problems: its entry (128 x 64 x 32,
# 4 stages) was chosen against the epilogue's old form; the plan's defaults ran 0.118 ms in call 6 with the new one.
# Then the side by side again with whatever entry the tune left.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t7; mkdir -p $O
R=bench/results/h100-2026-11-28b/tile
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 90 bash bench/side_by_side.sh $P /tmp/sbsA python3 0.01 --batch $R/sbs4.batch > /tmp/sbsA.log 2>&1
cp /tmp/sbsA/side_by_side.md $O/sbsA.md; grep gemm_bias $O/sbsA.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
s=$(date +%s)
timeout 210 $P tune gemm_bias_act --variant wgmma --device nvidia:0 --budget 150 --json $O/tune.json \
  --problem gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 --problem gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=f16 \
  --start 'MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 STAGED=1' > $O/tune.log 2>&1
echo "== tune rc $? in $(( $(date +%s) - s )) s"; grep -iE "entry|winner|pairs|wrote|kept|large" $O/tune.log | tail -8 | cut -c1-300
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 90 bash bench/side_by_side.sh $P /tmp/sbsB python3 0.01 --batch $R/sbs4.batch > /tmp/sbsB.log 2>&1
cp /tmp/sbsB/side_by_side.md $O/sbsB.md; grep gemm_bias $O/sbsB.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
tar -C $OUT -czf $OUT/t7.tgz t7 && rm -rf $O
