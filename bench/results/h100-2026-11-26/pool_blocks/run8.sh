# pool_blocks/run8: the kernel as committed (run7's kG with window_argmax's order as an integer key,
# max_key: one comparison a cell and window): (A) checked, (B) ptxas's registers and each shape timed
# back to back, kG as the anchor, (C) tuned, (D) paired against HEAD's plan and beside PyTorch,
# (E) issue 15's short rows beside PyTorch, (F) why the 16-bit cross_entropy_bwd runs at 41-46% of
# the copy bandwidth (run7): ptxas's registers for each storage format, both variants timed.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/pool_blocks
O=$OUT/run8
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run8); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
timeout 120 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --cases 30 --seed 41 > $O/check_3x3.log 2>&1; tail -1 $O/check_3x3.log
timeout 60 $B check max_pool2d_bwd --device nvidia:0 --variant blocks_2x2s2 --cases 20 --seed 41 > $O/check_2x2.log 2>&1; tail -1 $O/check_2x2.log
for d in f32 f16 bf16; do
  timeout 60 $B check max_pool2d_bwd --device nvidia:0 --problem $P,dtype=$d --values edge --variant blocks_3x3s2 > $O/check_edge_$d.log 2>&1; tail -1 $O/check_edge_$d.log
done
save
for x in 32 64; do
  .gpu/kinfo/kinfo opencl/kernels/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/opencl/kernels -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=$x -DPOOL_BI=2 -DPOOL_BJ=2" > $O/kinfo_$x.log 2>&1
  echo "$x: $(grep -A3 "entry function 'max_pool_backward_blocks'" $O/kinfo_$x.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-200)"
done
i=0
for s in kG_32_2x2 main_32_2x2 main_64_2x2 main_32_4x2 main_64_1x2 kG_32_2x2; do
  i=$((i + 1)) k=${s%%_*} r=${s#*_}; x=${r%_*} ij=${r#*_}
  plan=opencl/kernels/pooling.plan; [ $k = kG ] && plan=.gpu/kG/pooling.plan
  timeout 60 $B bench --device nvidia:0 --problem $P --plan $plan --variant blocks_3x3s2 --define POOL_BX=$x,POOL_BI=${ij%x*},POOL_BJ=${ij#*x} --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${i}_$s.log 2>&1
  echo "$s $(grep @nvidia $O/bench_${i}_$s.log | cut -c70-150)"
done
save
timeout 130 $B tune max_pool2d_bwd --device nvidia:0 --variant blocks_3x3s2 --problem $P --budget 100 --json $O/tune.json > $O/tune.log 2>&1
tail -2 $O/tune.log | cut -c1-250; cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; save
timeout 60 $B bench --device nvidia:0 --problem $P --baseline-plan .gpu/old_kernels/pooling.plan --timing stream --repetitions 9 --min-time 0.02 > $O/pair.log 2>&1
tail -2 $O/pair.log | head -1; save
for d in F32 F16 BF16; do
  .gpu/kinfo/kinfo opencl/kernels/softmax_quads.cl cross_entropy_backward_index_resident "-cl-nv-verbose -I$PWD/opencl/kernels -DDTYPE_$d -DROW_WG=256 -DROW_QUADS=32" > $O/kinfo_ce_$d.log 2>&1
  echo "ce_bwd $d: $(grep -A3 "entry function 'cross_entropy_backward_index_resident'" $O/kinfo_ce_$d.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-200)"
done
for v in resident quads; do for d in f16 bf16; do
  timeout 60 $B bench --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d --variant $v --timing stream --repetitions 5 --min-time 0.01 > $O/ce_${v}_$d.log 2>&1
  echo "ce_bwd $v $d $(grep @nvidia $O/ce_${v}_$d.log | cut -c60-150)"
done; done
save
timeout 180 bash bench/side_by_side.sh $B $O/short python3 0.01 --batch $R/issue15_short.batch > $O/short.log 2>&1; save
grep -E "^\|" $O/short/side_by_side.md | cut -d'|' -f2,3,6,7
