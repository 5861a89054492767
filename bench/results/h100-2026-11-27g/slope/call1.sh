# Call 1 (stop 50): gelu_tanh's slope from one exp and one division (slope.patch, the working tree)
# instead of cosh and two divisions. Checked on the H100 (act_bwd, gemm_bias_act_bwd in every format);
# the steps by launch with the new slope and the old (/tmp/kold: slope.patch reversed), the relu
# backward beside them; whole problems by stream, old then new.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/s1; mkdir -p $O
R=bench/results/h100-2026-11-27g/slope
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
cp -r opencl/kernels /tmp/kold && patch -s -R -d /tmp/kold -p3 < $R/slope.patch && grep -c cosh /tmp/kold/activation.h
for v in edge normal uniform; do
  for d in f32 bf16 f16; do
    timeout 40 $P check act_bwd --device nvidia:0 --problem act_bwd:n=1000003,act=gelu_tanh,dtype=$d --values $v >> $O/check.log 2>&1 || echo "rc $? act_bwd $d $v" >> $O/check.log
  done
done
for pd in m=1030,k=64,n=1025,dtype=bf16 m=1030,k=64,n=1025,dtype=f16 m=1030,k=64,n=1025,dtype=f32 m=2048,k=1030,n=1028,dtype=bf16 m=2048,k=1030,n=1028,dtype=f16; do
  for v in edge normal; do
    timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --problem gemm_bias_act_bwd:$pd,act=gelu_tanh --values $v >> $O/check.log 2>&1 || echo "rc $? $pd $v" >> $O/check.log
  done
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-160
timeout 150 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_new.json --batch $R/gelu_bwd.batch > $O/steps_new.log 2>&1
echo "== steps, new slope"; python3 bench/steps.py $O/steps_new.json | tee $O/steps_new.txt
PLUMBLINE_KERNEL_DIR=/tmp/kold timeout 90 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_old.json --batch $R/stream.batch > $O/steps_old.log 2>&1
echo "== steps, old slope"; python3 bench/steps.py $O/steps_old.json | tee $O/steps_old.txt
for which in old new; do
  K=$PWD/opencl/kernels; [ $which = old ] && K=/tmp/kold
  PLUMBLINE_KERNEL_DIR=$K timeout 90 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/stream.batch > $O/stream_$which.log 2>&1
  echo "== stream $which"; grep -E "@nvidia:0 |error|FAIL" $O/stream_$which.log | cut -c1-200
done
