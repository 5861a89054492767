# Call 3 (stop 51): with NEXT_SLAB the pairs' GEMMs still take 0.150 and 0.153 ms (stop 50's wgmma_split:
# 0.140, 0.131). Code or layout? diag.plan: wgmma_split as shipped beside the same variant whose GEMMs go
# through xgemm_mma_parts with one part (same inputs, same layout), by step. Then the whole 16-bit
# batch side by side (stop 50's fifth call, cut off by the budget), with the working tree's plan.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/p3; mkdir -p $O
R=bench/results/h100-2026-11-27h/pairs
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for v in split_plain split_via_parts split_plain split_via_parts; do
  timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/d_$v.json --plan $R/diag_call3.plan --variant $v --batch $R/bf16.batch > /tmp/d_$v.log 2>&1
  echo "== $v (rc $?)"; python3 bench/steps.py /tmp/d_$v.json | tee -a $O/diag_steps.txt
done
timeout 440 bash bench/side_by_side.sh $P /tmp/sbsall python3 0.01 --batch bench/batches/reduced_precision.batch > $O/sbs_all.log 2>&1
echo "sbs rc $?"; cp /tmp/sbsall/side_by_side.md $O/sbs_all.md
grep '`' $O/sbs_all.md | cut -d"|" -f2,3,10 | cut -c1-90,140-
