set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p $OUT/ptx
( cd .gpu/ptx && ../kinfo/kinfo mma.cl lane "-cl-nv-verbose" > $OUT/ptx/lane.log 2>&1; ../kinfo/kinfo mma.cl mma16816 "-cl-nv-verbose" > $OUT/ptx/mma.log 2>&1 )
LIMIT=520 bash bench/results/h100-2026-11-26/project_wide/run.sh conv bench/batches/resnet50_conv.batch
cd $OUT && tar czf r.tgz ptx conv && rm -rf ptx conv
