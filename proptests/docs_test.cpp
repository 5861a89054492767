// docs/ stays true to the code: every operator has its section in docs/operators.md, naming each of
// its attributes and tensors (in the section, or in its family's shared introduction); and the tree
// stays a product: no labels of the work's history, doc links that resolve, a small clone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
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
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start) + doc.substr(family, doc.find("\n### ", family) - family);
}

bool names(const std::string& text, const std::string& name) { return text.find("`" + name + "`") != std::string::npos; }

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

namespace {

namespace fs = std::filesystem;

// The repository's own files: what a clone holds, without build folders, outputs and caches.
std::vector<fs::path> tree_files() {
  std::vector<fs::path> out;
  const fs::path root(PLUMBLINE_SOURCE_DIR);
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == "out" || name == "__pycache__" || name.rfind("build", 0) == 0 ||
                               (name.size() > 1 && name[0] == '.' && it.depth() == 0 && name != ".ci"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) out.push_back(it->path());
  }
  return out;
}

bool is_text(const fs::path& p) {
  static const std::set<std::string> ext = {".md", ".cpp", ".hpp", ".h",     ".cl",    ".plan", ".batch", ".tuning",
                                            ".py", ".sh",  ".txt", ".rules", ".cmake", ".in",   ""};
  return ext.count(p.extension().string()) > 0;
}

}  // namespace

// The tree states facts with their date and command; labels of how the work was organised (the words
// stop, call, issue or session followed by a number, or run glued to one) mean nothing to a reader of
// a clone.
// docs/extending.md's C++ and CMake snippets are the worked example's own lines (examples/downstream/,
// built and run against an installed copy by the downstream_example test): they compile as written.
TEST(Docs, ExtendingMdSnippetsAreTheBuiltExamplesLines) {
  const std::string src = PLUMBLINE_SOURCE_DIR;
  const std::string doc = read(src + "/docs/extending.md");
  std::string example;
  for (const char* f : {"CMakeLists.txt", "my_kernels_test.cpp", "leaky_relu.cpp"}) example += read(src + "/examples/downstream/" + f) + "\n";
  int snippets = 0;
  for (const std::string fence : {"```cpp\n", "```cmake\n"})
    for (size_t at = doc.find(fence); at != std::string::npos; at = doc.find(fence, at + 1)) {
      const size_t start = at + fence.size(), end = doc.find("```\n", start);
      const std::string snippet = doc.substr(start, end - start);
      EXPECT_NE(example.find(snippet), std::string::npos) << "not a piece of examples/downstream/:\n" << snippet;
      ++snippets;
    }
  EXPECT_EQ(snippets, 3);
}

TEST(Tree, NoLabelOfTheWorksOwnHistory) {
  static const std::regex label(R"(\b([Ss]top|[Cc]all|[Ii]ssue|[Ss]ession)s? \d+\b|\b(run|call)\d+\b|bench/results/|\.\./shared/)");
  for (const auto& p : tree_files()) {
    if (!is_text(p) || p.filename() == "docs_test.cpp") continue;
    std::istringstream in(read(p.string()));
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      std::smatch m;
      if (std::regex_search(line, m, label)) ADD_FAILURE() << fs::relative(p, PLUMBLINE_SOURCE_DIR).string() << ":" << n << ": '" << m.str() << "'";
    }
  }
}

// Every Markdown link of the tree's docs points at a file of the tree (or the web).
TEST(Tree, EveryDocLinkResolvesInsideTheRepository) {
  static const std::regex link(R"(\]\(([^)#\s]+)(#[^)]*)?\))");
  int links = 0;
  for (const auto& p : tree_files()) {
    if (p.extension() != ".md") continue;
    const std::string text = read(p.string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1].str();
      if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0 || target.rfind("mailto:", 0) == 0) continue;
      ++links;
      const fs::path resolved = fs::weakly_canonical(p.parent_path() / target);
      const std::string rel = fs::relative(resolved, fs::canonical(PLUMBLINE_SOURCE_DIR)).string();
      EXPECT_TRUE(fs::exists(resolved) && rel.rfind("..", 0) != 0)
          << fs::relative(p, PLUMBLINE_SOURCE_DIR).string() << " links to '" << target << "', which is not a file of the repository";
    }
  }
  EXPECT_GT(links, 10);  // docs/README.md's index alone has more
}

// A clone carries the product, not records: under 5 MB without .git.
TEST(Tree, AFreshCloneIsSmall) {
  uintmax_t bytes = 0;
  for (const auto& p : tree_files()) bytes += fs::file_size(p);
  EXPECT_LT(bytes, 5u * 1000 * 1000) << "the tree holds " << bytes << " bytes";
}
