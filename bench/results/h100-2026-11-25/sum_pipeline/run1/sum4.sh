# Call 4 (stop 34): the one-launch sum's first pass with its rounds double-buffered (SUM_PIPELINE=1:
# the next round's loads issued before this round is added), against the entry (SUM_PIPELINE=0);
# checks first, then paired runs at the entry's defines, a short retune with the define in the space,
# and the 16M-element sums and means beside PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
E="SUM_WG=256 SUM_CHUNK=32768 SUM_UNROLL=8"
c() { echo "$*" | tr ' ' ,; }
(for op in sum mean; do
  timeout 60 $B check $op --variant onepass --device nvidia:0 --define "$(c $E SUM_PIPELINE=1)" --cases 12 --seed 34
  timeout 60 $B check $op --variant onepass --device nvidia:0 --define "$(c SUM_WG=128 SUM_CHUNK=4096 SUM_UNROLL=2 SUM_PIPELINE=1)" --cases 12 --seed 35
  timeout 60 $B check $op --variant split --device nvidia:0 --define "$(c $E SUM_PIPELINE=1)" --cases 8 --seed 34
  timeout 60 $B check $op --variant onepass --device nvidia:0 --define "$(c $E SUM_PIPELINE=1)" --problem $op:m=4099,n=4097,over=all --values normal
 done) > $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log; save
K=$PWD/opencl/kernels
printf 'sum:m=1024,n=16384,over=all\nsum:m=1024,n=65536,over=all\nmean:m=1024,n=16384,over=all\nsum:m=1,n=16777216,over=row\n' > $R/sums.batch
pair() {  # name op variant problem-args base-defines cand-defines
  python3 .gpu/pin.py $K /tmp/pin/$1_base $2 $3 "$5" > /dev/null; python3 .gpu/pin.py $K /tmp/pin/$1_cand $2 $3 "$6" > /dev/null
  local plan=$(basename $(grep -l "^op $2\$" $K/*.plan))
  timeout 120 $B bench --device nvidia:0 $4 --variant $3 --plan /tmp/pin/$1_cand/$plan --baseline-plan /tmp/pin/$1_base/$plan \
    --repetitions 15 --min-time 0.02 > $R/pair_$1.log 2>&1
  echo "== $1"; grep -E "ratio|error" $R/pair_$1.log | cut -c1-230
}
grep sum: $R/sums.batch > $R/sum.batch; grep mean: $R/sums.batch > $R/mean.batch
pair sum_pipe sum onepass "--batch $R/sum.batch" "$E SUM_PIPELINE=0" "$E SUM_PIPELINE=1"; save
pair mean_pipe mean onepass "--batch $R/mean.batch" "$E SUM_PIPELINE=0" "$E SUM_PIPELINE=1"; save
pair sum_pipe16 sum onepass "--batch $R/sum.batch" "$E SUM_PIPELINE=0" "SUM_WG=256 SUM_CHUNK=65536 SUM_UNROLL=16 SUM_PIPELINE=1"; save
cp -r opencl/tuning $R/db
for op in sum mean; do
  timeout 130 $B tune $op --variant onepass --device nvidia:0 --problem $op:m=4096,n=4096,over=all --problem $op:m=1024,n=65536,over=all \
    --budget 90 --seed 34 --start "$E SUM_PIPELINE=1" --start "SUM_WG=256 SUM_CHUNK=65536 SUM_UNROLL=16 SUM_PIPELINE=1" \
    --start "SUM_WG=128 SUM_CHUNK=16384 SUM_UNROLL=8 SUM_PIPELINE=1" --db $R/db > $R/tune_$op.log 2>&1
  tail -n 4 $R/tune_$op.log | cut -c1-250; save
done
diff opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/db/nvidia-h100-80gb-hbm3.tuning | cut -c1-250
save
