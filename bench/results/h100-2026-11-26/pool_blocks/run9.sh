# pool_blocks/run9: cross_entropy_bwd in 16 bits on `quads` now (`resident` takes f32 only: run8 found
# it at 254 registers in 16 bits); checked, then the 16-bit rows of issue 15's shapes beside PyTorch in
# the same dtype, both back to back.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/pool_blocks
O=$OUT/run9
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run9); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
timeout 90 $B check cross_entropy_bwd --device nvidia:0 --cases 30 --seed 43 > $O/check_ce_bwd.log 2>&1; tail -1 $O/check_ce_bwd.log
save
timeout 200 bash bench/side_by_side.sh $B $O/sixteen python3 0.01 --batch $R/issue15_16bit.batch > $O/sixteen.log 2>&1; save
grep -E "^\|" $O/sixteen/side_by_side.md | cut -d'|' -f2,3,5,6,10
