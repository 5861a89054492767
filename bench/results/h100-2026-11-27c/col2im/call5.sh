# Call 5: the final kernels after the mends (data_direct shared by the backward-data NaN steps; the
# tensor-core conv tile's stores written once): the changed paths checked on the H100, two lines timed.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run5; mkdir -p $O
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for v in wgmma_igemm mma_igemm wgmma_igemm_split; do timeout 40 $P check conv2d --device nvidia:0 --variant $v --cases 6 --seed 51 2>&1 | tail -n 1; done
 timeout 60 $P check conv2d_bwd_data --device nvidia:0 --cases 12 --seed 52 2>&1 | tail -n 1
 timeout 30 $P check conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --cases 4 --seed 53 2>&1 | tail -n 1
 for p in n=3,c=64,h=15,w=9,k=30,r=3,s=5,sh=3,sw=2,ph=2,pw=1,dh=2,g=2 n=2,c=40,h=13,w=11,k=24,r=3,s=3,sh=2,sw=2,ph=1,pw=1; do for d in f32 bf16; do
   timeout 20 $P check conv2d_bwd_data --device nvidia:0 --variant igemm --problem conv2d_bwd_data:$p,dtype=$d --values edge 2>&1 | tail -n 1; done; done
 for d in f16 bf16; do for var in wgmma_igemm mma_igemm; do
   timeout 20 $P check conv2d_bwd_data --device nvidia:0 --variant $var --problem conv2d_bwd_data:n=3,c=96,h=9,w=11,k=130,r=5,s=3,ph=2,pw=1,dh=2,dtype=$d --values edge 2>&1 | tail -n 1; done; done) > $O/checks.log 2>&1
cut -c1-200 $O/checks.log
timeout 60 $P bench --device nvidia:0 --timing stream --repetitions 5 --min-time 0.02 --problem 'conv2d:n=32,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1,dtype=bf16' --problem 'conv2d_bwd_data:n=32,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1,dtype=bf16' > $O/bench.log 2>&1
grep -h "conv2d" $O/bench.log | grep -v "^#\|^ " | cut -c1-160
