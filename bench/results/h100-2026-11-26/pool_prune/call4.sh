set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
O=$OUT/c4; mkdir -p $O
D="-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4"
timeout 200 .gpu/probe/probe .gpu/probe/k/pooling.cl 5 "max_pool_backward_blocks|$D" "max_pool_backward_blocks|$D -DGATHER_PRUNE" "max_pool_backward_fused|$D" \
  "max_pool_backward_fused|-DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2" "max_pool_backward_fused|-DPOOL_BX=256 -DPOOL_BI=1 -DPOOL_BJ=4" "max_pool_backward_fused|-DPOOL_BX=64 -DPOOL_BI=1 -DPOOL_BJ=4" \
  "max_pool_backward_fused|-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=2" "max_pool_backward_fused|-DPOOL_BX=128 -DPOOL_BI=2 -DPOOL_BJ=4" \
  "max_pool_backward_blocks|-DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2 -DGATHER_PRUNE" "max_pool_backward_blocks|$D" > $O/probe.log 2>&1
cat $O/probe.log
