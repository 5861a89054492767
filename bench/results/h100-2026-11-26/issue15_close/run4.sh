# issue15_close/run4: blocks_3x3s2 finding each window's maximum row by row (a row's keys die once
# folded in) against HEAD's form (.gpu/base): ptxas's registers at each shape, then each shape timed
# back to back, HEAD's at its tuned shape first and last.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run4
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run4); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
K=opencl/kernels
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --cases 20 --seed 71 > $O/check.log 2>&1; tail -1 $O/check.log
for ij in 1,4 1,2 2,4 2,2; do
  for k in base main; do
    dir=$K; [ $k = base ] && dir=.gpu/base/$K
    .gpu/kinfo/kinfo $dir/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/$dir -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=128 -DPOOL_BI=${ij%,*} -DPOOL_BJ=${ij#*,}" > $O/kinfo_${k}_$ij.log 2>&1
    echo "$k $ij: $(grep -A3 "entry function 'max_pool_backward_blocks'" $O/kinfo_${k}_$ij.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c30-160)"
  done
done
save
i=0
for s in base_128_1_4 main_128_1_4 main_64_1_4 main_256_1_4 main_128_1_2 main_64_1_2 main_128_2_4 main_64_2_4 main_128_2_2 main_64_2_2 main_32_1_4 base_128_1_4 main_128_1_4; do
  i=$((i + 1)); IFS=_ read k x bi bj <<< "$s"
  plan=$K/pooling.plan; [ $k = base ] && plan=.gpu/base/$K/pooling.plan
  timeout 40 $B bench --device nvidia:0 --problem $P --plan $plan --variant blocks_3x3s2 --define POOL_BX=$x,POOL_BI=$bi,POOL_BJ=$bj --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${i}_$s.log 2>&1
  echo "$s $(grep @nvidia $O/bench_${i}_$s.log | cut -c70-170)"
done
save
