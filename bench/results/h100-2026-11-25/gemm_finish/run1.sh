# Issue 13's last two gaps (stop 32): the epilogue's loads before its calls (gemm_bias_act_bwd's G
# step) against HEAD's kernels interleaved; a longer tune of matmul's narrow class (the batched
# n = 64 product) over KSLICES; then checks of the GEMM family with the final entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
cat > $R/act.batch <<'B2'
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh
B2
stdbuf -oL -eL timeout 170 $B bench --batch $R/act.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --baseline-plan .gpu/old/opencl/kernels/gemm.plan --json $R/paired.json > $R/paired.log 2>&1
grep -v "checked .* of" $R/paired.log | tail -6
stdbuf -oL -eL timeout 215 $B tune matmul --variant xgemm --problem matmul:batch=64,m=512,k=512,n=64 --device nvidia:0 --budget 190 --json $R/tune_n64.json \
  --start 'MWG=256 NWG=64 KWG=16 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=64 NWG=64 KWG=32 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=64 NWG=64 KWG=32 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=4' \
  --start 'MWG=256 NWG=32 KWG=16 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=128 NWG=32 KWG=32 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=256 NWG=64 KWG=8 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  > $R/tune_n64.log 2>&1
tail -3 $R/tune_n64.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
for op in "matmul --cases 30" "gemm_bias_act --cases 16" "gemm_bias_act_bwd --cases 15"; do
  timeout 60 $B check $op --device nvidia:0 > $R/check_${op%% *}.log 2>&1; tail -1 $R/check_${op%% *}.log
done
