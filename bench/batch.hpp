#pragma once
// Batch files: real layers as problem lines (docs/problems.md), one per line, '#' comments
// (benchdnn's batch files). bench/batches/ holds the shipped ones.
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace plumbline::bench {

struct BatchEntry {
  Problem problem;
  std::string file;
  int line = 0;
};

// Every problem of the file; Error("FILE:LINE: ...") naming a malformed line.
std::vector<BatchEntry> read_batch(const std::string& path);
std::string batch_dir();                       // this tree's bench/batches
std::vector<std::string> real_layer_batches();  // every shipped batch but the smoke set
std::string smoke_batch();

}  // namespace plumbline::bench
