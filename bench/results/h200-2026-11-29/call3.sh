# Call 3 (2026-11-29, H200): call 2's ncu runs again with poolprof zeroing the global offsets too
# (%envreg3..5), and a sweep of tiles_3x3s2's tile shapes through poolprof (a diagnostic: unchecked
# timings; a shape worth keeping is then checked and timed by plumbline bench / tune).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/c3; mkdir -p $O
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section LaunchStats --section InstructionStats --section SourceCounters"
BL="-I$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4 -DPOOL_INNER=0"
TL="-I$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DTILE_BR=16 -DTILE_BC=32 -DTILE_WG=128"
.gpu/poolprof $K/pooling.cl max_pool_backward_blocks "$BL" 32 64 112 112 3 2 1 896 2048 128 3 $O/blocks.ptx | tee $O/blocks_run.log
.gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "$TL" 32 64 112 112 3 2 1 1024 2048 128 3 $O/tiles.ptx | tee $O/tiles_run.log
timeout 120 $NCU --clock-control none -k regex:max_pool -s 3 -c 1 $S .gpu/poolprof $K/pooling.cl max_pool_backward_blocks "$BL" 32 64 112 112 3 2 1 896 2048 128 1 $O/x.ptx > $O/ncu_blocks.log 2>&1; echo "ncu blocks rc $?"
timeout 120 $NCU --clock-control none -k regex:max_pool -s 3 -c 1 $S .gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "$TL" 32 64 112 112 3 2 1 1024 2048 128 1 $O/x.ptx > $O/ncu_tiles.log 2>&1; echo "ncu tiles rc $?"
for k in blocks tiles; do echo "== $k"; grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Executed Ipc A|Eligible Warps|No Eligible|Bank|bank" $O/ncu_$k.log | head -40; grep -iE "stall|est\. speedup" $O/ncu_$k.log | cut -c1-260 | head -16; done
for br in 8 16 32; do for bc in 16 32 64; do for wg in 64 128 256; do
  gx=$(( (56 + br - 1) / br * ((56 + bc - 1) / bc) * wg ))
  r=$(.gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "-I$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DTILE_BR=$br -DTILE_BC=$bc -DTILE_WG=$wg" 32 64 112 112 3 2 1 $gx 2048 $wg 3 $O/s.ptx | tail -1)
  echo "BR=$br BC=$bc WG=$wg: $r"
done; done; done | tee $O/sweep.txt
rm -f $O/s.ptx $O/x.ptx
cd $OUT && tar -czf c3.tgz c3 && rm -rf c3
