#pragma once
// Batch files: real layers as problem lines (docs/problems.md), one per line, '#' comments, composed
// as benchdnn's are: `include FILE` (relative to the including file), and modifiers that expand every
// problem line after them (and every problem of a later include) until the next of their kind:
// `ops A,B,...` (the line's attributes as each operator: a layer in its three directions) and
// `dtype f16,bf16` (the line in each storage format, where the line names none); `ops` or `dtype`
// alone ends it. A problem may carry a name, `NAME = LINE` (a layer's: `layer2.0.conv2 = conv2d:...`),
// which every problem it expands into keeps and bench shows. bench/batches/ holds the shipped ones.
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace plumbline::bench {

struct BatchEntry {
  Problem problem;
  std::string file;
  int line = 0;
  std::string name;  // the line's NAME = ..., or ""
};

// Every problem of the file, expanded; Error("FILE:LINE: ...") naming a malformed line or an include cycle.
std::vector<BatchEntry> read_batch(const std::string& path);
std::string batch_dir();                        // this tree's bench/batches
std::vector<std::string> real_layer_batches();  // every shipped batch but the smoke set
std::string smoke_batch();

}  // namespace plumbline::bench
