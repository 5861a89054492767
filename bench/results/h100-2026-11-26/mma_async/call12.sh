# Call 12: mma_linear tuned again (call 11's tune was cut off by its timeout before it wrote a winner),
# then every 16-bit line side by side with PyTorch at the final entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c12; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
timeout 150 $P tune gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --batch $R/mma_conv/conv16.batch --budget 70 --start "MWG=128 NWG=128 KWG=16 MWARPS=1 NWARPS=4 STAGES=4" --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=2 STAGES=2" > $O/tune_linear.log 2>&1
grep -h "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 200 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/mma/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md
timeout 200 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c12 && rm -rf c12
