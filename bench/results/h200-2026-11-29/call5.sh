# Call 5 (2026-11-29, H200): max_pool2d_bwd's tiles_2x2s2 against blocks_2x2s2 on VGG's second pool
# (32x128x112x112, 2x2 stride 2), checked on the GPU, searched; then the pooling batch (VGG's lines
# added) beside PyTorch with tiles_3x3s2 first and call 4's and this call's entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c5; mkdir -p $O
P=$PWD/.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
V="max_pool2d_bwd:n=32,c=128,h=112,w=112,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0"
timeout 60 $P check max_pool2d_bwd --variant tiles_2x2s2 --device nvidia:0 --cases 40 > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
for v in blocks_2x2s2 tiles_2x2s2; do
  timeout 60 $P bench $B --variant $v --json $O/$v.json --problem $V --problem $V,dtype=bf16 > $O/$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/$v.json | tee -a $O/share.txt
done
mkdir -p $O/db && cp opencl/tuning/*.tuning opencl/tuning/architectures $O/db/
timeout 200 $P tune max_pool2d_bwd --variant tiles_2x2s2 --device nvidia:0 --budget 120 --db $O/db --json $O/tune.json --problem $V > $O/tune.log 2>&1; echo "tune rc $?"
grep -h "winner" $O/tune.log | cut -c1-300
export PLUMBLINE_TUNING_DIR=$O/db
timeout 40 $P bench $B --variant tiles_2x2s2 --json $O/tuned.json --problem $V --problem $V,dtype=bf16 > $O/tuned.log 2>&1; echo "tuned rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/tuned.json | tee -a $O/share.txt
timeout 170 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch bench/batches/pooling.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cut -c1-220 $O/sbs/side_by_side.md 2>/dev/null
python3 bench/results/h100-2026-11-28c/copy_share.py $O/sbs/ours.json | tee -a $O/share.txt
cd $OUT && tar -czf c5.tgz c5 && rm -rf c5
