# Call 1 (stop 34): the GEMM core's global access width VW (1, 2, 4) on the H100: checks of the narrow
# widths at the entries' tiles, then paired runs (VW=4, the entries' width, as the baseline) on
# aligned problems and on leading dimensions that are not multiples of 4 (a 50257-word vocabulary,
# 7x7 planes), where only VW=1 takes the unguarded path.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
LT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 SPLIT_LAYOUTS=1"
FT="MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 ACT_CALL=1 XGEMM_CARRY=1"
BT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 KSLICES=1 XGEMM_CARRY=1"
CT="MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=8"
c() { echo "$*" | tr ' ' ,; }
(for vw in 1 2; do
  timeout 60 $B check matmul --variant xgemm --device nvidia:0 --define "$(c $LT VW=$vw)" --cases 8 --seed 34
  timeout 60 $B check matmul --variant xgemm --device nvidia:0 --define "$(c $LT VW=$vw)" --problem matmul:batch=0,m=1030,k=770,n=1031,ta=0,tb=0
  timeout 60 $B check gemm_bias_act --variant xgemm --device nvidia:0 --define "$(c $FT VW=$vw)" --cases 6 --seed 34
  timeout 60 $B check gemm_bias_act_bwd --variant xgemm --device nvidia:0 --define "$(c $BT CHUNK=64 VW=$vw)" --cases 6 --seed 34
  timeout 60 $B check conv2d --variant gemm --device nvidia:0 --define "$(c $CT VW=$vw)" --problem conv2d:n=4,c=512,h=7,w=7,k=2048,r=1,s=1,sh=1,sw=1,ph=0,pw=0,dh=1,dw=1,g=1,bias=0
 done) > $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log; save
K=$PWD/opencl/kernels
printf 'matmul:m=4096,k=1024,n=1024\nmatmul:m=4096,k=1024,n=3072,tb=1\n' > $R/aligned.batch
printf 'matmul:m=4096,k=768,n=50257\nmatmul:m=4096,k=768,n=50257,tb=1\n' > $R/vocab.batch
pair() {  # name op variant problem-args base-defines cand-defines
  python3 .gpu/pin.py $K /tmp/pin/$1_base $2 $3 "$5" > /dev/null; python3 .gpu/pin.py $K /tmp/pin/$1_cand $2 $3 "$6" > /dev/null
  local plan=$(basename $(grep -l "^op $2\$" $K/*.plan))
  timeout 150 $B bench --device nvidia:0 $4 --variant $3 --plan /tmp/pin/$1_cand/$plan --baseline-plan /tmp/pin/$1_base/$plan \
    --repetitions 7 --min-time 0.02 > $R/pair_$1.log 2>&1
  echo "== $1"; grep -E "ratio" $R/pair_$1.log | cut -c1-230
}
pair mm_aligned_vw2 matmul xgemm "--batch $R/aligned.batch" "$LT VW=4" "$LT VW=2"; save
pair mm_aligned_vw1 matmul xgemm "--batch $R/aligned.batch" "$LT VW=4" "$LT VW=1"; save
pair mm_vocab_vw1 matmul xgemm "--batch $R/vocab.batch" "$LT VW=4" "$LT VW=1"; save
pair fwd_vw1 gemm_bias_act xgemm "--problem gemm_bias_act:m=4096,k=768,n=50257,act=none" "$FT VW=4" "$FT VW=1"; save
pair conv_vw1 conv2d gemm "--problem conv2d:n=32,c=512,h=7,w=7,k=2048,r=1,s=1,sh=1,sw=1,ph=0,pw=0,dh=1,dw=1,g=1,bias=0" "$CT VW=4" "$CT VW=1"; save
