# Call 4 (2026-11-29, H200): the softmax family's long rows in 16 bits. softmax, log_softmax and
# log_softmax_bwd `resident` with FAST_EXP=1 (softmax_quads.cl's ROW_EXP, as cross_entropy_bwd's held):
# checked on the GPU, then timed by --variant against FAST_EXP=0 in f32, bf16 and f16 over 2048 x 32000
# (softmax_bwd's resident, which has no exp, beside them); then the 16-bit lines beside PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c4; mkdir -p $O
P=$PWD/.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
for op in softmax log_softmax log_softmax_bwd; do
  timeout 80 $P check $op --variant resident --define FAST_EXP=1 --device nvidia:0 --cases 24 > $O/check_$op.log 2>&1; echo "check $op rc $?"; tail -1 $O/check_$op.log | cut -c1-160
  for d in bf16 f16; do for v in normal edge; do
    timeout 40 $P check $op --variant resident --define FAST_EXP=1 --device nvidia:0 --problem $op:m=2048,n=32000,dtype=$d --values $v >> $O/check_big_$op.log 2>&1; echo "check $op $d $v rc $?"
  done; done
  for f in 0 1; do
    timeout 60 $P bench $B --variant resident --define FAST_EXP=$f --json $O/${op}_fe$f.json --problem $op:m=2048,n=32000 --problem $op:m=2048,n=32000,dtype=bf16 --problem $op:m=2048,n=32000,dtype=f16 > $O/${op}_fe$f.log 2>&1; echo "bench $op FAST_EXP=$f rc $?"
    python3 bench/results/h100-2026-11-28c/copy_share.py $O/${op}_fe$f.json | tee -a $O/share.txt
  done
done
timeout 60 $P bench $B --variant resident --json $O/softmax_bwd.json --problem softmax_bwd:m=2048,n=32000 --problem softmax_bwd:m=2048,n=32000,dtype=bf16 --problem softmax_bwd:m=2048,n=32000,dtype=f16 > $O/softmax_bwd.log 2>&1; echo "bench softmax_bwd rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/softmax_bwd.json | tee -a $O/share.txt
S=""; for op in softmax log_softmax softmax_bwd log_softmax_bwd; do for d in bf16 f16; do S="$S --problem $op:m=2048,n=32000,dtype=$d"; done; done
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 $S > $O/sbs.log 2>&1; echo "sbs rc $?"
cut -c1-200 $O/sbs/side_by_side.md
python3 bench/results/h100-2026-11-28c/copy_share.py $O/sbs/ours.json | tee -a $O/share.txt
cd $OUT && tar -czf c4.tgz c4 && rm -rf c4
