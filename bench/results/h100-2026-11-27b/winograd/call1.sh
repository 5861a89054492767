# PyTorch's float32 convolutions (cuDNN, TF32 off) under plumbline's bound; the catalogued Winograd's time
set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=$OUT/run1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
L="conv2d:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1
conv2d_bwd_data:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1
conv2d_bwd_data:n=32,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1
conv2d_bwd_data:n=32,c=256,h=56,w=56,k=512,r=1,s=1,sh=2,sw=2
conv2d_bwd_data:n=32,c=512,h=28,w=28,k=1024,r=1,s=1,sh=2,sw=2
conv2d_bwd_data:n=32,c=512,h=14,w=14,k=512,r=3,s=3,sh=2,sw=2,ph=1,pw=1
conv2d_bwd_data:n=32,c=256,h=28,w=28,k=256,r=3,s=3,sh=2,sw=2,ph=1,pw=1
conv2d_bwd_weight:n=32,c=256,h=14,w=14,k=256,r=3,s=3,ph=1,pw=1
conv2d_bwd_weight:n=32,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1
conv2d_bwd_weight:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1
conv2d:n=32,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1
conv2d:n=32,c=256,h=14,w=14,k=256,r=3,s=3,ph=1,pw=1"
timeout 400 python3 bench/peers/torch_conv_accuracy.py $L --seeds 2 --json $R/torch_accuracy.json > $R/torch_accuracy.md 2>&1
sed "s|^variant winograd_f2x3|variant winograd_f2x3\n  file $PWD/mutants/catalogue/conv2d_winograd_f2x3_outliers.cl|" mutants/catalogue/conv2d_winograd_f2x3_outliers.plan > /tmp/wino.plan
P='conv2d:n=32,c=128,h=28,w=28,k=128,r=3,s=3,sh=1,sw=1,ph=1,pw=1,dh=1,dw=1,g=1,bias=0'
for v in uniform normal; do timeout 60 .gpu/plumbline check conv2d --plan /tmp/wino.plan --problem "$P" --values $v --device nvidia:0 > $R/wino_$v.log 2>&1; done
timeout 60 .gpu/plumbline check conv2d --variant igemm --problem "$P" --values uniform --device nvidia:0 > $R/igemm_uniform.log 2>&1
cd $OUT && tar czf r.tgz run1
