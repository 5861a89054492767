# pool_blocks/run4: why run3's kernel (every loop under #pragma unroll) was slower than run2's. Three
# forms of the kernel (run4_kernels/: kB is run3's, kC is kB without the pragmas, kA is kC with
# run2's window test and row exit), each built by kinfo.cpp with -cl-nv-verbose (ptxas's registers)
# and timed back to back in four shapes of a work-item.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run4
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run4); }
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
for k in kA kB kC; do for s in 64_2x2 64_4x2; do
  x=${s%_*} ij=${s#*_}
  .gpu/kinfo/kinfo .gpu/$k/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/.gpu/$k -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=$x -DPOOL_BI=${ij%x*} -DPOOL_BJ=${ij#*x}" > $O/kinfo_${k}_$s.log 2>&1
  echo "$k $s: $(grep -E 'Used|spill|limit' $O/kinfo_${k}_$s.log | tr '\n' ' ' | cut -c1-220)"
done; done
save
for s in 64_2x2 64_4x2 128_4x2 32_4x2; do for k in kA kB kC; do
  x=${s%_*} ij=${s#*_}
  d=POOL_BX=$x,POOL_BI=${ij%x*},POOL_BJ=${ij#*x}
  timeout 60 $B bench --device nvidia:0 --problem $P --plan .gpu/$k/pooling.plan --variant blocks_3x3s2 --define $d --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${k}_$s.log 2>&1
  echo "$k $s $(grep @nvidia $O/bench_${k}_$s.log | cut -c70-150)"
done; done
save
