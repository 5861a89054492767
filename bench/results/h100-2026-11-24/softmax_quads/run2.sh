set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P=.gpu/plumbline
for op in softmax log_softmax cross_entropy cross_entropy_bwd; do timeout 60 $P check $op --variant quads --cases 40 --device nvidia:0 --seed 28 > $R/check_$op.log 2>&1; tail -1 $R/check_$op.log; done
for p in cross_entropy_bwd:b=9,c=50257,labels=index softmax:m=5,n=32001,dtype=bf16 cross_entropy:b=7,c=50257,labels=index,dtype=f16; do timeout 60 $P check --problem $p --variant quads --device nvidia:0 --values normal 2>&1 | tail -1; done
timeout 85 $P tune softmax --variant quads --problem softmax:m=2048,n=32000 --device nvidia:0 --budget 55 > $R/tune_softmax.log 2>&1; tail -2 $R/tune_softmax.log
timeout 85 $P tune log_softmax --variant quads --problem log_softmax:m=2048,n=32000 --device nvidia:0 --budget 55 > $R/tune_log_softmax.log 2>&1; tail -2 $R/tune_log_softmax.log
timeout 100 $P tune cross_entropy --variant quads --problem cross_entropy:b=4096,c=32000 --problem cross_entropy:b=8192,c=50257 --device nvidia:0 --budget 65 > $R/tune_ce.log 2>&1; tail -2 $R/tune_ce.log
timeout 100 $P tune cross_entropy_bwd --variant quads --problem cross_entropy_bwd:b=4096,c=32000 --problem cross_entropy_bwd:b=8192,c=50257 --device nvidia:0 --budget 65 > $R/tune_ce_bwd.log 2>&1; tail -2 $R/tune_ce_bwd.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
tar czf $OUT/r.tgz -C /tmp r
