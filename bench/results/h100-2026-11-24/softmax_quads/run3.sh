set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P=.gpu/plumbline
timeout 200 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch .gpu/s28/long.batch --json $R/quads.json > $R/quads.log 2>&1
grep -h " ms " $R/quads.log | cut -c1-170
timeout 150 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch .gpu/s28/long.batch --variant wide --json $R/wide.json > $R/wide.log 2>&1
timeout 100 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch .gpu/s28/long.batch --variant rows --filter "cross_entropy:" --json $R/rows.json > $R/rows.log 2>&1
grep -h " ms " $R/wide.log $R/rows.log | cut -c1-170
timeout 100 python3 bench/peers/torch_peer.py $R/quads.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
python3 bench/side_by_side.py $R/quads.json $R/torch.json --json $R/sbs.json --markdown $R/sbs.md; cat $R/sbs.md
tar czf $OUT/r.tgz -C /tmp r
