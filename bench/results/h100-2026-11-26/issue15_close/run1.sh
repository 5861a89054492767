# issue15_close/run1: (A) checks of this stop's kernels on the H100: max_pool2d_bwd blocks with d_y read
# as quads (at the tuned shape and others), softmax/log_softmax `resident_short`, cross_entropy_bwd
# `resident` in 16 bits with its quads held as stored; (B) ptxas's registers; (C) timings, back to
# back: max_pool2d_bwd paired against HEAD's kernels, resident_short against quads@short, 16-bit
# resident against quads; (D) ncu's counters of max_pool_backward_blocks.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run1
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run1); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
K=opencl/kernels
# (A)
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --cases 30 --seed 51 > $O/check_pool.log 2>&1; tail -1 $O/check_pool.log
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --define POOL_BX=128,POOL_BI=1,POOL_BJ=4 --cases 30 --seed 52 > $O/check_pool_144.log 2>&1; tail -1 $O/check_pool_144.log
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_2x2s2 --define POOL_BJ=4 --cases 20 --seed 53 > $O/check_pool22.log 2>&1; tail -1 $O/check_pool22.log
for d in f32 f16 bf16; do timeout 60 $B check max_pool2d_bwd --device nvidia:0 --problem $P,dtype=$d --values edge --variant blocks_3x3s2 > $O/check_pool_edge_$d.log 2>&1; tail -1 $O/check_pool_edge_$d.log; done
for op in softmax log_softmax; do timeout 90 $B check $op --device nvidia:0 --variant resident_short --cases 30 --seed 54 > $O/check_${op}_short.log 2>&1; tail -1 $O/check_${op}_short.log; done
timeout 120 $B check cross_entropy_bwd --device nvidia:0 --cases 30 --seed 55 > $O/check_ce_bwd.log 2>&1; tail -1 $O/check_ce_bwd.log
for d in f16 bf16; do timeout 60 $B check cross_entropy_bwd --device nvidia:0 --problem cross_entropy_bwd:b=64,c=50257,dtype=$d --values edge --variant resident > $O/check_ce_edge_$d.log 2>&1; tail -1 $O/check_ce_edge_$d.log; done
save
# (B)
for d in F32 F16 BF16; do
  .gpu/kinfo/kinfo $K/softmax_quads.cl cross_entropy_backward_index_resident "-cl-nv-verbose -I$PWD/$K -DDTYPE_$d -DROW_WG=256 -DROW_QUADS=32" > $O/kinfo_ce_$d.log 2>&1
  echo "ce_bwd resident $d: $(grep -A3 "entry function 'cross_entropy_backward_index_resident'" $O/kinfo_ce_$d.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-160)"
done
.gpu/kinfo/kinfo $K/softmax_quads.cl softmax_forward_resident "-cl-nv-verbose -I$PWD/$K -DDTYPE_F32 -DROW_WG=32 -DROW_QUADS=8" > $O/kinfo_sm_short.log 2>&1
echo "softmax resident 32x8: $(grep -A3 "entry function 'softmax_forward_resident'" $O/kinfo_sm_short.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-160)"
.gpu/kinfo/kinfo $K/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4" > $O/kinfo_pool.log 2>&1
echo "pool blocks 128/1/4: $(grep -A3 "entry function 'max_pool_backward_blocks'" $O/kinfo_pool.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-160)"
save
# (C)
timeout 60 $B bench --device nvidia:0 --problem $P --baseline-plan .gpu/base/$K/pooling.plan --timing stream --repetitions 9 --min-time 0.02 > $O/pair_pool.log 2>&1
echo "pool pair: $(tail -2 $O/pair_pool.log | head -1)"
for op in softmax log_softmax; do
  for v in quads resident_short; do
    timeout 40 $B bench --device nvidia:0 --problem $op:m=32768,n=512 --variant $v --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${op}_$v.log 2>&1
    echo "$op $v $(grep @nvidia $O/bench_${op}_$v.log | cut -c50-160)"
  done
  for s in 32,4 64,4 64,2 128,1; do
    timeout 40 $B bench --device nvidia:0 --problem $op:m=32768,n=512 --variant resident_short --define ROW_WG=${s%,*},ROW_QUADS=${s#*,} --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${op}_rs_$s.log 2>&1
    echo "$op resident_short $s $(grep @nvidia $O/bench_${op}_rs_$s.log | cut -c50-160)"
  done
done
save
for d in f16 bf16; do for v in resident quads; do
  timeout 60 $B bench --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d --variant $v --timing stream --repetitions 9 --min-time 0.02 > $O/ce_${v}_$d.log 2>&1
  echo "ce_bwd $v $d $(grep @nvidia $O/ce_${v}_$d.log | cut -c50-160)"
done; done
save
# (D)
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
timeout 120 $NCU --clock-control none -k regex:max_pool_backward_blocks -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats $B bench --device nvidia:0 --problem $P --timing launch --repetitions 1 --min-time 0 > $O/ncu_pool.log 2>&1
grep -E "Throughput|Duration|Hit Rate|Achieved Occupancy|Registers|Stall|Bandwidth|Busy" $O/ncu_pool.log | head -40
save
