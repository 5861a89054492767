# XGEMM_PREFETCH: the slab after next asked into the caches (OpenCL prefetch) as the next is loaded.
# Each problem benched with the H100 entry's defines, prefetch off and on, alternating (A B A B).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R /tmp/plc; mkdir -p $R
one() {  # problem, defines
  timeout 60 $B bench --problem "$1" --device nvidia:0 --repetitions 9 --min-time 0.01 --variant xgemm --define "$2" 2>&1 | grep "@nvidia\|rror" | sed 's/  */ /g' | cut -c1-120
}
L=MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,SPLIT_LAYOUTS=1,KSLICES=1
N=MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2
W=MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,CHUNK=64
for r in 1 2; do
  for p in 0 1; do echo "large prefetch=$p: $(one matmul:m=4096,k=1024,n=4096 $L,XGEMM_PREFETCH=$p)"; done
  for p in 0 1; do echo "n64 prefetch=$p: $(one matmul:batch=64,m=512,k=512,n=64 $N,XGEMM_PREFETCH=$p)"; done
  for p in 0 1; do echo "bwd prefetch=$p: $(one gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh $W,XGEMM_PREFETCH=$p)"; done
done > $R/ab.log 2>&1
cat $R/ab.log
grep -l "prefetch" /tmp/plc/* 2>/dev/null | wc -l > $R/ptx_prefetch.txt; grep -a -o "prefetch[.a-z0-9]*" /tmp/plc/* 2>/dev/null | sort | uniq -c >> $R/ptx_prefetch.txt; cat $R/ptx_prefetch.txt
tar czf $OUT/r.tgz -C /tmp r
