#pragma once
// The tuning database: for each device (and driver), operator, variant and shape class, the defines
// `plumbline tune` found fastest among those that passed their checks. Reviewed text files in the
// repository, one per device, under opencl/tuning/ (PLUMBLINE_TUNING_DIR overrides), CLBlast's model:
//
//   # device | driver | op | variant | class | defines | evidence
//   NVIDIA H100 80GB HBM3 | 580.159.04 | matmul | xgemm | large | MWG=128 NWG=128 KWG=8 MDIMC=8 NDIMC=16 | 37.2 TFLOP/s ...
//
// The defines `off` say that the variant does not run on this device for this class: the next one in
// the plan whose condition holds runs instead (a variant faster on one device and slower on another;
// the evidence gives both times). `--variant` still runs it, and check still covers it.
// A launch takes the entry of its device and driver; else one of its device with another driver; else
// one of a device of the same architecture (the same driver first: CLBlast's fallback, so that an H200
// runs the H100's entries until it has its own); else the plan's defaults. The folder's file
// `architectures` names each device's architecture (`device | architecture` lines, written by
// `plumbline tune`); a device it does not name, or one whose driver names none, borrows nothing.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plans/plan.hpp"

namespace plumbline::plans {

struct TuningEntry {
  std::string device, driver, op, variant, shape_class;
  std::vector<std::pair<std::string, std::string>> defines;
  bool off = false;          // the defines field is `off`: the variant is passed over on this device
  std::string evidence;      // what the tuner measured, for the reviewer
  std::string architecture;  // of its device, from the folder's `architectures` file; empty if not named there
  Where where;

  std::string defines_text() const;  // "MWG=128 NWG=128"
  std::string line() const;          // the file's line for this entry
};

std::string tuning_dir();
// Every entry of every *.tuning file in the folder, each with its device's architecture; Error
// (FILE:LINE) on a malformed line.
std::vector<TuningEntry> read_tuning(const std::string& dir);
// The folder's `architectures` file: device name -> architecture (none if the file is absent); Error
// (FILE:LINE) on a malformed line or a device named twice.
std::map<std::string, std::string> read_architectures(const std::string& dir);
// Names the device's architecture in the folder's `architectures` file (a line replaced or added).
void merge_architecture(const std::string& dir, const std::string& device, const std::string& architecture);
const std::vector<TuningEntry>& tuning_database();  // of tuning_dir(), read once

// The entry for this device and driver (else for this device; else for a device of this architecture,
// this driver first, where the architecture is not empty), operator, variant and class. An entry whose
// `device` is not this one is borrowed.
const TuningEntry* find_tuning(const std::vector<TuningEntry>& db, const std::string& device, const std::string& driver,
                               const std::string& architecture, const std::string& op, const std::string& variant, const std::string& shape_class);

// The file that holds a device's entries ("nvidia-h100-80gb-hbm3.tuning").
std::string tuning_file_name(const std::string& device);
// Writes the entries into the file, replacing those with the same device, driver, op, variant and class.
void merge_tuning(const std::string& path, const std::vector<TuningEntry>& entries);

}  // namespace plumbline::plans
