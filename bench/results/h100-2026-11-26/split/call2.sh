# Call 2: f16's pair stores packed in registers (storage.h) against vstorea_half2_rte in the wgmma matmul
# (ptxprof, old storage.h from .gpu/old_storage.h); wgmma_split tuned now that its condition is
# attribute comparisons the tuner can draw problems for; the matmul lines timed.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
K=opencl/kernels
rm -rf /tmp/oldk && cp -r $K /tmp/oldk && cp .gpu/old_storage.h /tmp/oldk/storage.h
W="-DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=2 -DWGMMA=1 -DWG_PENDING=0"
for r in 1 2; do
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 $W" 4096 1024 1024 0 20 $O/bf16.ptx 2>&1 | tail -1 | sed "s/^/bf16 /"
  .gpu/ptxprof /tmp/oldk/xgemm_mma.cl xgemm_mma "-I/tmp/oldk -DDTYPE_F16 $W" 4096 1024 1024 0 20 $O/f16_old.ptx 2>&1 | tail -1 | sed "s/^/f16 vstorea_half2_rte /"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_F16 $W" 4096 1024 1024 0 20 $O/f16_new.ptx 2>&1 | tail -1 | sed "s/^/f16 packed /"
done | tee $O/ptxprof.log
grep -c "st.global.u16" $O/f16_old.ptx $O/f16_new.ptx $O/bf16.ptx | tee $O/stores.log
grep -c "st.global.v2.u16\|st.global.u32\|st.global.b32" $O/f16_old.ptx $O/f16_new.ptx $O/bf16.ptx | tee -a $O/stores.log
gzip $O/*.ptx
timeout 40 $P check matmul --device nvidia:0 --variant wgmma --problem matmul:m=1000,k=200,n=600,dtype=f16 --values uniform 2>&1 | tail -1 | tee $O/check.log
timeout 60 $P check matmul --device nvidia:0 --cases 8 --seed 11 2>&1 | tail -1 | tee -a $O/check.log
timeout 280 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --batch $R/split/split.batch --budget 200 --start "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1" --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1" --start "MWG=128 NWG=192 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1" > $O/tune_split.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
for v in wgmma_split xgemm wgmma_split; do timeout 60 $P bench --device nvidia:0 --variant $v --timing stream --repetitions 9 --min-time 0.01 --batch $R/split/split.batch 2>&1 | grep "^gemm_bias_act_bwd" | cut -c1-250; done | tee $O/bench.log
timeout 60 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch $R/mma/gemm16.batch 2>&1 | grep "^matmul\|^gemm" | cut -c1-220 | tee $O/bench16.log
cd $OUT && tar czf r.tgz c2 && rm -rf c2
