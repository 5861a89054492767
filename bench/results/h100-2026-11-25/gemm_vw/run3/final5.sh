# Call 5 (stop 34): the final code on the H100 (VW in the GEMM core, 4 at every entry): each GEMM
# operator's variants and tuned instances checked, then the transformer GEMMs beside CLBlast and PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
(for op in matmul gemm_bias_act gemm_bias_act_bwd; do timeout 100 $B check $op --device nvidia:0 --cases 20 --seed 34; done
 timeout 100 $B check conv2d --variant gemm --device nvidia:0 --cases 10 --seed 34) > $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log; save
timeout 330 bash bench/side_by_side.sh $B $R/gemm python3 0.01 --batch bench/batches/transformer_gemm.batch > $R/sbs.log 2>&1
grep -E "^\|" $R/gemm/side_by_side.md | cut -c1-220; save
