# Call 4: what bounds xgemm_mma at ~140 TFLOP/s. Experimental copies (.gpu/x: x1 = asm without
# volatile, x2 = x1 with a slab's fragments all loaded before its mma) and 16-warp work-groups, each
# checked then timed by plumbline bench on the two 4096 x 1024 problems.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c4; mkdir -p $O
P=.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 7 --min-time 0.01 --problem matmul:m=4096,k=1024,n=3072,tb=1,dtype=bf16 --problem matmul:m=4096,k=1024,n=1024,dtype=bf16"
( cd .gpu/x && for f in x1 x2; do for d in "-DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=2" "-DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=4 -DNWARPS=4 -DPREFETCH=2"; do echo "$f $d"; ../kinfo/kinfo $f.cl xgemm_mma "-DDTYPE_BF16 $d -cl-nv-verbose -I." | grep -E "Used|limit"; done; done ) > $O/kinfo.log 2>&1
run() { echo "== $*" >> $O/bench.log; timeout 60 $P bench $B "$@" 2>&1 | grep -E "matmul:|FAIL|error" >> $O/bench.log; }
run --variant mma --define MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=4,PREFETCH=2
run --plan .gpu/x/x.plan --variant x1
run --plan .gpu/x/x.plan --variant x2
run --variant mma --define MWG=128,NWG=128,KWG=32,MWARPS=4,NWARPS=4,PREFETCH=2
run --plan .gpu/x/x.plan --variant x1 --define MWG=128,NWG=128,KWG=32,MWARPS=4,NWARPS=4,PREFETCH=2
run --plan .gpu/x/x.plan --variant x2 --define MWG=128,NWG=128,KWG=32,MWARPS=4,NWARPS=4,PREFETCH=2
run --plan .gpu/x/x.plan --variant x2 --define MWG=128,NWG=256,KWG=16,MWARPS=2,NWARPS=4,PREFETCH=2
run --plan .gpu/x/x.plan --variant x2 --define MWG=256,NWG=128,KWG=16,MWARPS=4,NWARPS=2,PREFETCH=2
run --plan .gpu/x/x.plan --variant x2 --define MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=2,PREFETCH=2
run --plan .gpu/x/x.plan --variant x2 --define MWG=128,NWG=128,KWG=16,MWARPS=2,NWARPS=4,PREFETCH=3
cat $O/bench.log
cd $OUT && tar czf r.tgz c4 && rm -rf c4
