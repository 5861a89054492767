// docs/ stays true to the code: every operator has its section in docs/operators.md, naming each of
// its attributes and tensors (in the section, or in its family's shared introduction).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/registry.hpp"

using namespace plumbline;

namespace {

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The text of operator `op`'s section plus its family's introduction ("" when there is no section).
std::string section_of(const std::string& doc, const std::string& op) {
  const size_t start = doc.find("### `" + op + "`\n");
  if (start == std::string::npos) return "";
  const size_t end = doc.find("\n#", start + 4);
  const size_t family = doc.rfind("\n## ", start);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start) +
         doc.substr(family, doc.find("\n### ", family) - family);
}

bool names(const std::string& text, const std::string& name) {
  return text.find("`" + name + "`") != std::string::npos;
}

}  // namespace

TEST(Docs, OperatorsMdDocumentsEveryOperatorAttributeAndTensor) {
  const std::string doc = read(std::string(PLUMBLINE_SOURCE_DIR) + "/docs/operators.md");
  ASSERT_FALSE(doc.empty()) << "docs/operators.md not found";
  for (const auto& spec : Registry::get().all()) {
    SCOPED_TRACE(spec.name);
    const std::string own = section_of(doc, spec.name);
    ASSERT_FALSE(own.empty()) << "no section '### `" << spec.name << "`'";
    // A backward operator takes its forward's attributes, documented with the forward.
    const std::string attrs_text = own + (spec.forward.empty() ? "" : section_of(doc, spec.forward));
    for (const auto& a : spec.attrs) EXPECT_TRUE(names(attrs_text, a.name)) << "attribute '" << a.name << "' not documented";
    const Signature s = signature_of(Problem::make(spec.name));
    for (const auto& t : s.inputs) EXPECT_TRUE(names(own, t.name)) << "input '" << t.name << "' not documented";
    for (const auto& t : s.outputs) EXPECT_TRUE(names(own, t.name)) << "output '" << t.name << "' not documented";
  }
}

TEST(Docs, EgraphMdListsEveryShippedRule) {
  const std::string doc = read(std::string(PLUMBLINE_SOURCE_DIR) + "/docs/egraph.md");
  const std::string rules = read(std::string(PLUMBLINE_SOURCE_DIR) + "/egraph/rules/training.rules");
  ASSERT_FALSE(doc.empty());
  int count = 0;
  for (size_t at = rules.find("\n(rule "); at != std::string::npos; at = rules.find("\n(rule ", at + 1)) {
    const size_t start = at + 7;
    const std::string name = rules.substr(start, rules.find_first_of(" \n", start) - start);
    EXPECT_NE(doc.find("| `" + name + "` |"), std::string::npos) << "rule '" << name << "' is not in docs/egraph.md's table";
    ++count;
  }
  EXPECT_GE(count, 20);
}
