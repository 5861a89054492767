# issue15_close/run8: max_pool2d_bwd blocks_3x3s2 as committed, every shape of a work-item with quads
# (BI x BJ in 1x2, 2x2, 1x4) at every work-group size, back to back, the tuned entry (128, 1x4) first
# and last: the stop-36 tuner saw 10 of these 12.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run8
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run8); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
i=0
for s in 128_1_4 32_1_2 64_1_2 128_1_2 256_1_2 32_2_2 64_2_2 128_2_2 256_2_2 32_1_4 64_1_4 256_1_4 128_1_4; do
  i=$((i + 1)); IFS=_ read x bi bj <<< "$s"
  timeout 40 $B bench --device nvidia:0 --problem $P --variant blocks_3x3s2 --define POOL_BX=$x,POOL_BI=$bi,POOL_BJ=$bj --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${i}_$s.log 2>&1
  echo "$s $(grep @nvidia $O/bench_${i}_$s.log | cut -c70-170)"
done
save
