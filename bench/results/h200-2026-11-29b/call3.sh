# Call 3 (2026-11-29, H200): PyTorch's float32 convolutions under our bound on the H200
# (bench/peers/torch_conv_accuracy.py, as stop 45 ran it on the H100): the five float32 lines that call 1
# found over 2x PyTorch's time, and two within it as controls.
set -u
O=$OUT/c3; mkdir -p $O
L="conv2d:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1 conv2d_bwd_data:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1
conv2d_bwd_weight:n=32,c=128,h=28,w=28,k=128,r=3,s=3,ph=1,pw=1 conv2d_bwd_weight:n=32,c=256,h=14,w=14,k=256,r=3,s=3,ph=1,pw=1
conv2d_bwd_weight:n=32,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1 conv2d:n=32,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1
conv2d_bwd_data:n=32,c=256,h=28,w=28,k=256,r=3,s=3,sh=2,sw=2,ph=1,pw=1"
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt 2>&1
timeout 400 python3 bench/peers/torch_conv_accuracy.py $L --seeds 2 --json $O/torch_accuracy.json > $O/torch_accuracy.md 2>&1; echo "rc $?"
cat $O/torch_accuracy.md
cd $OUT && tar -czf c3.tgz c3 && rm -rf c3
