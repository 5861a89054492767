# issue15_close/run7: `resident` in 16 bits with its register slots in pairs (one 16-byte load for two
# quads, so as many bytes in flight as float32's): checked, ptxas's registers, timed against quads
# back to back, then the 16-bit rows of issue 15's shapes beside PyTorch in the same dtype.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/issue15_close
O=$OUT/run7
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run7); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
K=opencl/kernels
timeout 120 $B check cross_entropy_bwd --device nvidia:0 --cases 30 --seed 91 > $O/check_ce_bwd.log 2>&1; tail -1 $O/check_ce_bwd.log
for d in f16 bf16; do
  timeout 60 $B check cross_entropy_bwd --device nvidia:0 --problem cross_entropy_bwd:b=64,c=50257,dtype=$d --values edge --variant resident > $O/check_ce_edge_$d.log 2>&1; tail -1 $O/check_ce_edge_$d.log
  timeout 60 $B check softmax --device nvidia:0 --problem softmax:m=33,n=32003,dtype=$d --values edge --variant resident > $O/check_sm_edge_$d.log 2>&1; tail -1 $O/check_sm_edge_$d.log
done
save
for d in F32 F16 BF16; do
  .gpu/kinfo/kinfo $K/softmax_quads.cl cross_entropy_backward_index_resident "-cl-nv-verbose -I$PWD/$K -DDTYPE_$d -DROW_WG=256 -DROW_QUADS=32" > $O/kinfo_ce_$d.log 2>&1
  echo "ce_bwd resident $d: $(grep -A3 "entry function 'cross_entropy_backward_index_resident'" $O/kinfo_ce_$d.log | grep -E 'stack|Used' | tr '\n' ' ' | cut -c30-160)"
done
save
for d in f16 bf16 f32; do for v in resident quads resident; do
  timeout 60 $B bench --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d --variant $v --timing stream --repetitions 9 --min-time 0.02 > $O/ce_${v}_$d.log 2>&1
  echo "ce_bwd $v $d $(grep @nvidia $O/ce_${v}_$d.log | cut -c60-170)"
done; done
save
timeout 200 bash bench/side_by_side.sh $B $O/sixteen python3 0.01 --batch bench/results/h100-2026-11-26/pool_blocks/issue15_16bit.batch > $O/sixteen.log 2>&1; save
grep -E "^\|" $O/sixteen/side_by_side.md | cut -d'|' -f2,3,6,10
