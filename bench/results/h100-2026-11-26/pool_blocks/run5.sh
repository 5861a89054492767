# pool_blocks/run5: run4 found kA (72 registers) fastest at 2x2 blocks and kB (every loop unrolled)
# the only form without a stack frame at 4x2. kD is kA with kB's pragmas; kF is kD without the
# pragmas of the load phase (run4_kernels/). Registers from ptxas; each shape timed back to back.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run5
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run5); }
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
rm -rf ~/.nv/ComputeCache
for k in kD kF; do for s in 64_2x2 64_4x2 64_2x4; do
  x=${s%_*} ij=${s#*_}
  .gpu/kinfo/kinfo .gpu/$k/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/.gpu/$k -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=$x -DPOOL_BI=${ij%x*} -DPOOL_BJ=${ij#*x}" > $O/kinfo_${k}_$s.log 2>&1
  echo "$k $s: $(grep -A3 "entry function 'max_pool_backward_blocks'" $O/kinfo_${k}_$s.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-200)"
done; done
save
for s in 64_2x2 64_4x2 32_4x2 128_4x2 64_2x4; do for k in kD kF; do
  x=${s%_*} ij=${s#*_}
  d=POOL_BX=$x,POOL_BI=${ij%x*},POOL_BJ=${ij#*x}
  timeout 60 $B bench --device nvidia:0 --problem $P --plan .gpu/$k/pooling.plan --variant blocks_3x3s2 --define $d --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${k}_$s.log 2>&1
  echo "$k $s $(grep @nvidia $O/bench_${k}_$s.log | cut -c70-150)"
done; done
timeout 60 $B bench --device nvidia:0 --problem $P --plan .gpu/kA/pooling.plan --variant blocks_3x3s2 --define POOL_BX=64,POOL_BI=2,POOL_BJ=2 --timing stream --repetitions 9 --min-time 0.02 > $O/bench_kA_64_2x2.log 2>&1
echo "kA 64_2x2 $(grep @nvidia $O/bench_kA_64_2x2.log | cut -c70-150)"
save
