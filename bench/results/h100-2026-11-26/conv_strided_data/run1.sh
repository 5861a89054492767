# conv_strided_data/run1: conv2d_bwd_data's `gemm_strided` (1x1, stride 2: the GEMM over d_y's pixels into
# float scratch, then spread over d_x) on the H100: checked (40 random cases steered into its condition),
# tuned on the three ResNet-50 layers it serves from gemm's H100 entries, then beside PyTorch (igemm's
# times on these layers: the project-wide run, bench/results/h100-2026-11-26/project_wide/conv).
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/conv_strided_data
O=$OUT/run1; mkdir -p $O
save() { cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; (cd $OUT && tar czf r.tgz run1); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt 2>&1
timeout 60 .gpu/plumbline check conv2d_bwd_data --variant gemm_strided --cases 40 --device nvidia:0 > $O/check.log 2>&1
tail -1 $O/check.log; save
timeout 130 .gpu/plumbline tune conv2d_bwd_data --device nvidia:0 --variant gemm_strided --batch $R/layers.batch --budget 110 \
  --start 'MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=16 VW=4' --start 'MWG=64 NWG=64 KWG=16 MDIMC=8 NDIMC=16 VW=4' --json $O/tune.json > $O/tune.log 2>&1
grep -E "winner|tuning database" $O/tune.log | cut -c1-200; save
timeout 100 bash bench/side_by_side.sh .gpu/plumbline $O/sbs python3 0.01 --batch $R/layers.batch > $O/sbs.log 2>&1
grep -E "^\|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,6,7; save
