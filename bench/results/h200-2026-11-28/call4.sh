# Call 4 (stop 55, H200): the 16-bit gelu lines beside PyTorch on the H200 (bf16's stores now through
# cvt.rn.bf16x2.f32), then the 50257-wide vocabulary in bf16, held against quads (one problem a run).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h200-2026-11-28
O=$OUT/c4; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 200 bash bench/side_by_side.sh .gpu/plumbline /tmp/sbs python3 0.01 --batch $R/gelu16.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cp /tmp/sbs/*.md /tmp/sbs/*.json /tmp/sbs/*.log $O/ 2>/dev/null; cat /tmp/sbs/*.md 2>/dev/null | tail -5 | cut -c1-200
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
for v in held quads; do
  L=$((500 - $(date +%s) + T0)); [ $L -gt 20 ] || break
  timeout $L $P bench $B --json $O/v_$v.json --variant $v --problem cross_entropy_bwd:b=8192,c=50257,dtype=bf16 > $O/v_$v.log 2>&1; echo "$v rc $?"
done
python3 bench/results/h100-2026-11-28c/copy_share.py $O/v_*.json | tee $O/share.txt
tar -C $OUT -czf $OUT/c4.tgz c4 && rm -rf $O
