#include "bench/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace spindle::bench {

Status WriteSite(const std::string& dir, const std::map<std::string, std::string>& properties,
                 const std::string& file) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = dir + "/" + file;
  std::ofstream out(path);
  out << "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [name, value] : properties) {
    out << "  <property><name>" << name << "</name><value>" << value << "</value></property>\n";
  }
  out << "</configuration>\n";
  out.close();
  if (!out) return Status::IoError("cannot write " + path);
  return Status::OK();
}

Result<pid_t> Spawn(const std::string& binary, const std::vector<std::string>& args,
                    const std::string& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>("spindle"));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) return Status::IoError("fork failed");
  if (child == 0) {
    // Dies with its parent: a crashed run leaves no daemons behind.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return child;
}

void Reap(pid_t pid, int signal) {
  if (pid <= 0) return;
  kill(pid, signal);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool Exited(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, WNOHANG) == pid;
}

}  // namespace spindle::bench
