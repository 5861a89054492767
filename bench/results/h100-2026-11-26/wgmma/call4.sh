# Call 4: ptxas's word on the wgmma kernels (registers, serialization) through kinfo's sm_90a pass.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu
O=$OUT/c4; mkdir -p $O
cd opencl/kernels
for cfg in "128 128 16 4 1" "128 128 32 2 0" "64 256 16 4 1" "128 256 16 2 0"; do set -- $cfg; echo "== MWG=$1 NWG=$2 KWG=$3 STAGES=$4 WG_PENDING=$5"; \
  KINFO_PTX=$O/w$1x$2x$3.ptx timeout 60 ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=$1 -DNWG=$2 -DKWG=$3 -DMWARPS=$(($1/16)) -DNWARPS=1 -DASYNC=1 -DSTAGES=$4 -DWGMMA=1 -DWG_PENDING=$5 -cl-nv-verbose -I." 2>&1 | grep -v "^$" | tail -12; done > $O/build.log 2>&1
cat $O/build.log
cd $OUT && tar czf r.tgz c4 && rm -rf c4
