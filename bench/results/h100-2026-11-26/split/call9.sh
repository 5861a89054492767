# Call 9: STAGED=1 the default of gemm.plan's wgmma variants: gemm_bias_act's large entry (128 x 64 x 16,
# 4 stages) with STAGED 0 and 1 on the gelu lines, random checks at the plan's entries, then the 16-bit
# GEMM and backward lines side by side with PyTorch (the final figures).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c9; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
E="MWG=128,NWG=64,KWG=16,MWARPS=8,STAGES=4,WG_PENDING=1"
for r in 1 2; do for st in 0 1; do
  timeout 60 $P bench --device nvidia:0 --variant wgmma --define $E,STAGED=$st --timing stream --repetitions 9 --min-time 0.01 --batch $R/split/gelu16.batch 2>&1 | grep "ms " | cut -c1-150 | sed "s/^/STAGED=$st /"
done; done | tee $O/gelu_entry.log
(for op in matmul gemm_bias_act gemm_bias_act_bwd; do timeout 90 $P check $op --device nvidia:0 --cases 12 --seed 21 2>&1 | tail -1; done) | tee $O/check.log
timeout 200 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/mma/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md | cut -d'|' -f2,3,10
timeout 150 bash bench/side_by_side.sh $P $O/bwd python3 0.01 --batch $R/split/bwd16.batch > $O/bwd.log 2>&1
grep "|" $O/bwd/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c9 && rm -rf c9
