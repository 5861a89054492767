# Call 2 (2026-11-29, H200): max_pool2d_bwd's `tiles_3x3s2` with its gather a few blocks a work-item
# (windows read once into registers) against `blocks_3x3s2` by --variant, f32 and bf16; then both under
# ncu through CUDA (poolprof/poolprof.cpp: ncu sees no OpenCL kernel here), and their registers (ptxas -v).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/c2; mkdir -p $O
P=$PWD/.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
M="max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1"
for v in blocks_3x3s2 tiles_3x3s2; do
  timeout 60 $P bench $B --variant $v --json $O/$v.json --problem $M --problem $M,dtype=bf16 > $O/$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/$v.json | tee -a $O/share.txt
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section LaunchStats --section InstructionStats"
BL="-I$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4 -DPOOL_INNER=0"
TL="-I$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DTILE_BR=16 -DTILE_BC=32 -DTILE_WG=128"
.gpu/poolprof $K/pooling.cl max_pool_backward_blocks "$BL" 32 64 112 112 3 2 1 896 2048 128 3 $O/blocks.ptx | tee $O/blocks_run.log
.gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "$TL" 32 64 112 112 3 2 1 1024 2048 128 3 $O/tiles.ptx | tee $O/tiles_run.log
.gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "${TL/F32/BF16}" 32 64 112 112 3 2 1 1024 2048 128 3 $O/tiles16.ptx | tee $O/tiles16_run.log
for k in blocks tiles; do ptxas -arch=sm_90 -v $O/$k.ptx -o $O/$k.cubin > $O/${k}_ptxas.log 2>&1; grep -h "registers\|spill" $O/${k}_ptxas.log; done
timeout 120 $NCU --clock-control none -k regex:max_pool -s 3 -c 1 $S .gpu/poolprof $K/pooling.cl max_pool_backward_blocks "$BL" 32 64 112 112 3 2 1 896 2048 128 1 $O/x.ptx > $O/ncu_blocks.log 2>&1; echo "ncu blocks rc $?"
timeout 120 $NCU --clock-control none -k regex:max_pool -s 3 -c 1 $S .gpu/poolprof $K/pooling_tiles.cl max_pool_backward_tiles "$TL" 32 64 112 112 3 2 1 1024 2048 128 1 $O/x.ptx > $O/ncu_tiles.log 2>&1; echo "ncu tiles rc $?"
for k in blocks tiles; do echo "== $k"; grep -E "Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Executed Ipc A|Eligible Warps|No Eligible|Stall|stall" $O/ncu_$k.log | head -40; done
cd $OUT && tar -czf c2.tgz c2 && rm -rf c2
