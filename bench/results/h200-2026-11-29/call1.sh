# Call 1 (2026-11-29, H200): (1) stop 58's call5.sh, the pooling forwards' compiled-in windows against
# `planes`; (2) max_pool2d_bwd's new `tiles_3x3s2` (pooling_tiles.cl) against `blocks_3x3s2` by
# --variant, f32 and bf16; (3) the H200's search of tiles_3x3s2 (a `timeout` that leaves the tuner time
# to confirm its winner), then the found entry timed by --variant against the defaults.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c1; mkdir -p $O
P=$PWD/.gpu/plumbline
bash bench/results/h200-2026-11-28d/call5.sh; mv $OUT/c5.tgz $O/
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
M="max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1"
for v in blocks_3x3s2 tiles_3x3s2; do
  timeout 60 $P bench $B --variant $v --json $O/$v.json --problem $M --problem $M,dtype=bf16 > $O/$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/$v.json | tee -a $O/share.txt
done
mkdir -p $O/db && cp opencl/tuning/*.tuning opencl/tuning/architectures $O/db/
timeout 330 $P tune max_pool2d_bwd --variant tiles_3x3s2 --device nvidia:0 --budget 220 --db $O/db --json $O/tune.json --problem $M > $O/tune.log 2>&1; echo "tune rc $?"
tail -n 4 $O/tune.log | cut -c1-300
grep -h "tiles_3x3s2" $O/db/nvidia-h200.tuning
PLUMBLINE_TUNING_DIR=$O/db timeout 40 $P bench $B --variant tiles_3x3s2 --json $O/tuned.json --problem $M --problem $M,dtype=bf16 > $O/tuned.log 2>&1; echo "tuned rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/tuned.json | tee -a $O/share.txt
cd $OUT && tar -czf c1.tgz c1 && rm -rf c1
