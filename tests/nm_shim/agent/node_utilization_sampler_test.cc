#include "nm_shim/agent/node_utilization_sampler.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace spindle::nm {
namespace {

TEST(NodeUtilizationSamplerTest, NodeMemoryAsSysInfoLinuxComputesIt) {
  const MemInfo info = NodeUtilizationSampler::ParseMemInfo(
      "MemTotal:        8000000 kB\n"
      "MemFree:         1000000 kB\n"
      "MemAvailable:    5000000 kB\n"
      "Inactive:        3000000 kB\n"
      "Inactive(file):  2000000 kB\n"
      "SwapTotal:       1048576 kB\n"
      "SwapFree:         524288 kB\n");
  EXPECT_EQ(info.total_kb, 8000000);
  EXPECT_EQ(info.inactive_file_kb, 2000000);
  // pmem = total - (free + inactive(file)); vmem adds the swap in use.
  const auto [pmem, vmem] = NodeUtilizationSampler::NodeMemoryMb(info);
  EXPECT_EQ(pmem, (8000000 - 3000000) / 1024);
  EXPECT_EQ(vmem, (8000000 - 3000000 + 524288) / 1024);
  // Without Inactive(file), Inactive.
  MemInfo old = info;
  old.inactive_file_kb = -1;
  EXPECT_EQ(NodeUtilizationSampler::NodeMemoryMb(old).first, (8000000 - 4000000) / 1024);
}

TEST(NodeUtilizationSamplerTest, CpuTimeIsUserNiceAndSystem) {
  EXPECT_EQ(NodeUtilizationSampler::CpuJiffies("cpu  100 20 30 4000 5 0 0 0 0 0\n"
                                               "cpu0 50 10 15 2000 2 0 0 0 0 0\n"),
            150);
  EXPECT_EQ(NodeUtilizationSampler::CpuJiffies("intr 1 2 3\n"), -1);
}

TEST(NodeUtilizationSamplerTest, ContainersAreTheAgentsDescendants) {
  // agent 10 -> 20 (a container's wrapper) -> 21; 30 is not the agent's.
  const std::string lines[] = {
      "10 (agent) S 1 10 10 0 -1 0 0 0 0 0 100 50 0 0 20 0 1 0 1000 1000000 100",
      "20 (bash) S 10 20 20 0 -1 0 0 0 0 0 10 10 0 0 20 0 1 0 2000 2000000 200",
      "21 (java) S 20 20 20 0 -1 0 0 0 0 0 300 100 0 0 20 0 1 0 2001 3000000 300",
      "30 (other) S 1 30 30 0 -1 0 0 0 0 0 900 900 0 0 20 0 1 0 3000 9000000 900",
  };
  std::map<pid_t, ProcInfo> processes;
  for (const std::string& line : lines) {
    ProcInfo info;
    ASSERT_TRUE(ProcTable::ParseStatLine(line, &info)) << line;
    processes[info.pid] = info;
  }
  std::map<pid_t, NodeUtilizationSampler::ProcessCpu> last;
  int64_t cpu_ms = 0;
  const Utilization u = NodeUtilizationSampler::Containers(processes, 10, &last, &cpu_ms);
  const int64_t page = sysconf(_SC_PAGESIZE);
  EXPECT_EQ(u.pmem_mb, static_cast<int32_t>(((200 + 300) * page) >> 20));
  EXPECT_EQ(u.vmem_mb, static_cast<int32_t>((2000000 + 3000000) >> 20));
  const int64_t tick_ms = 1000 / sysconf(_SC_CLK_TCK);
  EXPECT_EQ(cpu_ms, (10 + 10 + 300 + 100) * tick_ms);
  EXPECT_EQ(last.size(), 2u);
  // The next reading counts only what was used since.
  cpu_ms = 0;
  NodeUtilizationSampler::Containers(processes, 10, &last, &cpu_ms);
  EXPECT_EQ(cpu_ms, 0);
}

TEST(NodeUtilizationSamplerTest, SamplesThisMachine) {
  NodeUtilizationSampler sampler(getpid(), 8, 4);
  auto first = sampler.Sample(1000);
  ASSERT_TRUE(first.has_value());
  EXPECT_GT(first->node.pmem_mb, 0);
  EXPECT_GE(first->node.vmem_mb, first->node.pmem_mb);
  EXPECT_EQ(first->node.cpu, -1);  // CpuTimeTracker.UNAVAILABLE at first
  auto second = sampler.Sample(2000);
  ASSERT_TRUE(second.has_value());
  EXPECT_GE(second->node.cpu, 0);
}

}  // namespace
}  // namespace spindle::nm
