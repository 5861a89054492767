# stream_timing/run5 (named nvidia-h100-x1: run4 came on an H200, whose device has no tuning entries): stream timing with events only on the first and last commands; (A) the host's
# enqueue rate (a 1024-element sum), (B) group_norm_bwd's small layers in each variant (.gpu/gn_kernels:
# opencl/kernels with the `when` of planes and chunks opened to every problem), twice, interleaved;
# (C) issue 15's list beside PyTorch.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-25/stream_timing
O=$OUT/run5
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run5); }
nvidia-smi > $O/device.txt 2>&1
for t in launch stream; do
  timeout 40 .gpu/plumbline bench --device nvidia:0 --problem sum:m=1,n=1024,over=all --problem sum:m=4096,n=4096,over=all --timing $t --repetitions 9 --min-time 0.01 > $O/tiny_$t.log 2>&1
  grep @nvidia $O/tiny_$t.log | cut -c1-100
done
G="--problem group_norm_bwd:n=8,c=256,h=32,w=32,g=32 --problem group_norm_bwd:n=8,c=512,h=16,w=16,g=32"
for i in 1 2; do
  for v in split planes; do
    for t in stream launch; do
      timeout 60 .gpu/plumbline bench --device nvidia:0 $G --plan .gpu/gn_kernels/norms.plan --variant $v --timing $t --repetitions 9 --min-time 0.01 > $O/gn_${v}_${t}_$i.log 2>&1
      grep @nvidia $O/gn_${v}_${t}_$i.log | sed "s/^/$v $t /" | cut -c1-120
    done
  done
done
save
timeout 150 bash bench/side_by_side.sh .gpu/plumbline $O/mem python3 0.01 --batch $R/mem.batch > $O/mem.log 2>&1; save
grep -E "^\|" $O/mem/side_by_side.md | cut -d'|' -f2,3,7 | head -20
