# Call 9: where xgemm_mma's warps stall (ncu's stall reasons, through ptxprof), at the large entry.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
O=$OUT/c9; mkdir -p $O
K=opencl/kernels
L="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=2"
M=""
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle dispatch_stall not_selected selected no_instruction branch_resolving tex_throttle membar drain imc_miss sleeping; do
  M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"
done
timeout 150 $NCU --clock-control none -k regex:xgemm_mma -s 3 -c 1 --metrics ${M#,},smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active --section WarpStateStats --print-details all \
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$L" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu_stalls.log 2>&1
grep -E "stalled|inst_executed|hmma|Stall" $O/ncu_stalls.log
cd $OUT && tar czf r.tgz c9 && rm -rf c9
