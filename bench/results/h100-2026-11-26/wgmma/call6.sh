# Call 6: counters of wgmma against mma.sync (ASYNC=1) on 4096^3 bf16, through ptxprof (sm_90a rewrite) and ncu --set full.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu
O=$OUT/c6; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels
W="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=16 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=4 -DWGMMA=1 -DWG_PENDING=1"
A="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=2 -DASYNC=1 -DSTAGES=2"
.gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$W" 4096 4096 4096 0 5 $O/w.ptx 2>&1 | tail -1
.gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$A" 4096 4096 4096 0 5 $O/a.ptx 2>&1 | tail -1
timeout 150 $NCU --clock-control none --set full -k regex:xgemm_mma -s 2 -c 1 .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$W" 4096 4096 4096 0 1 $O/w.ptx > $O/ncu_w.log 2>&1
timeout 150 $NCU --clock-control none --set full -k regex:xgemm_mma -s 2 -c 1 .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$A" 4096 4096 4096 0 1 $O/a.ptx > $O/ncu_a.log 2>&1
for f in w a; do echo "=== $f"; grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Bank|Shared|L2 Hit|Stall|Warp Cycles|Issue Slot|Block Limit|Tensor|Executed Ipc|Eligible" $O/ncu_$f.log | head -60; done
ptxas -arch=sm_90a $O/w.ptx -o $O/w.cubin > $O/ptxas.log 2>&1 && cuobjdump -sass $O/w.cubin > $O/w.sass 2>&1; gzip $O/w.sass
cd $OUT && tar czf r.tgz c6 && rm -rf c6
