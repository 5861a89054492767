# Call 2 (stop 34): call 1's matmul pairs again, with every define of the variant pinned (call 1 left
# KSLICES and XGEMM_CARRY out, and the plan copies did not load).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
LT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 SPLIT_LAYOUTS=1 KSLICES=1 XGEMM_CARRY=0"
K=$PWD/opencl/kernels
printf 'matmul:m=4096,k=1024,n=1024\nmatmul:m=4096,k=1024,n=3072,tb=1\n' > $R/aligned.batch
printf 'matmul:m=4096,k=768,n=50257\nmatmul:m=4096,k=768,n=50257,tb=1\n' > $R/vocab.batch
pair() {  # name op variant problem-args base-defines cand-defines
  python3 .gpu/pin.py $K /tmp/pin/$1_base $2 $3 "$5" > /dev/null; python3 .gpu/pin.py $K /tmp/pin/$1_cand $2 $3 "$6" > /dev/null
  local plan=$(basename $(grep -l "^op $2\$" $K/*.plan))
  timeout 150 $B bench --device nvidia:0 $4 --variant $3 --plan /tmp/pin/$1_cand/$plan --baseline-plan /tmp/pin/$1_base/$plan \
    --repetitions 7 --min-time 0.02 > $R/pair_$1.log 2>&1
  echo "== $1"; grep -E "ratio|error" $R/pair_$1.log | cut -c1-230
}
pair mm_aligned_vw2 matmul xgemm "--batch $R/aligned.batch" "$LT VW=4" "$LT VW=2"; save
pair mm_aligned_vw1 matmul xgemm "--batch $R/aligned.batch" "$LT VW=4" "$LT VW=1"; save
pair mm_vocab_vw1 matmul xgemm "--batch $R/vocab.batch" "$LT VW=4" "$LT VW=1"; save
