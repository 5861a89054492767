# Call 8: STAGED=1, C's tile through local memory and out in 16-byte row chunks (the fragments' own
# 4-byte stores fill half of each sector): checked, then each wgmma variant's lines timed with
# STAGED=0 and 1 at the plan's default tile, interleaved twice.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c8; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
(for d in f16 bf16; do for v in uniform edge; do
  for p in batch=0,m=1000,k=200,n=600,ta=0,tb=0 batch=3,m=130,k=70,n=77,ta=1,tb=1 batch=0,m=256,k=64,n=250,ta=0,tb=1; do
    timeout 30 $P check matmul --device nvidia:0 --variant wgmma --define STAGED=1 --problem matmul:$p,dtype=$d --values $v 2>&1 | tail -1 | sed "s/^/$p $d $v: /"; done
  timeout 30 $P check gemm_bias_act --device nvidia:0 --variant wgmma --define STAGED=1 --problem gemm_bias_act:m=300,k=100,n=260,act=gelu_tanh,dtype=$d --values $v 2>&1 | tail -1 | sed "s/^/gba $d $v: /"
  timeout 30 $P check conv2d --device nvidia:0 --variant wgmma_gemm --define STAGED=1 --problem conv2d:n=2,c=64,h=9,w=11,k=64,r=1,s=1,bias=1,dtype=$d --values $v 2>&1 | tail -1 | sed "s/^/conv1x1 $d $v: /"
  timeout 30 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_linear --define STAGED=1 --problem gemm_bias_act_bwd:m=300,k=100,n=260,act=none,dtype=$d --values $v 2>&1 | tail -1 | sed "s/^/linear $d $v: /"
  done; done) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head
B() { timeout 60 $P bench --device nvidia:0 --variant $1 --define STAGED=$2 --timing stream --repetitions 9 --min-time 0.01 --batch $3 2>&1 | grep "ms " | cut -c1-170 | sed "s/^/STAGED=$2 /"; }
for r in 1 2; do for st in 0 1; do
  B wgmma $st $R/mma/gemm16.batch
  B wgmma_linear $st $R/split/linear16.batch
  B wgmma_split $st $R/split/split.batch
  B wgmma_gemm $st $R/split/conv1x1.batch
done; done | tee $O/bench.log
cd $OUT && tar czf r.tgz c8 && rm -rf c8
