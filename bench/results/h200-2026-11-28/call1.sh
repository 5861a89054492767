# Call 1 (stop 55, the first on an H200): cross_entropy_bwd's `held` checked on NVIDIA by a run of its
# own (stop 54 checked it only through bench), then by stream against `quads` and against bf16's stores
# through cvt.rn.bf16x2.f32 (held_forms.py cvt), with each run's copy bandwidth (copy_share.py).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h200-2026-11-28
O=$OUT/c1; mkdir -p $O
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
$P devices > $O/devices.log 2>&1; grep -i "nvidia\|feature" $O/devices.log | head -5
timeout 120 $P check cross_entropy_bwd --variant held --device nvidia:0 --cases 60 > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=9,c=23553,dtype=f16 b=4,c=4097,dtype=bf16; do for v in edge normal; do
  timeout 60 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values $v 2>&1 | tail -1 | sed "s/^/$p $v: /" | tee -a $O/check.log
done; done
d=/tmp/cvt; cp -r opencl/kernels $d; python3 bench/results/h100-2026-11-28c/held_forms.py $d cvt
for v in 50257 32001; do timeout 60 $P check cross_entropy_bwd --plan $d/softmax.plan --variant held --device nvidia:0 --problem cross_entropy_bwd:b=5,c=$v,dtype=bf16 --values edge 2>&1 | tail -1 | sed "s/^/cvt c=$v edge: /" | tee -a $O/check.log; done
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 150 $P bench $B --json $O/held.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1; echo "held rc $?"
timeout 80 $P bench $B --json $O/cvt.json --plan $d/softmax.plan --variant held --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 > $O/cvt.log 2>&1; echo "cvt rc $?"
timeout 80 $P bench $B --json $O/quads.json --variant quads --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 > $O/quads.log 2>&1; echo "quads rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json $O/cvt.json $O/quads.json | tee $O/share.txt
tar -C $OUT -czf $OUT/c1.tgz c1 && rm -rf $O
