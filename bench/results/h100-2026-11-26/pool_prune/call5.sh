set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
O=$OUT/c5; mkdir -p $O
N=.gpu/probe/k2/pooling.cl:max_pool_backward_blocks
D="-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4"
timeout 200 .gpu/probe/probe .gpu/probe/k/pooling.cl 5 "max_pool_backward_blocks|$D" "$N|$D" "$N|-DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2" "$N|-DPOOL_BX=64 -DPOOL_BI=1 -DPOOL_BJ=4" \
  "$N|-DPOOL_BX=256 -DPOOL_BI=1 -DPOOL_BJ=4" "$N|-DPOOL_BX=128 -DPOOL_BI=2 -DPOOL_BJ=2" "$N|-DPOOL_BX=32 -DPOOL_BI=1 -DPOOL_BJ=4" "$N|-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=2" \
  "$N|-DPOOL_BX=128 -DPOOL_BI=2 -DPOOL_BJ=4" "max_pool_backward_blocks|$D" > $O/probe.log 2>&1
cat $O/probe.log
