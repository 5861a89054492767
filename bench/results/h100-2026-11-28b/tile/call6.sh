# Call 6 (stop 53): call 5's SASS: the epilogue's slope is act_slope's whole switch, inlined once for each
# of a work-item's 8 columns, so each column goes through its branches in turn. The landed candidate runs
# the row loop (gp_rows) inside activation.h's ACT_CONSTANT, the code a constant in each copy. Checked on
# the H100 (every activation), by step, paired against 6defdc5's kernels, the 16-bit gelu backwards side
# by side twice; and the same for gemm_bias_act's wgmma epilogue as a diagnostic form (forward_form.py).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t6; mkdir -p $O
R=bench/results/h100-2026-11-28b/tile
F=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
V="--variant wgmma_split_pairs"
for c in "m=1024,k=24,n=1024,act=gelu_tanh sparse" "m=1088,k=40,n=1024,act=gelu_erf edge" "m=1057,k=40,n=1032,act=silu uniform" \
         "m=1030,k=64,n=1032,act=relu edge" "m=2049,k=1030,n=1096,act=sigmoid normal" "m=1024,k=23,n=1088,act=tanh edge" \
         "m=1030,k=23,n=1088,act=gelu_tanh edge"; do
  set -- $c
  timeout 60 $P check gemm_bias_act_bwd $V --device nvidia:0 --problem gemm_bias_act_bwd:$1,dtype=bf16 --values $2 >> $O/check.log 2>&1 || echo "rc $? $1 $2" >> $O/check.log
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/st.json --batch $F/bf16.batch > $O/steps.log 2>&1
echo "== by step (rc $?)"; python3 bench/steps.py /tmp/st.json | tee -a $O/steps.txt
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $F/bf16.batch --baseline-plan .gpu/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -E "ratio|paired|FAIL|error" $O/paired.log | cut -c1-220
for i in 1 2; do
  timeout 75 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $F/gelu16.batch > /tmp/sbs$i.log 2>&1
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md; grep gemm_bias $O/sbs$i.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
done
for f in base form base form; do
  d=/tmp/fw/$f; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
  [ $f = form ] && python3 $R/forward_form.py $d
  timeout 60 $P bench --device nvidia:0 --plan $d/gemm.plan --variant wgmma --timing launch --repetitions 5 --min-time 0.05 \
    --json /tmp/fw_$f.json --batch $R/fwd.batch > $O/fw_$f.log 2>&1
  echo "forward $f rc $?: $(python3 bench/steps.py /tmp/fw_$f.json 2>/dev/null | cut -c1-40,100-)" | tee -a $O/forward.txt
done
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/t6.tgz t6 && rm -rf $O
