# Call 7: the slabs in wgmma's swizzled atoms (call 6: 74% of shared wavefronts excessive on the interleaved layout): checks, then times.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c7; mkdir -p $O
R=bench/results/h100-2026-11-26/wgmma
P=.gpu/plumbline
(cd opencl/kernels && for cfg in "128 128 16 4 1"; do set -- $cfg; echo "== MWG=$1 NWG=$2 KWG=$3 STAGES=$4 WG_PENDING=$5"; \
  KINFO_PTX=$O/w$1x$2x$3.ptx timeout 60 ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=$1 -DNWG=$2 -DKWG=$3 -DMWARPS=$(($1/16)) -DNWARPS=1 -DASYNC=1 -DSTAGES=$4 -DWGMMA=1 -DWG_PENDING=$5 -cl-nv-verbose -I." 2>&1 | grep -v "^$" | tail -12; done) > $O/build.log 2>&1
grep -c "injected" $O/build.log; grep "Used\|error" $O/build.log
for v in w128x128x16s4p1 w128x128x32s2p0; do for p in m=128,k=64,n=128,ta=0,tb=0 m=128,k=64,n=128,ta=1,tb=0 m=128,k=64,n=128,ta=0,tb=1 m=128,k=64,n=128,ta=1,tb=1 m=200,k=100,n=150,ta=1,tb=0 batch=2,m=70,k=130,n=66,ta=0,tb=1; do for d in bf16 f16; do
  timeout 60 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant $v --problem matmul:$p,dtype=$d --values normal 2>&1 | tail -1 | sed "s/^/$v $p $d: /"; done; done; done > $O/small.log 2>&1
grep -c pass $O/small.log; grep -v pass $O/small.log | head -5 | cut -c1-300
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do timeout 90 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant $v --cases 8 --seed 12 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee $O/random.log | cut -c1-200
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do echo "== $v"; timeout 60 $P bench --device nvidia:0 --plan $R/wgmma.plan --variant $v --timing stream --repetitions 7 --min-time 0.01 --batch $R/matmul16.batch 2>&1 | grep -v "^#\|^  \|peaks measured" | tail -8; done > $O/bench_wgmma.log 2>&1
cat $O/bench_wgmma.log | cut -c1-150
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
W="-Iopencl/kernels -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=16 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=4 -DWGMMA=1 -DWG_PENDING=1"
.gpu/ptxprof opencl/kernels/xgemm_mma.cl xgemm_mma "$W" 4096 4096 4096 0 5 $O/w.ptx 2>&1 | tail -1
timeout 100 $NCU --clock-control none --set full -k regex:xgemm_mma -s 2 -c 1 .gpu/ptxprof opencl/kernels/xgemm_mma.cl xgemm_mma "$W" 4096 4096 4096 0 1 $O/w.ptx > $O/ncu_w.log 2>&1
grep -E "Duration|L2 Cache Throughput|L1/TEX Cache|Registers Per|excessive|Tensor|Warp Cycles Per Issued" $O/ncu_w.log | head
cd $OUT && tar czf r.tgz c7 && rm -rf c7
