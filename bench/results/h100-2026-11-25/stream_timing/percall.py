# PyTorch timed one call at a time (CUDA events around a single call, synchronized after each), beside
# its loop timing (events around a loop of calls, as bench/peers/torch_peer.py): what per-launch
# overhead the loop hides.
import statistics, torch
dev = "cuda"
cases = {
    "sum:m=1,n=1024,over=all": (lambda x: x.sum(), [torch.randn(1024, device=dev)]),
    "sum:m=1024,n=16384,over=all": (lambda x: x.sum(), [torch.randn(1024, 16384, device=dev)]),
    "sum:m=1024,n=65536,over=all": (lambda x: x.sum(), [torch.randn(1024, 65536, device=dev)]),
    "act:n=16777216,act=relu": (lambda x: torch.relu(x), [torch.randn(16777216, device=dev)]),
    "add:n=16777216": (lambda x, y: x + y, [torch.randn(16777216, device=dev), torch.randn(16777216, device=dev)]),
}
for name, (fn, args) in cases.items():
    for _ in range(5): fn(*args)
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    one = []
    for _ in range(300):
        s.record(); fn(*args); e.record(); e.synchronize(); one.append(s.elapsed_time(e) * 1e3)
    loop = []
    for _ in range(9):
        s.record()
        for _ in range(300): fn(*args)
        e.record(); e.synchronize(); loop.append(s.elapsed_time(e) * 1e3 / 300)
    print(f"{name}: one call {statistics.median(one):.2f} us (min {min(one):.2f}), loop {statistics.median(loop):.2f} us", flush=True)
