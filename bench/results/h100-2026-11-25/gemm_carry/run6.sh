# Call 6 (stop 33): the work-item layout the forward's retune found (MDIMC=16 NDIMC=8 with
# XGEMM_CARRY=1) tried on matmul's large class and on gemm_bias_act_bwd, each a short retune that
# writes the device's copy of the database, then the transformer GEMMs beside CLBlast and PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
timeout 110 $B tune matmul --variant xgemm --device nvidia:0 --problem matmul:m=4096,k=1024,n=3072,tb=1 --problem matmul:m=4096,k=1024,n=4096 --budget 60 --json $R/tune_mm.json \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=1 XGEMM_CARRY=1" \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=1 XGEMM_CARRY=0" > $R/tune_mm.log 2>&1
grep -E "^matmul/|winner" $R/tune_mm.log | cut -c1-200; save
timeout 110 $B tune gemm_bias_act_bwd --variant xgemm --device nvidia:0 --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh --budget 45 --json $R/tune_bwd.json \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 CHUNK=64 KSLICES=1 XGEMM_CARRY=1" > $R/tune_bwd.log 2>&1
grep -E "^gemm_bias_act_bwd/|winner" $R/tune_bwd.log | cut -c1-200; save
timeout 200 bash bench/side_by_side.sh $B $R/gemm python3 0.01 --batch bench/batches/transformer_gemm.batch > $R/gemm.log 2>&1
grep -E "^\|" $R/gemm/side_by_side.md | cut -c1-140; save
