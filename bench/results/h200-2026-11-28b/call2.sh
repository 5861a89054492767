# Call 2 (stop 56, H200): the H200's first tuning entries, where a paired figure sits near a target:
# gemm_bias_act_bwd's wgmma_split_pairs (the bf16 gelu backward at 2.03x PyTorch, the bound 2.0x;
# no tuned entry on any device) and cross_entropy_bwd's held (60% of the copy bandwidth). Each
# candidate checked before timed (plumbline tune); the database written under $OUT, copied by hand.
# Then the bf16 gelu backward side by side with PyTorch, with and without the new entry.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O/tuning
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
S="MWG=128 NWG=128 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 WGMMA=1 STAGED=1"
timeout 330 $P tune gemm_bias_act_bwd --variant wgmma_split_pairs --device nvidia:0 --budget 240 --db $O/tuning --json $O/tune_gemm.json \
  --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 \
  --start "MWG=128 NWG=256 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 WGMMA=1 STAGES=2 WG_PENDING=0 STAGED=1" \
  --start "MWG=128 NWG=256 KWG=16 MWARPS=8 NWARPS=1 ASYNC=1 WGMMA=1 STAGES=4 WG_PENDING=1 STAGED=1" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 WGMMA=1 STAGES=3 WG_PENDING=1 STAGED=1" \
  --start "MWG=128 NWG=192 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 WGMMA=1 STAGES=2 WG_PENDING=0 STAGED=1" > $O/tune_gemm.log 2>&1; echo "tune gemm rc $?"
tail -4 $O/tune_gemm.log | cut -c1-400
L=$((520 - $(date +%s) + T0)); H=$((L - 110)); echo "held tune with $H s"
[ $H -gt 60 ] && timeout $((H + 60)) $P tune cross_entropy_bwd --variant held --device nvidia:0 --budget $H --db $O/tuning --json $O/tune_held.json \
  --problem cross_entropy_bwd:b=2048,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=2048,c=32000,dtype=f16 > $O/tune_held.log 2>&1; echo "tune held rc $?"
tail -4 $O/tune_held.log | cut -c1-400
cat $O/tuning/*.tuning
echo "gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16" > /tmp/g.batch
L=$((590 - $(date +%s) + T0)); echo "side by side with $L s"
[ $L -gt 40 ] && PLUMBLINE_TUNING_DIR=$O/tuning timeout $L bash bench/side_by_side.sh .gpu/plumbline $O/sbs python3 0.01 --batch /tmp/g.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cat $O/sbs/side_by_side.md 2>/dev/null | tail -2
cd $OUT && tar -czf c2.tgz c2 && rm -rf c2
