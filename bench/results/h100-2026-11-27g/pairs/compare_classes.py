import struct, sys, math
def load(p):
    d = open(p, "rb").read()
    hl = struct.unpack("<H", d[8:10])[0]; hdr = d[10:10 + hl].decode()
    fmt = "<f" if "<f4" in hdr else "<d"
    sz = 4 if fmt == "<f" else 8
    body = d[10 + hl:]
    return [x[0] for x in struct.iter_unpack(fmt, body)]
def cls(x):
    return "nan" if math.isnan(x) else ("+inf" if x == math.inf else ("-inf" if x == -math.inf else "fin"))
ref_dir, got_dir = sys.argv[1], sys.argv[2]
for name in ("d_a", "d_b", "d_bias"):
    r, g = load(f"{ref_dir}/{name}.npy"), load(f"{got_dir}/{name}.npy")
    bad = [(i, r[i], g[i]) for i in range(len(r)) if cls(r[i]) != cls(g[i])]
    nonfin = sum(1 for x in r if cls(x) != "fin")
    print(name, "elements", len(r), "non-finite in ref", nonfin, "class mismatches", len(bad), bad[:3])
