# Call 4 (2026-11-29, H200): max_pool2d_bwd's `tiles_3x3s2` with every global load of its first two
# stages issued before any is used (call 2's PTX had each behind a branch); checked on the GPU, the
# H200's search of its tiles, then by --variant against `blocks_3x3s2` on the search's database, and the
# pooling batch beside PyTorch on it.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c4; mkdir -p $O
P=$PWD/.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
M="max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1"
timeout 60 $P check max_pool2d_bwd --variant tiles_3x3s2 --device nvidia:0 --cases 60 > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
mkdir -p $O/db && cp opencl/tuning/*.tuning opencl/tuning/architectures $O/db/
timeout 250 $P tune max_pool2d_bwd --variant tiles_3x3s2 --device nvidia:0 --budget 170 --db $O/db --json $O/tune.json --problem $M > $O/tune.log 2>&1; echo "tune rc $?"
grep -h "winner" $O/tune.log | cut -c1-300
export PLUMBLINE_TUNING_DIR=$O/db
for v in blocks_3x3s2 tiles_3x3s2; do
  timeout 60 $P bench $B --variant $v --json $O/$v.json --problem $M --problem $M,dtype=bf16 --problem $M,dtype=f16 > $O/$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/$v.json | tee -a $O/share.txt
done
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch bench/batches/pooling.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cut -c1-220 $O/sbs/side_by_side.md 2>/dev/null
cd $OUT && tar -czf c4.tgz c4 && rm -rf c4
