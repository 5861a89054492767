# Call 3 (stop 53): where the bf16 gelu backward's time goes. (1) The halves' GEMMs against plain matmuls
# of their shapes (depth 8192 in one loop) and wgmma_linear's steps (its d_b: the same shape): is the
# halves' 0.140/0.133 ms the core's speed at these shapes? (2) The joined step's epilogue with d_y loaded
# one or two rows ahead (epilogue_forms.py; every work-item's rows one after the other in the landed form,
# each d_y load behind the previous row's stores, which the compiler may not move it past).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t3; mkdir -p $O
R=bench/results/h100-2026-11-28b/tile
F=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 90 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/shapes.json --batch $R/gemm_shapes.batch > $O/shapes.log 2>&1
echo "== shapes by step (rc $?)"; python3 bench/steps.py /tmp/shapes.json | tee $O/shapes.txt
for f in base ahead1 ahead2 base; do
  d=/tmp/ep/$f; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
  [ $f != base ] && python3 $R/epilogue_forms.py $d $f
  timeout 60 $P bench --device nvidia:0 --plan $d/gemm.plan --variant wgmma_split_pairs --timing launch --repetitions 5 --min-time 0.05 \
    --json /tmp/ep_$f.json --batch $F/bf16.batch > $O/ep_$f.log 2>&1
  echo "$f rc $?: $(python3 bench/steps.py /tmp/ep_$f.json 2>/dev/null | sed 's/.*sampled check//')" | tee -a $O/epilogue.txt
done
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/t3.tgz t3 && rm -rf $O
