# Call 2 (stop 57, H200): at 4b32aa2 (the tail reread QUAD_UNROLL quads a round trip, held capped at 64
# registers). (1) kP: the tail's first group loaded before the slots' outputs are written (its round
# trip hidden behind them), paired against 4b32aa2's kernels, bit-identical on PoCL; (2) the softmax
# family's checks; (3) the tuner over held with QUAD_UNROLL=8 and the cap (0, 48, 64) now searchable,
# starting from candidates that keep four work-groups a multiprocessor; (4) the 16-bit and float32
# cross_entropy_bwd lines beside PyTorch in one run (bench/side_by_side.sh).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c2; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
for dt in bf16 f16; do
  PLUMBLINE_KERNEL_DIR=$PWD/.gpu/kP timeout $(left 100) $P bench $B --baseline-plan opencl/kernels/softmax.plan --problem cross_entropy_bwd:b=2048,c=32000,dtype=$dt >> $O/pairs_kP.log 2>&1
  echo "kP $dt rc $? $(grep -i 'ratio' $O/pairs_kP.log | tail -1 | cut -c1-200)" | tee -a $O/pairs.txt
done
for op in softmax log_softmax cross_entropy cross_entropy_bwd; do
  timeout 40 $P check $op --device nvidia:0 --cases 8 2>&1 | tail -1 | tee -a $O/check.log
done
cp -r opencl/tuning $O/tuning
S="ROW_WG=256 REG_QUADS=0"
timeout $(left 400) $P tune cross_entropy_bwd --variant held --device nvidia:0 --budget 200 --db $O/tuning --json $O/tune.json \
  --problem cross_entropy_bwd:b=2048,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=2048,c=32000,dtype=f16 \
  --start "$S HELD_QUADS=23 QUAD_UNROLL=8 MAX_REGISTERS=64" --start "$S HELD_QUADS=23 QUAD_UNROLL=2 MAX_REGISTERS=64" \
  --start "$S HELD_QUADS=15 QUAD_UNROLL=4 MAX_REGISTERS=48" --start "ROW_WG=512 REG_QUADS=0 HELD_QUADS=11 QUAD_UNROLL=8 MAX_REGISTERS=64" > $O/tune.log 2>&1
echo "tune rc $?"; tail -5 $O/tune.log
L=$(left 590); echo "side by side with $L s"
timeout $((L - 5)) bash bench/side_by_side.sh $P $O/sbs python3 0.01 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 \
  --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 --problem cross_entropy_bwd:b=8192,c=50257,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000 > $O/sbs.log 2>&1
echo "sbs rc $?"; cat $O/sbs/side_by_side.md 2>/dev/null | cut -c1-250
cd $OUT && tar -czf c2.tgz c2 && rm -rf c2
