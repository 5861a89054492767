#pragma once
// The type names a program's own source gives its kernel parameters: kernel libraries name them
// (CLBlast's `typedef float real_arg;`, `realMD` a float, float2, ... by a define), and the driver
// reports a parameter's type by that name. TypeNames reads the typedefs and object-like macros of the
// source as the build's -D options select them (its #if, #ifdef, #elif and #else lines evaluated like
// the OpenCL compiler's preprocessor would, for integer conditions), and resolves a name to a built-in
// type: `realMD*` to `float2*`.
#include <map>
#include <string>

namespace plumbline::ocl {

class TypeNames {
 public:
  TypeNames() = default;
  // From a program's full source (includes inlined) and its build options (-DNAME=VALUE, -DNAME).
  TypeNames(const std::string& source, const std::string& options);
  // `declared`: names a plan gives a type of (`type real_arg float`), over the source's.
  void declare(const std::map<std::string, std::string>& declared);

  // The built-in type a parameter's type name stands for ("realMD*" -> "float2*"); the name itself
  // where nothing resolves it (a built-in type, or one plumbline cannot see through).
  std::string resolve(const std::string& type) const;

 private:
  std::map<std::string, std::string> names_;  // typedef NAME -> TYPE and #define NAME TYPE, as selected
};

}  // namespace plumbline::ocl
