# Crafted inputs for gemm_bias_act_bwd (bf16): normal values, one +Inf in B at (3, 5) and one -Inf in A
# at (7, 2): Z's column 5 and row 7 are then infinite, so G there is d_y (gelu' = 1 at +Inf) or 0.
import random, struct, sys
m, k, n = 1024, 24, 1024
rng = random.Random(7)
def bf16(x):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    b = (b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000
    return struct.unpack('<f', struct.pack('<I', b))[0]
def save(name, shape, vals):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""))
    hdr += " " * (64 - (10 + len(hdr) + 1) % 64) + "\n"
    with open(name, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack("<%df" % len(vals), *vals))
a = [bf16(rng.gauss(0, 1)) for _ in range(m * k)]
b = [bf16(rng.gauss(0, 1)) for _ in range(k * n)]
b[3 * n + 5] = float("inf")
a[7 * k + 2] = float("-inf")
bias = [0.0] * n
dy = [bf16(rng.gauss(0, 1)) for _ in range(m * n)]
save("/tmp/craft/a.npy", (m, k), a); save("/tmp/craft/b.npy", (k, n), b)
save("/tmp/craft/bias.npy", (n,), bias); save("/tmp/craft/d_y.npy", (m, n), dy)
