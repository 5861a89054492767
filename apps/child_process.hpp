#pragma once
// Running plumbline itself as a child process, so that a kernel that crashes its process (a wild write
// on a CPU device, an abort in a driver) or hangs it cannot take the caller down: the caller sees how
// the child ended and goes on.
#include <string>
#include <vector>

namespace plumbline::apps {

struct ChildEnd {
  int exit_code = -1;            // when it exited
  int signal = 0;                // when a signal ended it (0: it exited)
  bool stalled = false;          // killed by us: `activity` did not change for `stall_seconds`
  bool lingered = false;         // killed by us after its last line said it ended ("event":"end"), with that exit code
  std::string describe() const;  // "exit 1", "signal 11 (SIGSEGV)", "killed after 180 s without progress"
};

// Runs argv (argv[0] the program) with the caller's stdout and stderr, or both into the file `output`
// where one is named. While it runs, the file `activity` is watched: when its size has not changed for
// `stall_seconds` (a value read from the file's last "limit" field, plus a margin, when it holds one),
// the child is killed. A child whose last line is an "end" event with its "exit" code has done its
// work: if it has not exited kLingerSeconds later (a driver's teardown that hangs), it is killed and
// that code stands.
inline constexpr double kLingerSeconds = 5;
ChildEnd run_child(const std::vector<std::string>& argv, const std::string& activity, double stall_seconds, const std::string& output = "");

// This program's path (/proc/self/exe).
std::string self_path();

}  // namespace plumbline::apps
