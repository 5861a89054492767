# Call 2 (call 1 again, now that the runtime builds the sm_90a PTX): wgmma from our slabs, right? Then its tiles against the ASYNC=1 entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O
R=bench/results/h100-2026-11-26/wgmma
P=.gpu/plumbline
# (1) one problem, its whole output (a build error shows here)
timeout 60 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant w128x128x32s2p0 --problem matmul:m=128,k=64,n=128,dtype=bf16 --values normal 2>&1 | head -40
# (2) small problems in each layout and format
for v in w128x128x32s3p1 w128x128x32s2p0; do for p in m=128,k=64,n=128,ta=0,tb=0 m=128,k=64,n=128,ta=1,tb=0 m=128,k=64,n=128,ta=0,tb=1 m=128,k=64,n=128,ta=1,tb=1 m=200,k=100,n=150,ta=1,tb=0 batch=2,m=70,k=130,n=66,ta=0,tb=1; do for d in bf16 f16; do
  timeout 60 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant $v --problem matmul:$p,dtype=$d --values normal 2>&1 | tail -1 | sed "s/^/$v $p $d: /"; done; done; done > $O/small.log 2>&1
cat $O/small.log
for p in m=128,k=64,n=128,ta=1,tb=0 m=128,k=64,n=128,ta=0,tb=0 m=128,k=64,n=128,ta=1,tb=1; do timeout 60 $P check matmul --device nvidia:0 --plan $R/swap.plan --problem matmul:$p,dtype=bf16 --values normal 2>&1 | tail -1 | sed "s/^/swap $p: /"; done | tee $O/swap.log
# (3) random problems on every tile
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do timeout 90 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant $v --cases 10 --seed 11 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee $O/random.log
# (4) times: the ASYNC=1 entries (gemm.plan's mma), then each tile
timeout 120 $P bench --device nvidia:0 --variant mma --timing stream --repetitions 7 --min-time 0.01 --batch $R/matmul16.batch > $O/bench_mma.log 2>&1
grep -v "^#" $O/bench_mma.log | tail -12
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do echo "== $v"; timeout 100 $P bench --device nvidia:0 --plan $R/wgmma.plan --variant $v --timing stream --repetitions 7 --min-time 0.01 --batch $R/matmul16.batch 2>&1 | grep -v "^#" | tail -8; done > $O/bench_wgmma.log 2>&1
cat $O/bench_wgmma.log
cd $OUT && tar czf r.tgz c2 && rm -rf c2
