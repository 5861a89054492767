// A kernel library's common header, in the style of CLBlast's common.opencl (written for plumbline's
// tests; no library's code): the precision and the vector width chosen by defines, parameter types
// named through typedefs that depend on them.
#ifndef PRECISION
  #define PRECISION 32
#endif
#if PRECISION == 16
  typedef half real;
  typedef half2 real2;
  typedef half4 real4;
#elif PRECISION == 32
  typedef float real;
  typedef float2 real2;
  typedef float4 real4;
#endif
typedef real real_arg;  // a scalar argument: the library may widen it (a double for half kernels)
#define GetRealArg(x) ((real)(x))
