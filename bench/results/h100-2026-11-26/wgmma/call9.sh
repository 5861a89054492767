# Call 9: the backward's wgmma_linear tuned, then every 16-bit line side by side with PyTorch at the new entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c9; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
timeout 200 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_linear --batch $R/wgmma/linear16.batch --budget 80 --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0" --start "MWG=128 NWG=64 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1" > $O/tune_linear.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 200 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/mma/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md
timeout 200 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c9 && rm -rf c9
