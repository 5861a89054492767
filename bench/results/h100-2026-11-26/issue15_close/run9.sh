# issue15_close/run9: would a register cap speed max_pool_backward_blocks up? regcap/regcap.cpp builds the
# committed kernel with NVIDIA's -cl-nv-maxrregcount N (plans cannot pass build options) and times it
# on ResNet's stem pool backward, comparing d_x's bits with the uncapped build's.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
O=$OUT/run9
mkdir -p $O
nvidia-smi > $O/device.txt 2>&1
K=$PWD/opencl/kernels
timeout 120 .gpu/regcap $K "-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4" "" "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=56" "-cl-nv-maxrregcount=48" "-cl-nv-maxrregcount=40" "" 2>&1 | tee $O/regcap_128_1_4.log
timeout 100 .gpu/regcap $K "-DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2" "" "-cl-nv-maxrregcount=56" "-cl-nv-maxrregcount=48" "-cl-nv-maxrregcount=40" 2>&1 | tee $O/regcap_64_2_2.log
timeout 100 .gpu/regcap $K "-DPOOL_BX=128 -DPOOL_BI=2 -DPOOL_BJ=4" "" "-cl-nv-maxrregcount=72" "-cl-nv-maxrregcount=64" 2>&1 | tee $O/regcap_128_2_4.log
