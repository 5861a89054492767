// bug: a Winograd F(2x2, 3x3) convolution in float32 that does not declare its numeric mode: its transforms add inputs of unlike magnitude, so its error on data with outliers exceeds any float32 summation's bound
// op: conv2d
// plan: conv2d_winograd_f2x3_outliers.plan
// Our Winograd kernel (opencl/kernels/conv_winograd.cl, where the algorithm and its error are described)
// launched without `math winograd(2,3)`: the exact contract judges it, and it fails there by 10-100x on
// normal values with outliers, while it passes its own mode (conv.plan's winograd_f2x3).
#include "conv_winograd.cl"
