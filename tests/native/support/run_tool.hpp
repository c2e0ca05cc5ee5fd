#pragma once
// Runs one of the project's executables as a user would, for the command-line tests: the
// arguments each quoted, stdout and stderr captured, the exit status returned.
#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace smfem::test {

struct ToolRun {
  int status = -1;  // the exit status, -1 where the tool did not exit (a crash)
  std::string out;
  std::string err;
};

// `scratch` is a folder of the test's own, where stderr is collected.
inline ToolRun run_tool(const std::string& executable, const std::filesystem::path& scratch,
                        const std::vector<std::string>& args) {
  const std::filesystem::path err_file = scratch / "stderr.txt";
  std::string command = "'" + executable + "'";
  for (const std::string& arg : args) command += " '" + arg + "'";
  command += " 2> '" + err_file.string() + "'";
  ToolRun run;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer{};
  for (std::size_t got; (got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    run.out.append(buffer.data(), got);
  }
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  run.err.assign(std::istreambuf_iterator<char>(err), {});
  return run;
}

}  // namespace smfem::test
