# Not run (stop 53: the device budget was spent): act_forms.py's three forms against copies of the kernels
# as they are, by step, each on its variant and problem (forms checked on PoCL in stop 53: pre_f32 and
# fwd_f32 through --plan on the xgemm variants, pre_split through the emulated split3 twin; bench checks
# each again before it times it). A form that gains goes into its kernel file, as 0685398 did.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/n1; mkdir -p $O
R=bench/results/h100-2026-11-28b/next
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
while read form variant; do
  for f in base $form base $form; do
    d=/tmp/nf/$form/$f; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
    [ $f != base ] && python3 $R/act_forms.py $d $form
    timeout 90 $P bench --device nvidia:0 --plan $d/gemm.plan --variant $variant --timing launch --repetitions 5 --min-time 0.05 \
      --json /tmp/${form}_$f.json --batch $R/$form.batch > $O/${form}_$f.log 2>&1
    echo "$form $f rc $?: $(grep "@nvidia" $O/${form}_$f.log | grep -o "[0-9.]* ms" | head -1) $(python3 bench/steps.py /tmp/${form}_$f.json 2>/dev/null | sed 's/.*sampled check//')" | tee -a $O/steps.txt
  done
done <<'LIST'
pre_split wgmma_split3
pre_f32 xgemm
fwd_f32 xgemm
LIST
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/n1.tgz n1 && rm -rf $O
