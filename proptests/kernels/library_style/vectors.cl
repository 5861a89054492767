// The library's vector type of a kernel family, its width chosen by a define (VW = 1, 2 or 4): the
// second file of the program, after common.cl.
#ifndef VW
  #define VW 1
#endif
#if VW == 1
  typedef real realV;
#elif VW == 2
  typedef real2 realV;
#elif VW == 4
  typedef real4 realV;
#endif
