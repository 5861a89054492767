#include "apps/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "core/error.hpp"

extern char** environ;

namespace plumbline::apps {

namespace fs = std::filesystem;

std::string ChildEnd::describe() const {
  if (stalled) return "killed after it made no progress for longer than its watchdog allows";
  if (signal) return "signal " + std::to_string(signal) + " (" + std::string(strsignal(signal)) + ")";
  return "exit " + std::to_string(exit_code);
}

std::string self_path() { return fs::read_symlink("/proc/self/exe").string(); }

namespace {

std::string last_line(const std::string& path) {
  std::ifstream f(path);
  std::string line, last;
  while (std::getline(f, line))
    if (!line.empty()) last = line;
  return last;
}

// A number field of a JSON line ("limit": how long the case it began may run; "exit": the code of a
// child that ended), when it has one.
std::optional<double> field(const std::string& line, const std::string& name) {
  const size_t at = line.find("\"" + name + "\":");
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stod(line.substr(at + name.size() + 3));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

ChildEnd run_child(const std::vector<std::string>& argv, const std::string& activity, double stall_seconds, const std::string& output) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!output.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw Error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  ChildEnd end;
  auto last_change = std::chrono::steady_clock::now();
  std::uintmax_t last_size = 0;
  double limit = 0;
  std::optional<double> ended;  // the exit code its "end" line gave
  for (;;) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
      return end;
    }
    std::error_code ec;
    const std::uintmax_t size = fs::exists(activity, ec) ? fs::file_size(activity, ec) : 0;
    const auto now = std::chrono::steady_clock::now();
    if (size != last_size) {
      const std::string last = last_line(activity);
      last_size = size, last_change = now, limit = field(last, "limit").value_or(0);
      ended = last.find("\"event\":\"end\"") != std::string::npos ? field(last, "exit") : std::nullopt;
    }
    const double quiet = std::chrono::duration<double>(now - last_change).count();
    if (ended && quiet > kLingerSeconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      end.lingered = true;
      end.exit_code = static_cast<int>(*ended);
      return end;
    }
    if (quiet > std::max(stall_seconds, limit + 120)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      end.stalled = true;
      end.signal = SIGKILL;
      return end;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace plumbline::apps
