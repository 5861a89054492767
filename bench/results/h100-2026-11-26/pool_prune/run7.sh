# pool_prune/run7: max_pool2d_bwd blocks_3x3s2 with the pruned gather (as committed), paired against
# the kernel before it (.gpu/base: pooling.cl and pooling.plan at 733dc32, the same blocks kernel as
# d004800) in one call, then beside PyTorch (bench/side_by_side.sh) on the bench shape.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/pool_prune
O=$OUT/run7; mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run7); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt 2>&1
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
timeout 120 .gpu/plumbline bench --device nvidia:0 --problem $P --variant blocks_3x3s2 --baseline-plan .gpu/base/opencl/kernels/pooling.plan --timing stream --repetitions 9 --min-time 0.02 > $O/pair.log 2>&1
tail -5 $O/pair.log; save
timeout 150 bash bench/side_by_side.sh .gpu/plumbline $O/sbs python3 0.01 --batch $R/pool_bwd.batch > $O/sbs.log 2>&1
grep -E "^\|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,6,7; grep peaks $O/sbs/ours.log; save
