// bug: an implicit-GEMM backward data that multiplies the taps outside d_y as zeros: 0 * Inf is NaN
// op: conv2d_bwd_data
// plan: conv2d_bwd_data_igemm_padding_times_inf.plan
// Our phase-split implicit GEMM (conv_igemm_data.cl) without its second step: its slabs hold 0 where
// a tap's d_y position is outside d_y, which is right for finite weights; an Inf or NaN weight there
// turns d_x into NaN where the gradient (a sum without those terms) is finite. The forgotten case of
// every implicit GEMM over padding.
#include "conv_igemm_data.cl"
