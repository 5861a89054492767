# Call 2 (stop 33): XGEMM_CARRY on the forward GEMMs and matmul's large class, the linear backward;
# max_pool2d_bwd `plane` without integer divisions a cell against HEAD's; then the transformer GEMMs
# and the pooling layer beside CLBlast and PyTorch with the entries as committed.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
FT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 ACT_CALL=1"
LT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 KSLICES=1"
WT="MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 CHUNK=64 SPLIT_LAYOUTS=1"
(timeout 60 $B check max_pool2d_bwd --variant plane --device nvidia:0 --cases 20 --seed 33
 timeout 60 $B check gemm_bias_act --variant xgemm --device nvidia:0 --define "$(echo $FT XGEMM_CARRY=1 | tr ' ' ,)" --cases 8
 timeout 60 $B check matmul --variant xgemm --device nvidia:0 --define "$(echo $LT SPLIT_LAYOUTS=0 XGEMM_CARRY=1 | tr ' ' ,)" --cases 8
 timeout 60 $B check gemm_bias_act_bwd --variant linear --device nvidia:0 --define "$(echo $WT XGEMM_CARRY=1 | tr ' ' ,)" --cases 6) > $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log; save
K=$PWD/opencl/kernels
printf 'gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh\ngemm_bias_act:m=8192,k=4096,n=1024,act=none\ngemm_bias_act:m=4096,k=1024,n=3072,act=gelu_erf\ngemm_bias_act:m=4096,k=768,n=3072,act=relu\n' > $R/fwd.batch
printf 'matmul:m=4096,k=1024,n=1024\nmatmul:m=4096,k=1024,n=3072,tb=1\nmatmul:batch=64,m=512,k=64,n=512\n' > $R/mm.batch
pair() {  # name op variant problem-args base-defines cand-defines
  python3 .gpu/pin.py $K /tmp/pin/$1_base $2 $3 "$5" > /dev/null; python3 .gpu/pin.py $K /tmp/pin/$1_cand $2 $3 "$6" > /dev/null
  timeout 100 $B bench --device nvidia:0 $4 --variant $3 --plan /tmp/pin/$1_cand/gemm.plan --baseline-plan /tmp/pin/$1_base/gemm.plan \
    --repetitions 7 --min-time 0.02 > $R/pair_$1.log 2>&1
  grep -E "ratio" $R/pair_$1.log | cut -c1-230
}
pair F_carry gemm_bias_act xgemm "--batch $R/fwd.batch" "$FT XGEMM_CARRY=0" "$FT XGEMM_CARRY=1"; save
pair M_carry matmul xgemm "--batch $R/mm.batch" "$LT SPLIT_LAYOUTS=1 XGEMM_CARRY=0" "$LT SPLIT_LAYOUTS=0 XGEMM_CARRY=1"; save
pair W_carry gemm_bias_act_bwd linear "--problem gemm_bias_act_bwd:m=8192,k=4096,n=1024,act=none" "$WT XGEMM_CARRY=0" "$WT XGEMM_CARRY=1"; save
timeout 60 $B bench --device nvidia:0 --problem max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1 --variant plane \
  --plan $K/pooling.plan --baseline-plan $PWD/.gpu/old/opencl/kernels/pooling.plan --repetitions 9 --min-time 0.02 > $R/pair_pool.log 2>&1
grep -E "ratio" $R/pair_pool.log | cut -c1-230; save
cp bench/batches/transformer_gemm.batch $R/sbs.batch; echo 'max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1' >> $R/sbs.batch
timeout 260 bash bench/side_by_side.sh $B $R/sbs python3 0.01 --batch $R/sbs.batch > $R/sbs.log 2>&1
grep -E "^\|" $R/sbs/side_by_side.md | cut -c1-200; save
