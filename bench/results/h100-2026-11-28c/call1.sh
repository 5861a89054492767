# Call 1 (stop 54): stop 53's prepared forms (../h100-2026-11-28b/next/act_forms.py: ACT_CONSTANT around the
# three loops that still take the activation's code as a variable), each by step against a copy of the
# kernels as they are (bench checks each before it times it); the float32 forward also at its tuned
# entry's tile (ACT_CALL=1 as tuned, against the form's ACT_CALL=0). Then the 16-bit cross-entropy lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
R=bench/results/h100-2026-11-28b/next
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
s0=$(date +%s)
plan_tile='define MWG=64 NWG=64 KWG=16 MDIMC=16 NDIMC=16 ACT_CALL=0 XGEMM_CARRY=0 VW=4'
# name form variant batch ACT_CALL-at-the-entry's-tile (- : the plan's defines)
while read name form variant batch call; do
  [ $(( $(date +%s) - s0 )) -gt 380 ] && { echo "skip $name (time)"; continue; }
  d=/tmp/nf/$name; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
  [ $form != base ] && python3 $R/act_forms.py $d $form
  [ $call != - ] && sed -i "s/$plan_tile/define MWG=128 NWG=128 KWG=8 MDIMC=16 NDIMC=8 ACT_CALL=$call XGEMM_CARRY=1 VW=4/" $d/gemm.plan
  timeout 60 $P bench --device nvidia:0 --plan $d/gemm.plan --variant $variant --timing launch --repetitions 5 --min-time 0.05 \
    --json /tmp/$name.json --batch $R/$batch.batch > $O/$name.log 2>&1
  echo "$name rc $?: $(grep "@nvidia" $O/$name.log | grep -o "[0-9.]* ms" | head -1) $(python3 bench/steps.py /tmp/$name.json 2>/dev/null | sed 's/.*sampled check//')" | tee -a $O/steps.txt
done <<'LIST'
split_base base wgmma_split3 pre_split -
split_form pre_split wgmma_split3 pre_split -
split_base2 base wgmma_split3 pre_split -
split_form2 pre_split wgmma_split3 pre_split -
f32bwd_base base xgemm pre_f32 -
f32bwd_form pre_f32 xgemm pre_f32 -
f32fwd_base base xgemm fwd_f32 -
f32fwd_form fwd_f32 xgemm fwd_f32 -
f32fwd_entry_call1 base xgemm fwd_f32 1
f32fwd_entry_form fwd_f32 xgemm fwd_f32 0
LIST
echo "forms done in $(( $(date +%s) - s0 )) s"
timeout 120 bash bench/side_by_side.sh $P /tmp/sbsC python3 0.01 --batch bench/results/h100-2026-11-28c/ce16.batch > $O/sbs_ce16.log 2>&1
echo "sbs rc $?"; cp /tmp/sbsC/side_by_side.md $O/sbs_ce16.md; cut -d"|" -f2,3,10 $O/sbs_ce16.md | cut -c1-60,100- | tail -5
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/c1.tgz c1 && rm -rf $O
