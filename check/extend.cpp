#include "check/extend.hpp"

#include "core/error.hpp"

namespace plumbline {

void register_operator(OperatorExtension ext) {
  const std::string name = ext.spec.name;
  if (Registry::get().find_or_null(name))
    throw Error("operator '" + name + "' exists already" + (Registry::get().is_builtin(name) ? " (one of plumbline's own)" : "") +
                ": an added operator needs a name of its own");
  if (!ext.reference) throw Error("operator '" + name + "': no reference");
  if (!ext.error_model) throw Error("operator '" + name + "': no error model");
  if (!ext.generator) throw Error("operator '" + name + "': no problem generator");
  Registry::add(std::move(ext.spec));
  add_reference(ReferenceOp{name, std::move(ext.reference), {}});
  add_error_model(name, std::move(ext.error_model));
  add_problem_gen(name, std::move(ext.generator));
}

}  // namespace plumbline
