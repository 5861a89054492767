# pool_blocks/run3: run2 again with every loop of the kernel unrolled (its arrays in registers), quads
# for any POOL_BJ with PS * POOL_BJ % 4 == 0, and POOL_BI=4: (A) checked, (A2) shapes of a work-item
# timed back to back, (B) tuned, (C) timed back to back against `plane`, twice, interleaved, and paired
# against HEAD's plan (.gpu/old_kernels), (D) beside PyTorch.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run3
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run3); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
timeout 120 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --cases 30 --seed 41 > $O/check_3x3.log 2>&1; tail -1 $O/check_3x3.log
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_2x2s2 --cases 20 --seed 41 > $O/check_2x2.log 2>&1; tail -1 $O/check_2x2.log
for d in f32 f16 bf16; do
  timeout 60 $B check max_pool2d_bwd --device nvidia:0 --problem $P,dtype=$d --values edge --variant blocks_3x3s2 > $O/check_edge_$d.log 2>&1; tail -1 $O/check_edge_$d.log
done
save
for x in 64 128; do for ij in 1x2 2x2 4x2 1x4 2x4; do
  d=POOL_BX=$x,POOL_BI=${ij%x*},POOL_BJ=${ij#*x}
  timeout 60 $B bench --device nvidia:0 --problem $P --variant blocks_3x3s2 --define $d --timing stream --repetitions 9 --min-time 0.02 > $O/shape_${x}_$ij.log 2>&1
  grep @nvidia $O/shape_${x}_$ij.log | sed "s/^/$d /" | cut -c1-150
done; done
save
timeout 190 $B tune max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --problem $P --budget 150 --json $O/tune.json > $O/tune.log 2>&1
tail -3 $O/tune.log; cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; save
for i in 1 2; do
  for v in plane blocks_3x3s2; do
    timeout 60 $B bench --device nvidia:0 --problem $P --variant $v --timing stream --repetitions 9 --min-time 0.02 > $O/${v}_$i.log 2>&1
    grep @nvidia $O/${v}_$i.log | sed "s/^/$v /" | cut -c1-150
  done
done
timeout 90 $B bench --device nvidia:0 --problem $P --baseline-plan .gpu/old_kernels/pooling.plan --timing stream --repetitions 9 --min-time 0.02 > $O/pair.log 2>&1
tail -4 $O/pair.log; save
timeout 120 bash bench/side_by_side.sh $B $O/torch python3 0.02 --problem $P > $O/torch.log 2>&1; save
grep -E "^\|" $O/torch/side_by_side.md | head -5
