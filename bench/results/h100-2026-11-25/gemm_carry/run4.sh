# Call 4 (stop 33): the transformer GEMMs beside CLBlast and PyTorch again (a second machine start
# after run2's), then issue 15's short list beside PyTorch: sum and mean, bias_add_bwd, the norms'
# backward, pooling's backward and global_avg_pool.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
timeout 200 bash bench/side_by_side.sh $B $R/gemm python3 0.01 --batch bench/batches/transformer_gemm.batch > $R/gemm.log 2>&1
grep -E "^\|" $R/gemm/side_by_side.md | cut -c1-140; save
cat > $R/mem.batch <<'B2'
sum:m=4096,n=4096,over=all
mean:m=4096,n=4096,over=all
sum:m=1,n=16777216,over=row
mean:m=4096,n=4096,over=row
bias_add_bwd:m=4096,n=4096
max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
global_avg_pool:n=32,c=2048,h=7,w=7
group_norm_bwd:n=8,c=256,h=32,w=32,g=32
group_norm_bwd:n=16,c=128,h=64,w=64,g=32
group_norm_bwd:n=8,c=512,h=16,w=16,g=32
group_norm_bwd:n=4,c=64,h=128,w=128,g=32
layer_norm_bwd:m=8192,n=1024
rms_norm_bwd:m=8192,n=4096
B2
timeout 300 bash bench/side_by_side.sh $B $R/mem python3 0.01 --batch $R/mem.batch > $R/mem.log 2>&1
grep -E "^\|" $R/mem/side_by_side.md | cut -c1-140; grep "@nvidia" $R/mem/ours.log | cut -c1-120; save
