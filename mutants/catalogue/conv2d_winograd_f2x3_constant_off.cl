// bug: a Winograd F(2x2, 3x3) convolution whose filter transform has one constant off by 1e-3, declared in winograd(2,3): the mode's bound must still catch it
// op: conv2d
// plan: conv2d_winograd_f2x3_constant_off.plan
// Our Winograd kernel (opencl/kernels/conv_winograd.cl) with G'[1][0] = 1.001 instead of 1: every
// output tile takes 0.1% more of its first filter row than it should.
#define WINOGRAD_G10 1.001f
#include "conv_winograd.cl"
