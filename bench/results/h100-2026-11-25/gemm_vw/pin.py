# pin.py SRC DST OP VARIANT DEFINES: a copy of the kernels folder whose plan runs DEFINES for OP's VARIANT
import sys, shutil, os, re
src, dst, op, variant, defines = sys.argv[1:6]
shutil.rmtree(dst, ignore_errors=True); shutil.copytree(src, dst)
for plan in os.listdir(dst):
    if not plan.endswith('.plan'): continue
    lines = open(os.path.join(dst, plan)).read().split('\n'); cur_op = cur_var = None; hit = False
    for i, l in enumerate(lines):
        if l.startswith('op '): cur_op = l.split()[1]
        elif l.startswith('variant '): cur_var = l.split()[1]
        elif l.strip().startswith('define ') and cur_op == op and cur_var == variant:
            lines[i] = '  define ' + defines; hit = True
    if hit: open(os.path.join(dst, plan), 'w').write('\n'.join(lines)); print('pinned', dst, plan, op, variant, defines)
