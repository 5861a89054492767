# Call 4: why the fused epilogue is slow (call 3: 0.319 ms with relu's trivial slope, against Z's GEMM
# 0.096 and G's pass 0.109 apart). ptxas's registers, spills and stack of xgemm_mma_grad_split (slope
# inlined and called) beside xgemm_mma_pre and grad_pre_split (before_split.cl), their PTX from
# ptxprof (kernel name none: it writes the PTX, then stops); ncu's counters of one launch of each
# through plumbline itself (OpenCL), bf16 gelu_tanh at 4096 x 1024 x 4096.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc4
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
O=$OUT/c4; mkdir -p $O
R=bench/results/h100-2026-11-27e/fused
K=opencl/kernels
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
D="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=3 -DWGMMA=1 -DWG_PENDING=0 -DSTAGED=1 -DG_PARTS=13"
timeout 60 .gpu/ptxprof $K/xgemm_mma_backward_split.cl none "$D -DACT_CALL=1" 1 1 1 0 1 $O/fused_call.ptx > /dev/null 2>&1
timeout 60 .gpu/ptxprof $K/xgemm_mma_backward_split.cl none "$D -DACT_CALL=0" 1 1 1 0 1 $O/fused_inline.ptx > /dev/null 2>&1
timeout 60 .gpu/ptxprof $R/before_split.cl none "$D -DCHUNK=64" 1 1 1 0 1 $O/before.ptx > /dev/null 2>&1
for f in fused_call fused_inline before; do
  ptxas -arch=sm_90a -v $O/$f.ptx -o /dev/null 2>&1 | grep -B1 -E "registers|spill|stack" | grep -v "^--" | sed "s/^/$f /" >> $O/ptxas.log
done
grep -E "grad_split|xgemm_mma_pre|grad_pre_split|xgemm_mma'" -A2 $O/ptxas.log | cut -c1-200
M=""
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle drain membar no_instruction; do
  M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"
done
M="$M,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem"
echo "gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16" > /tmp/one.batch
timeout 150 $NCU --clock-control none -k regex:grad_split -c 1 --metrics ${M#,} $P bench --device nvidia:0 --repetitions 1 --min-time 0.001 --batch /tmp/one.batch > $O/ncu_fused.log 2>&1
timeout 150 $NCU --clock-control none -k regex:"grad_pre_split|xgemm_mma_pre" -c 2 --metrics ${M#,} $P bench --device nvidia:0 --repetitions 1 --min-time 0.001 --plan $R/before.plan --batch /tmp/one.batch > $O/ncu_before.log 2>&1
for f in fused before; do echo "=== $f"; grep -E "grad_split|grad_pre_split|xgemm_mma_pre|stalled|duration|throughput|bytes|warps_active|registers|occupancy|==ERR|==WARN" $O/ncu_$f.log | cut -c1-160; done
gzip $O/*.ptx
