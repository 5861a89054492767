# Call 8 (stop 33): the final entries checked on the H100 (each operator's variants and tuned
# instances), and the long mean that found the error-model bug, with the fixed bound.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
(for op in matmul gemm_bias_act gemm_bias_act_bwd; do timeout 100 $B check $op --device nvidia:0 --cases 30 --seed 33; done
 timeout 60 $B check max_pool2d_bwd --device nvidia:0 --cases 20 --seed 33
 for v in integers normal edge; do timeout 60 $B check mean --device nvidia:0 --problem mean:m=4099,n=4097,over=all --values $v; done
 timeout 60 $B check sum --device nvidia:0 --problem sum:m=4096,n=4096,over=all --values normal) > $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log; save
