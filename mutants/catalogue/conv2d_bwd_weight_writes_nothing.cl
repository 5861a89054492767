// bug: a weight-gradient kernel that writes nothing
// op: conv2d_bwd_weight
// entries: wgrad,wgrad_bias,dbias
// Planted bug (seed 003, oxicuda-dnn's wgrad): the kernel body computes nothing and returns. Its own
// tests checked names and dimensions only. plumbline: every output is poisoned before the launch.
// Entries: conv2d_bwd_weight's three steps (weight, weight with a bias buffer, bias).
__kernel void wgrad(__global const float* x, __global const float* d_y, __global float* d_w, int n, int c, int h, int w,
                    int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {}
__kernel void wgrad_bias(__global const float* x, __global const float* d_y, __global float* d_w, __global float* d_bias,
                         int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw,
                         int g, int bias) {}
__kernel void dbias(__global const float* x, __global const float* d_y, __global float* d_w, __global float* d_bias,
                    int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw,
                    int g, int bias) {}
