# Call 3: the register ring (PREFETCH slabs in flight) at the default tile, then a tuning run with it
# in the space, then side by side with PyTorch at the new entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma
O=$OUT/c3; mkdir -p $O
P=.gpu/plumbline
( cd opencl/kernels && for p in 1 2 3; do ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DPREFETCH=$p -cl-nv-verbose -I." | grep -E "Used|limit"; done ) > $O/kinfo.log 2>&1
for p in 1 2 3; do
  timeout 60 $P bench --device nvidia:0 --variant mma --define "MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=4,PREFETCH=$p" --timing stream --repetitions 9 --min-time 0.01 --batch $R/matmul16.batch >> $O/prefetch.log 2>&1
done
timeout 60 $P check matmul --device nvidia:0 --variant mma --define "MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=4,PREFETCH=3" --cases 24 > $O/check.log 2>&1
timeout 240 $P tune matmul --device nvidia:0 --variant mma --batch $R/matmul16.batch --budget 200 --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 PREFETCH=2" --start "MWG=128 NWG=128 KWG=16 MWARPS=2 NWARPS=2 PREFETCH=3" --json $O/tune.json > $O/tune.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/sbs_tuned python3 0.01 --batch $R/matmul16.batch > $O/sbs_tuned.log 2>&1
cd $OUT && tar czf r.tgz c3 && rm -rf c3
