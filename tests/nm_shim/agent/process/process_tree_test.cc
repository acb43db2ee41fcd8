#include "nm_shim/agent/process/process_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "nm_shim/agent/process/memory_monitor.h"

namespace spindle::nm {
namespace {

TEST(ProcessTreeTest, ParsesStatWithAwkwardCommandNames) {
  const std::string line =
      "4242 (we (ird) name) S 17 4242 4242 0 -1 4194304 100 0 0 0 12 3 0 0 20 0 1 0 555 "
      "123456789 2048 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  ProcInfo info;
  ASSERT_TRUE(ProcTable::ParseStatLine(line, &info));
  EXPECT_EQ(info.pid, 4242);
  EXPECT_EQ(info.comm, "we (ird) name");
  EXPECT_EQ(info.state, 'S');
  EXPECT_EQ(info.ppid, 17);
  EXPECT_EQ(info.pgrp, 4242);
  EXPECT_EQ(info.session, 4242);
  EXPECT_EQ(info.vmem_bytes, 123456789);
  EXPECT_EQ(info.rss_pages, 2048);
  EXPECT_FALSE(ProcTable::ParseStatLine("garbage", &info));
}

TEST(ProcessTreeTest, FindsThisProcessInProc) {
  const ProcTable table = ProcTable::Read();
  auto it = table.processes().find(getpid());
  ASSERT_NE(it, table.processes().end());
  EXPECT_GT(it->second.rss_pages, 0);
  // This process's own session holds it.
  const std::vector<pid_t> tree = table.TreeOf(getpid(), getsid(0));
  EXPECT_NE(std::find(tree.begin(), tree.end(), getpid()), tree.end());
}

TEST(MemoryMonitorTest, FormatsSizesLikeHadoop) {
  EXPECT_EQ(FormatBytes(100), "100 B");
  EXPECT_EQ(FormatBytes(512LL << 20), "512 MB");
  EXPECT_EQ(FormatBytes(1LL << 30), "1 GB");
  EXPECT_EQ(FormatBytes(3LL << 29), "1.5 GB");
}

TEST(MemoryMonitorTest, DiagnosticHasHadoopsShape) {
  MemoryUsage usage;
  usage.rss_bytes = 3LL << 29;
  usage.vmem_bytes = 2LL << 30;
  const std::string d = PmemDiagnostic(77, "container_1_0001_01_000001", usage, 1LL << 30, 2.1, "");
  EXPECT_EQ(d.rfind("Container [pid=77,containerID=container_1_0001_01_000001] is running beyond "
                    "physical memory limits. Current usage: 1.5 GB of 1 GB physical memory used; "
                    "2 GB of 2.1 GB virtual memory used. Killing container.\n",
                    0),
            0u)
      << d;
}

}  // namespace
}  // namespace spindle::nm
