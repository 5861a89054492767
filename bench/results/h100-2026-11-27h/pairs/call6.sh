# Call 6 (stop 51): call 5's PTX of the two programs (xgemm_mma in wgmma_split's program, xgemm_mma_halves)
# differs by four instructions an operand and slab, yet the halves run ~10% slower: their registers.
# Triton's ptxas is 8.7 and the driver's PTX says 9.0, so the version line is set to 8.7 for it.
set -u
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
O=$OUT/p6; mkdir -p $O
for v in plain halves; do
  sed 's/^\.version 9\.0/.version 8.7/' .gpu/$v.ptx > /tmp/$v.ptx
  $TB/ptxas -arch=sm_90a -v -o /tmp/$v.cubin /tmp/$v.ptx > $O/ptxas_$v.log 2>&1; echo "rc $?"; grep -E "Compiling|registers|spill" $O/ptxas_$v.log | head -30
done
$TB/cuobjdump -sass /tmp/halves.cubin > $O/sass_halves.txt 2>&1; $TB/cuobjdump -sass -fun xgemm_mma /tmp/plain.cubin > $O/sass_plain.txt 2>&1
wc -l $O/*.txt
