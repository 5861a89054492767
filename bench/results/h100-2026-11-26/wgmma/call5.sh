# Call 5: the loop instantiated per layout (ta, tb constant): ptxas's word again, then checks and times of the tiles.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c5; mkdir -p $O
R=bench/results/h100-2026-11-26/wgmma
P=.gpu/plumbline
(cd opencl/kernels && for cfg in "128 128 16 4 1" "128 128 32 2 0"; do set -- $cfg; echo "== MWG=$1 NWG=$2 KWG=$3 STAGES=$4 WG_PENDING=$5"; \
  KINFO_PTX=$O/w$1x$2x$3.ptx timeout 60 ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=$1 -DNWG=$2 -DKWG=$3 -DMWARPS=$(($1/16)) -DNWARPS=1 -DASYNC=1 -DSTAGES=$4 -DWGMMA=1 -DWG_PENDING=$5 -cl-nv-verbose -I." 2>&1 | grep -v "^$" | tail -12; done) > $O/build.log 2>&1
grep -c "injected" $O/build.log; grep "Used\|error" $O/build.log
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do timeout 90 $P check matmul --device nvidia:0 --plan $R/wgmma.plan --variant $v --cases 8 --seed 12 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee $O/random.log | cut -c1-200
for v in $(grep ^variant $R/wgmma.plan | cut -d' ' -f2); do echo "== $v"; timeout 100 $P bench --device nvidia:0 --plan $R/wgmma.plan --variant $v --timing stream --repetitions 7 --min-time 0.01 --batch $R/matmul16.batch 2>&1 | grep -v "^#\|^  \|peaks measured" | tail -8; done > $O/bench_wgmma.log 2>&1
cat $O/bench_wgmma.log | cut -c1-150
cd $OUT && tar czf r.tgz c5 && rm -rf c5
