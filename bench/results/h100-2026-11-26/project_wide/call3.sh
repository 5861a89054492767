set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/project_wide
O=$OUT/c3; mkdir -p $O/rest $O/rest2
save() { (cd $OUT && tar czf r.tgz c3); }
D="-DPOOL_BX=128 -DPOOL_BI=1 -DPOOL_BJ=4"
timeout 100 .gpu/probe/probe .gpu/probe/k/pooling.cl 5 "max_pool_backward_blocks|$D" "diag_own|$D" "diag_loads|$D" "max_pool_backward_blocks|$D -DDIAG_NO_DY" "max_pool_backward_blocks|-DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2" "diag_own|-DPOOL_BX=256 -DPOOL_BI=1 -DPOOL_BJ=4" > $O/probe.log 2>&1
cat $O/probe.log; save
s=$(date +%s)
timeout 200 python3 bench/peers/torch_peer.py $R/rest/ours_repaired.json $O/rest/torch.json --repetitions 9 --min-time 0.01 > $O/rest/torch.log 2>&1
echo "torch rest exit $? at $(( $(date +%s) - s )) s"; save
s=$(date +%s)
LIMIT=200 bash $R/run.sh c3/rest2 $R/rest2.batch
echo "rest2 at $(( $(date +%s) - s )) s"; save
