// conv2d as Winograd's F(4x4, 3x3) in float32 (Lavin and Gray's transforms): a work-item per 4x4 output
// tile of one image and output channel, the filter and input transforms computed on the fly. About 4x
// fewer multiply-adds than the direct sum in the products, and outside the exact contract by design:
// judged in its numeric mode (docs/verification.md, "Numeric modes"):
//   plumbline check conv2d --kernel-file examples/kernels/conv2d_winograd_f4x3.cl --entry conv2d_winograd_f4x3 \
//     --args tensor:x,tensor:w,y,n,c,h,attr:w,k,ph,pw --global 'cdiv(dim(y,3),4),cdiv(dim(y,2),4),n*k' \
//     --when 'g == 1 && bias == 0' --math 'winograd(4,3)'
// (the mode adds its own condition: 3x3 filters, stride 1, dilation 1).
constant float BT[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                           {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constant float G[6][3] = {{0.25f, 0, 0},
                          {-1.0f / 6, -1.0f / 6, -1.0f / 6},
                          {-1.0f / 6, 1.0f / 6, -1.0f / 6},
                          {1.0f / 24, 1.0f / 12, 1.0f / 6},
                          {1.0f / 24, -1.0f / 12, 1.0f / 6},
                          {0, 0, 1}};
constant float AT[4][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};

__kernel void conv2d_winograd_f4x3(__global const float* x, __global const float* wt, __global float* y, int n, int c, int h, int w, int k,
                                   int ph, int pw) {
  const int oh = h + 2 * ph - 2, ow = w + 2 * pw - 2;
  const int tq = get_global_id(0), tp = get_global_id(1), nk = get_global_id(2);
  if (tq * 4 >= ow || tp * 4 >= oh || nk >= n * k) return;
  const int image = nk / k, o = nk % k;
  float m[6][6] = {{0}};
  for (int ci = 0; ci < c; ++ci) {
    float t[6][3], u[6][6], d[6][6], s[6][6];
    __global const float* g = wt + ((long)o * c + ci) * 9;
    for (int i = 0; i < 6; ++i)  // G g
      for (int j = 0; j < 3; ++j) t[i][j] = G[i][0] * g[j] + G[i][1] * g[3 + j] + G[i][2] * g[6 + j];
    for (int i = 0; i < 6; ++i)  // (G g) G^T
      for (int j = 0; j < 6; ++j) u[i][j] = t[i][0] * G[j][0] + t[i][1] * G[j][1] + t[i][2] * G[j][2];
    __global const float* plane = x + ((long)image * c + ci) * h * w;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        const int row = tp * 4 + i - ph, col = tq * 4 + j - pw;
        d[i][j] = row >= 0 && row < h && col >= 0 && col < w ? plane[(long)row * w + col] : 0.0f;
      }
    for (int i = 0; i < 6; ++i)  // B^T d
      for (int j = 0; j < 6; ++j) {
        float acc = 0.0f;
        for (int l = 0; l < 6; ++l)
          if (BT[i][l] != 0.0f) acc += BT[i][l] * d[l][j];
        s[i][j] = acc;
      }
    for (int i = 0; i < 6; ++i)  // (B^T d) B, times U, summed over the channels
      for (int j = 0; j < 6; ++j) {
        float acc = 0.0f;
        for (int l = 0; l < 6; ++l)
          if (BT[j][l] != 0.0f) acc += s[i][l] * BT[j][l];
        m[i][j] += u[i][j] * acc;
      }
  }
  __global float* out = y + ((long)image * k + o) * oh * ow;
  for (int i = 0; i < 4; ++i)  // A^T M A
    for (int j = 0; j < 4; ++j) {
      if (tp * 4 + i >= oh || tq * 4 + j >= ow) continue;
      float acc = 0.0f;
      for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b)
          if (AT[i][a] != 0.0f && AT[j][b] != 0.0f) acc += AT[i][a] * m[a][b] * AT[j][b];
      out[(long)(tp * 4 + i) * ow + tq * 4 + j] = acc;
    }
}
