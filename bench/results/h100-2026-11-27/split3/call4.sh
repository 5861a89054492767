# Call 4: the 16-bit conv lines side by side with wgmma_igemm_split's entry (call 3 ran out of time
# there); wgmma tiles of 4 warpgroups (MWG=256, MWARPS=16: outside the tune space) against the entries
# on the GEMM lines; wgmma_split3 tuned (STAGED in its starts); the backward's lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c4; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 150 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md | cut -d'|' -f2,3,10
(for e in "" MWG=256,NWG=128,KWG=16,MWARPS=16,STAGES=3,WG_PENDING=0 MWG=256,NWG=128,KWG=16,MWARPS=16,STAGES=3,WG_PENDING=1 MWG=256,NWG=64,KWG=32,MWARPS=16,STAGES=2,WG_PENDING=0 MWG=128,NWG=256,KWG=16,MWARPS=8,STAGES=3,WG_PENDING=0 ""; do
  timeout 60 $P bench --device nvidia:0 --variant wgmma ${e:+--define $e} --timing stream --repetitions 9 --min-time 0.01 --batch $R/gemm16.batch 2>&1 | grep " ms \|FAIL\|error" | cut -c1-160 | sed "s/^/[${e:-entries}] /"; done) > $O/tiles.log 2>&1
cat $O/tiles.log
timeout 170 $P tune gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split3 --batch $R/split3.batch --budget 110 --start "MWG=128 NWG=256 KWG=16 MWARPS=8 STAGES=3 WG_PENDING=1 STAGED=1" --start "MWG=128 NWG=192 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=1" --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 STAGED=0" > $O/tune_split3.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 120 bash bench/side_by_side.sh $P $O/bwd python3 0.01 --batch $R/bwd16.batch > $O/bwd.log 2>&1
grep "|" $O/bwd/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c4 && rm -rf c4
