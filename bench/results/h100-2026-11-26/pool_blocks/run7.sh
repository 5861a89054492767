# pool_blocks/run7: (A, B) two more forms of run5's kD (run4_kernels/): kG with restrict pointers, kH
# with kG's edge quads read lane by lane; registers from ptxas; each timed back to back, kD before and
# after. (C) every bench shape of issue 15's operators (issue15.batch) beside PyTorch, both back to
# back, max_pool2d_bwd on the committed kernel's defaults (kD).
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/pool_blocks
O=$OUT/run7
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run7); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
P=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
for k in kG kH; do
  .gpu/kinfo/kinfo .gpu/$k/pooling.cl max_pool_backward_blocks "-cl-nv-verbose -I$PWD/.gpu/$k -DDTYPE_F32 -DPK=3 -DPS=2 -DPP=1 -DPOOL_BX=64 -DPOOL_BI=2 -DPOOL_BJ=2" > $O/kinfo_$k.log 2>&1
  echo "$k: $(grep -A3 "entry function 'max_pool_backward_blocks'" $O/kinfo_$k.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c1-200)"
done
i=0
for s in kD_64 kG_64 kG_32 kH_64 kH_32 kD_64; do
  k=${s%_*} x=${s#*_} i=$((i + 1))
  timeout 60 $B bench --device nvidia:0 --problem $P --plan .gpu/$k/pooling.plan --variant blocks_3x3s2 --define POOL_BX=$x,POOL_BI=2,POOL_BJ=2 --timing stream --repetitions 9 --min-time 0.02 > $O/bench_${i}_$s.log 2>&1
  echo "$s $(grep @nvidia $O/bench_${i}_$s.log | cut -c70-150)"
done
save
timeout 430 bash bench/side_by_side.sh $B $O/issue15 python3 0.01 --batch $R/issue15.batch > $O/issue15.log 2>&1; save
grep -E "^\|" $O/issue15/side_by_side.md | cut -d'|' -f2,3,6,7
