# For the next stop (written in stop 58 after its device time was spent). (1) call5.sh's comparison:
# the compiled-in windows against `planes` (move planes_3x3s2 / avg_pool2d's planes_2x2s2 ahead of
# `planes` where they win; avg_pool2d_bwd's is first already, on PoCL's figures: confirm it). (2) The
# H200's own search of max_pool2d_bwd's blocks_3x3s2 from the H100's entry (52% of the copy, 0.1061 ms
# over 32x64x112x112: the one f32 line of issue 15's list under 70%); a `timeout` must leave the
# tuner time to confirm its winner, or it writes nothing.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/n1; mkdir -p $O
P=$PWD/.gpu/plumbline
bash bench/results/h200-2026-11-28d/call5.sh
mkdir -p $O/db && cp opencl/tuning/*.tuning opencl/tuning/architectures $O/db/
timeout 400 $P tune max_pool2d_bwd --variant blocks_3x3s2 --device nvidia:0 --budget 240 --db $O/db --json $O/tune.json \
  --problem max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1 > $O/tune.log 2>&1; echo "tune rc $?"
tail -n 4 $O/tune.log | cut -c1-250
cd $OUT && tar -czf n1.tgz n1 && rm -rf n1
