# Call 5 (stop 33): gemm_bias_act's forward (xgemm, large class) retuned with XGEMM_CARRY in its
# space, the winner written to the device's copy of the database, then the four forward problems
# beside CLBlast and PyTorch with it.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
grep -v "^#" bench/batches/transformer_gemm.batch | grep "^gemm_bias_act:" > $R/fwd.batch
timeout 230 $B tune gemm_bias_act --variant xgemm --device nvidia:0 --batch $R/fwd.batch --budget 170 --json $R/tune_fwd.json \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 ACT_CALL=0 XGEMM_CARRY=1" \
  --start "MWG=128 NWG=128 KWG=16 MDIMC=8 NDIMC=16 ACT_CALL=1 XGEMM_CARRY=0" \
  --start "MWG=128 NWG=128 KWG=16 MDIMC=16 NDIMC=8 ACT_CALL=1 XGEMM_CARRY=1" \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 ACT_CALL=1 XGEMM_CARRY=0" \
  --start "MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 ACT_CALL=1 XGEMM_CARRY=1" > $R/tune_fwd.log 2>&1
grep -E "^gemm_bias_act/|winner" $R/tune_fwd.log | cut -c1-220; save
timeout 150 bash bench/side_by_side.sh $B $R/fwd python3 0.01 --batch $R/fwd.batch > $R/fwd.log 2>&1
grep -E "^\|" $R/fwd/side_by_side.md | cut -c1-140; save
