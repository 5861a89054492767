# Call 1: what bounds the wgmma core at ~300 TFLOP/s: tile shapes the plan's tune line does not reach
# (3 and 4 warpgroups: 192 and 256 rows), timed through ptxprof (CUDA events, 10 launches a round, no
# check: a diagnostic), ptxas's registers for each, and ncu's counters on the default and one large tile.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
O=$OUT/c1; mkdir -p $O
K=opencl/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
PROBS="4096 1024 3072 1 8192 4096 1024 0 4096 8192 1024 1 4096 4096 4096 0"
cfg() { echo "-I$K -DDTYPE_BF16 -DMWG=$1 -DNWG=$2 -DKWG=$3 -DMWARPS=$(($1/16)) -DNWARPS=1 -DASYNC=1 -DSTAGES=$4 -DWGMMA=1 -DWG_PENDING=$5 -DSTAGED=$6"; }
for c in "128 128 32 2 0 1" "128 128 32 2 0 0" "128 128 16 4 1 1" "128 256 16 3 0 1" "128 256 16 3 1 1" "256 128 16 3 0 1" "256 128 16 3 1 1" \
         "192 128 32 2 0 1" "192 128 16 4 1 1" "128 192 16 4 1 1" "192 192 16 3 0 1" "192 192 16 3 1 1" "256 64 32 2 0 1" "256 128 16 2 0 1"; do
  set -- $c; n=w$1x$2x$3s$4p$5t$6
  echo "== $n" >> $O/times.log
  timeout 60 .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$(cfg $@)" ${PROBS%% 8192*} 3 $O/$n.ptx ${PROBS#4096 1024 3072 1 } >> $O/times.log 2>&1
  ptxas -arch=sm_90a -v $O/$n.ptx -o /dev/null 2>&1 | grep -E "registers|spill|serializ" | sed "s/^/$n /" >> $O/ptxas.log
done
cat $O/ptxas.log
grep -E "==|problem|round 2" $O/times.log
M=""
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait lg_throttle dispatch_stall not_selected selected no_instruction membar sleeping; do
  M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"
done
M="$M,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,gpu__time_duration.sum"
for c in "128 128 32 2 0 1" "256 128 16 3 0 1"; do
  set -- $c; n=w$1x$2x$3s$4p$5t$6
  timeout 120 $NCU --clock-control none -k regex:xgemm_mma -s 2 -c 1 --metrics ${M#,} --section SpeedOfLight \
    .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$(cfg $@)" 8192 4096 1024 0 1 /tmp/x.ptx > $O/ncu_$n.log 2>&1
  echo "=== ncu $n"; grep -E "stalled|gmma|lts__|l1tex|duration|Throughput" $O/ncu_$n.log
done
gzip $O/*.ptx
