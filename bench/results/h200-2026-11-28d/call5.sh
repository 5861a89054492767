# Call 5 (stop 58, H200, the session's last device time): the pooling variants with the window compiled
# in (planes_3x3s2, planes_2x2s2) against `planes`, each by --variant, on the pooling batch's shapes.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c5; mkdir -p $O
P=$PWD/.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
M="--problem max_pool2d:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1"
A="--problem avg_pool2d:n=32,c=256,h=56,w=56,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0,cip=1 --problem avg_pool2d_bwd:n=32,c=256,h=56,w=56,kh=2,kw=2,sh=2,sw=2,ph=0,pw=0,cip=1"
timeout 40 $P bench $B --variant planes --json $O/planes.json $M $A > $O/planes.log 2>&1; echo "planes rc $?"
timeout 30 $P bench $B --variant planes_3x3s2 --json $O/k3.json $M > $O/k3.log 2>&1; echo "k3 rc $?"
timeout 40 $P bench $B --variant planes_2x2s2 --json $O/k2.json $A > $O/k2.log 2>&1; echo "k2 rc $?"
for j in planes k3 k2; do python3 bench/results/h100-2026-11-28c/copy_share.py $O/$j.json; done | tee $O/share.txt
cd $OUT && tar -czf c5.tgz c5 && rm -rf c5
