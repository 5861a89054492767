# (1) xgemm_accumulate forced inline (always_inline) against as is, both pinned to the H100 entries'
# tiles, paired, on the three GEMM operators; (2) tiles for the batched n = 64 product, one bench each.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
cat > $R/inl.batch <<'B2'
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
matmul:m=4096,k=1024,n=4096
gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh
B2
stdbuf -oL -eL timeout 200 $B bench --batch $R/inl.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --variant xgemm \
  --plan .gpu/pin/inl/kernels/gemm.plan --baseline-plan .gpu/pin/base/kernels/gemm.plan --json $R/inl.json > $R/inl.log 2>&1
grep -v "checked .* of" $R/inl.log | grep "ratio\|FAIL\|rror" | tail -4
P=matmul:batch=64,m=512,k=512,n=64
for d in MWG=256,NWG=64,KWG=16,MDIMC=16,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2 MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2 \
         MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2 MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=4 \
         MWG=128,NWG=32,KWG=32,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2 MWG=128,NWG=64,KWG=32,MDIMC=8,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=1; do
  echo "== $d"; timeout 40 $B bench --problem $P --device nvidia:0 --repetitions 9 --min-time 0.01 --variant xgemm --define $d 2>&1 | grep "@nvidia\|rror" | tail -1
done > $R/n64.log
echo "== inline, the entry's tile" >> $R/n64.log
PLUMBLINE_KERNEL_DIR=$PWD/.gpu/pin/inl/kernels timeout 40 $B bench --problem $P --device nvidia:0 --repetitions 9 --min-time 0.01 --variant xgemm --define MWG=256,NWG=64,KWG=16,MDIMC=16,NDIMC=8,SPLIT_LAYOUTS=1,KSLICES=2 2>&1 | grep "@nvidia\|rror" | tail -1 >> $R/n64.log
cut -c1-60,70-110 $R/n64.log
tar czf $OUT/r.tgz -C /tmp r
