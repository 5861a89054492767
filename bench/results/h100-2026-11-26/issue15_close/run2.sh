# issue15_close/run2: max_pool2d_bwd's `slide` variants (a work-item walks down POOL_RUN block rows,
# each input row read once): (A) checked; (B) ptxas's registers; (C) tuned, then paired against HEAD's
# kernels; (D) ncu's counters of slide and blocks; (E) 16-bit cross_entropy_bwd: quads at wider
# work-groups, and `resident` with its output pass kept from reusing the statistics pass's floats (.gpu/kR).
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run2
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run2); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
K=opencl/kernels
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant slide_3x3s2 --cases 30 --seed 61 > $O/check_slide.log 2>&1; tail -1 $O/check_slide.log
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant slide_2x2s2 --cases 20 --seed 62 > $O/check_slide22.log 2>&1; tail -1 $O/check_slide22.log
for d in f32 f16 bf16; do timeout 60 $B check max_pool2d_bwd --device nvidia:0 --problem $P,dtype=$d --values edge --variant slide_3x3s2 > $O/check_slide_edge_$d.log 2>&1; tail -1 $O/check_slide_edge_$d.log; done
save
for s in 64,4,8 64,2,8 128,4,16; do
  IFS=, read x j r <<< "$s"
  .gpu/kinfo/kinfo $K/pooling.cl max_pool_backward_slide "-cl-nv-verbose -I$PWD/$K -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=$x -DPOOL_BJ=$j -DPOOL_RUN=$r" > $O/kinfo_slide_$x.$j.$r.log 2>&1
  echo "slide $s: $(grep -A3 "entry function 'max_pool_backward_slide'" $O/kinfo_slide_$x.$j.$r.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-160)"
done
save
timeout 200 $B tune max_pool2d_bwd --device nvidia:0 --variant slide_3x3s2 --problem $P --budget 170 --json $O/tune.json > $O/tune.log 2>&1
tail -3 $O/tune.log | cut -c1-250; cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; save
timeout 60 $B bench --device nvidia:0 --problem $P --variant slide_3x3s2 --baseline-plan .gpu/base/$K/pooling.plan --timing stream --repetitions 9 --min-time 0.02 > $O/pair_slide.log 2>&1
echo "slide pair: $(tail -2 $O/pair_slide.log | head -1)"
save
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
for v in slide_3x3s2 blocks_3x3s2; do
  timeout 90 $NCU --clock-control none -k regex:max_pool_backward -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats $B bench --device nvidia:0 --problem $P --variant $v --timing launch --repetitions 1 --min-time 0.001 > $O/ncu_$v.log 2>&1
  echo "== $v"; grep -E "Throughput|Duration|Hit Rate|Achieved Occupancy|Registers Per|Busy" $O/ncu_$v.log | head -16
done
save
for d in f16 bf16; do
  for s in 512,2 512,4 1024,2; do
    timeout 40 $B bench --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d --variant quads --define ROW_WG=${s%,*},QUAD_UNROLL=${s#*,} --timing stream --repetitions 9 --min-time 0.02 > $O/ce_quads_$d.${s%,*}.${s#*,}.log 2>&1
    echo "ce_bwd quads $d $s $(grep @nvidia $O/ce_quads_$d.${s%,*}.${s#*,}.log | cut -c60-160)"
  done
  .gpu/kinfo/kinfo .gpu/kR/softmax_quads.cl cross_entropy_backward_index_resident "-cl-nv-verbose -I$PWD/.gpu/kR -DDTYPE_${d^^} -DROW_WG=256 -DROW_QUADS=32" > $O/kinfo_kR_$d.log 2>&1
  echo "kR resident $d: $(grep -A3 "entry function 'cross_entropy_backward_index_resident'" $O/kinfo_kR_$d.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-160)"
  for s in 256,32 512,16; do
    timeout 40 $B bench --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d --plan .gpu/kR/softmax.plan --variant resident --define ROW_WG=${s%,*},ROW_QUADS=${s#*,} --timing stream --repetitions 9 --min-time 0.02 > $O/ce_kR_$d.${s%,*}.log 2>&1
    echo "ce_bwd kR resident $d $s $(grep @nvidia $O/ce_kR_$d.${s%,*}.log | cut -c60-160)"
  done
done
save
