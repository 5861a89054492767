# Call 1 (stop 49): G's pass (grad_pre_split) four columns a work-item, 16-byte loads of Z, G_ROWS rows'
# loads in flight together: checked (odd n takes the column-by-column path), then paired against the
# pass before (before.plan, a frozen copy of 20108c3's kernel file), G_ROWS 1 and 4 against it too,
# and the steps by launch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/g1; mkdir -p $O
R=bench/results/h100-2026-11-27f/gpass
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for p in m=1030,k=64,n=1025,act=gelu_erf m=1100,k=256,n=2056,act=relu m=2048,k=1030,n=1028,act=silu; do
  for d in bf16 f16; do
    for v in edge normal; do
      timeout 40 $P check gemm_bias_act_bwd --device nvidia:0 --problem gemm_bias_act_bwd:$p,dtype=$d --values $v >> $O/check.log 2>&1 || echo "rc $? $p $d $v" >> $O/check.log
    done
  done
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
grep gelu bench/results/h100-2026-11-27e/fused/bwd16.batch > /tmp/gelu_bwd.batch
timeout 120 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --baseline-plan $R/before.plan > $O/paired.log 2>&1
grep -E "ratio|error|FAIL" $O/paired.log | cut -c1-250
for g in 1 4; do
  timeout 120 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --plan $R/g$g.plan --baseline-plan $R/before.plan > $O/paired_g$g.log 2>&1
  grep -E "ratio|error|FAIL" $O/paired_g$g.log | cut -c1-250
done
timeout 100 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch /tmp/gelu_bwd.batch > $O/steps.log 2>&1
python3 bench/steps.py $O/steps.json | tee $O/steps.txt
timeout 100 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_before.json --plan $R/before.plan --batch /tmp/gelu_bwd.batch > $O/steps_before.log 2>&1
python3 bench/steps.py $O/steps_before.json | tee $O/steps_before.txt
