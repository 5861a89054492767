# Call 2: why ASYNC=1 runs slower than the ring (call 1): ncu through ptxprof (as stop 39's calls 7 and 9)
# on the 4096 x 1024 x 3072 tb=1 product, the SASS of ASYNC=1 at 128 x 128 x 32.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
O=$OUT/c2; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels
T="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4"
M=""
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle dispatch_stall not_selected selected no_instruction branch_resolving tex_throttle membar drain imc_miss sleeping; do
  M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"
done
M="$M,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_op_ldsm.sum,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__registers_per_thread,launch__shared_mem_config_size"
i=0
for d in "-DKWG=32 -DASYNC=0 -DPREFETCH=2" "-DKWG=32 -DASYNC=1 -DSTAGES=2" "-DKWG=16 -DASYNC=1 -DSTAGES=4"; do
  i=$((i+1)); echo "== $i: $d"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 3072 1 5 $O/k$i.ptx 2>&1 | tail -2
  timeout 100 $NCU --clock-control none -k regex:xgemm_mma -s 3 -c 1 --metrics ${M#,} .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu$i.log 2>&1
  grep -E "stalled|inst_executed|hmma|warps_active|conflicts|occupancy|registers|config" $O/ncu$i.log | awk '{print $1, $NF}' | sed 's/smsp__warp_issue_stalled_//'
done
ptxas -arch=sm_90a $O/k2.ptx -o $O/k2.cubin > $O/ptxas.log 2>&1 && cuobjdump -sass $O/k2.cubin > $O/k2.sass 2>&1; gzip $O/k2.sass
cd $OUT && tar czf r.tgz c2 && rm -rf c2
