# Call 1 (stop 33): the carried last depth (XGEMM_CARRY) and sliced depth in the backward (KSLICES),
# checked on the H100, then paired against the entries, then the backward retuned with them.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
LT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 SPLIT_LAYOUTS=1 KSLICES=1"
NT="MWG=128 NWG=64 KWG=16 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2"
BT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 CHUNK=64"
# 1. checks at the tiles that will be timed
(timeout 80 $B check matmul --variant xgemm --device nvidia:0 --define "$(echo $LT XGEMM_CARRY=1 | tr ' ' ,)" --cases 10
 timeout 60 $B check matmul --variant xgemm --device nvidia:0 --define "$(echo $NT XGEMM_CARRY=1 | tr ' ' ,)" --cases 8
 timeout 80 $B check gemm_bias_act_bwd --variant xgemm --device nvidia:0 --define "$(echo $BT KSLICES=2 XGEMM_CARRY=1 | tr ' ' ,)" --cases 8) > $R/checks.log 2>&1
grep -E "pass|FAIL" $R/checks.log | tail -5; save
# 2. paired: each candidate against the entry's defines, both from plan copies
K=$PWD/opencl/kernels
pair() {  # name op variant problem base-defines cand-defines
  python3 .gpu/pin.py $K /tmp/pin/$1_base $2 $3 "$5" > /dev/null; python3 .gpu/pin.py $K /tmp/pin/$1_cand $2 $3 "$6" > /dev/null
  timeout 90 $B bench --device nvidia:0 --problem "$4" --variant $3 --plan /tmp/pin/$1_cand/gemm.plan --baseline-plan /tmp/pin/$1_base/gemm.plan \
    --repetitions 7 --min-time 0.02 > $R/pair_$1.log 2>&1
  grep -E "ratio|steps" $R/pair_$1.log | cut -c1-230
}
pair L_carry matmul xgemm matmul:m=4096,k=1024,n=4096 "$LT XGEMM_CARRY=0" "$LT XGEMM_CARRY=1"
pair N_carry matmul xgemm matmul:batch=64,m=512,k=512,n=64 "$NT XGEMM_CARRY=0" "$NT XGEMM_CARRY=1"
pair B_carry gemm_bias_act_bwd xgemm gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh "$BT KSLICES=1 XGEMM_CARRY=0" "$BT KSLICES=1 XGEMM_CARRY=1"
pair B_slices gemm_bias_act_bwd xgemm gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh "$BT KSLICES=1 XGEMM_CARRY=0" "$BT KSLICES=2 XGEMM_CARRY=0"
save
# 3. the backward retuned with both defines in its space (written to a copy of the database)
mkdir -p $R/db; cp opencl/tuning/*.tuning $R/db/
timeout 230 $B tune gemm_bias_act_bwd --variant xgemm --device nvidia:0 --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh \
  --budget 170 --db $R/db --json $R/tune_bwd.json \
  --start "$BT KSLICES=2 XGEMM_CARRY=1" --start "$BT KSLICES=1 XGEMM_CARRY=1" --start "MWG=128 NWG=128 KWG=16 MDIMC=8 NDIMC=16 CHUNK=64 KSLICES=2 XGEMM_CARRY=0" \
  --start "MWG=128 NWG=128 KWG=16 MDIMC=16 NDIMC=8 CHUNK=64 KSLICES=2 XGEMM_CARRY=1" > $R/tune_bwd.log 2>&1
tail -4 $R/tune_bwd.log | cut -c1-300; save
timeout 100 $B tune matmul --variant xgemm --device nvidia:0 --problem matmul:batch=64,m=512,k=512,n=64 --budget 70 --db $R/db --json $R/tune_n64.json \
  --start "MWG=128 NWG=64 KWG=16 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=4 XGEMM_CARRY=1" --start "MWG=128 NWG=64 KWG=8 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2 XGEMM_CARRY=1" > $R/tune_n64.log 2>&1
tail -3 $R/tune_n64.log | cut -c1-300; save
