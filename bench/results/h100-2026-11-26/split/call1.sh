# Call 1: gemm_bias_act_bwd's wgmma_split (G as two bf16 parts) checked, timed against xgemm and tuned;
# gemm_bias_act's new class large_plain (act = none) tuned; f16 against bf16 in the wgmma matmul
# (ptxprof, and the epilogue's PTX).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for p in m=1024,k=256,n=1024,act=gelu_tanh batch=2,m=512,k=64,n=1056,act=silu,bshared=1 m=1100,k=100,n=1030,act=relu m=1024,k=24,n=1024,act=gelu_erf; do
  for v in uniform normal edge integers; do
    timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --problem gemm_bias_act_bwd:$p,dtype=bf16 --values $v 2>&1 | tail -2; done; done
 timeout 150 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 --values uniform 2>&1 | tail -2) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head -20
for v in wgmma_split xgemm wgmma_split; do timeout 60 $P bench --device nvidia:0 --variant $v --timing stream --repetitions 9 --min-time 0.01 --batch $R/split/split.batch 2>&1 | grep "^gemm_bias_act_bwd" | cut -c1-250; done | tee $O/bench.log
timeout 200 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split --batch $R/split/split.batch --budget 130 --start "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1" --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1" --start "MWG=128 NWG=192 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1" > $O/tune_split.log 2>&1
timeout 170 $P tune gemm_bias_act --device nvidia:0 --variant wgmma --batch $R/split/plain.batch --budget 100 --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0" --start "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1" --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1" > $O/tune_plain.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
K=opencl/kernels
for d in BF16 F16 BF16 F16; do .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_$d -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=2 -DWGMMA=1 -DWG_PENDING=0" 4096 1024 1024 0 20 $O/m_$d.ptx 2>&1 | tail -1 | sed "s/^/$d /"; done | tee $O/ptxprof.log
for d in BF16 F16; do echo "== $d"; grep -n "cvt\|st.global" $O/m_$d.ptx | head -12; grep -c "" $O/m_$d.ptx; done > $O/ptx_epilogue.log
gzip $O/*.ptx
cd $OUT && tar czf r.tgz c1 && rm -rf c1
