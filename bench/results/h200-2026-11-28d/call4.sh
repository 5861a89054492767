# Call 4 (stop 58, H200, the session's last ~280 s of device time): the pooling `planes` variants
# (pooling_planes.cl) against the seeds, each by --variant, and the pooling batch beside PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c4; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
Q="--problem max_pool2d:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1 --problem avg_pool2d:n=32,c=256,h=56,w=56,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0,cip=1 --problem avg_pool2d_bwd:n=32,c=256,h=56,w=56,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0,cip=1"
for v in seed planes; do
  timeout $(left 90) $P bench $B --variant $v --json $O/$v.json $Q > $O/$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/$v.json | tee -a $O/share.txt
done
timeout $(left 190) bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch bench/batches/pooling.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cut -c1-200 $O/sbs/side_by_side.md 2>/dev/null
cd $OUT && tar -czf c4.tgz c4 && rm -rf c4
