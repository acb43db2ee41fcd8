// The node agent's web (NmWebApp) over a real socket on 127.0.0.1 (port 0):
// the container log pages as Hadoop 3.3's ContainerLogsPage serves them,
// what they refuse, and /ws/v1/node/info.
#include "nm_shim/agent/web/nm_webapp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "nm_shim/agent/web/container_logs_rest.h"
#include "tests/support/http_get.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::HttpGet;
using testing::HttpGetResult;
using ::testing::Not;

constexpr char kApp[] = "application_1700000000000_0007";
constexpr char kContainer[] = "container_1700000000000_0007_01_000001";
constexpr char kUnknown[] =
    "Unknown container. Container either has not started or has already completed or "
    "doesn&#39;t belong to this node at all.";

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

class NmWebAppTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/spindle-nm-web-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    log_dir_ = root_ + "/logs/" + kApp + "/" + kContainer;
    fs::create_directories(log_dir_);
    fs::create_directories(root_ + "/logs2");
  }
  void TearDown() override {
    if (web_) web_->Stop();
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  void Start() {
    NmWebAppOptions options;
    options.server.bind_host = "127.0.0.1";
    options.server.port = 0;
    options.server.worker_threads = 2;
    options.logs.log_dirs = {root_ + "/logs", root_ + "/logs2"};
    options.logs.node_id = "nm-host:45454";
    options.logs.is_running = [](const rm::ContainerId& id) { return id.sequence() == 1; };
    options.info.node_id = "nm-host:45454";
    options.info.host_name = "nm-host";
    options.info.memory_mb = 4096;
    options.info.vcores = 4;
    options.info.version = "3.3.6";
    options.info.started_ms = 1700000000123;
    web_ = std::make_unique<NmWebApp>(options);
    ASSERT_TRUE(web_->Start().ok());
    ASSERT_NE(web_->port(), 0);
  }

  HttpGetResult Get(const std::string& target,
                    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    Result<HttpGetResult> r = HttpGet("127.0.0.1", web_->port(), target, headers);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : HttpGetResult{};
  }

  static std::string Page(const std::string& rest = "") {
    return std::string("/node/containerlogs/") + kContainer + "/alice" + rest;
  }

  std::string root_;
  std::string log_dir_;
  std::unique_ptr<NmWebApp> web_;
};

TEST_F(NmWebAppTest, ListsTheContainersLogFilesWithLinksInNameOrder) {
  WriteFile(log_dir_ + "/stdout", "hello from stdout\n");
  WriteFile(log_dir_ + "/stderr", "oops\n");
  WriteFile(log_dir_ + "/prelaunch.err", "");
  // A second log dir holds more of the same container's files.
  fs::create_directories(root_ + "/logs2/" + kApp + "/" + kContainer);
  WriteFile(root_ + "/logs2/" + kApp + "/" + kContainer + "/syslog", "0123456789");
  Start();
  const HttpGetResult r = Get(Page());
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_THAT(r.content_type, HasSubstr("text/html"));
  EXPECT_THAT(r.body, HasSubstr("<title>Logs for " + std::string(kContainer) + "</title>"));
  const std::string link = std::string("<a href=\"/node/containerlogs/") + kContainer + "/alice/";
  EXPECT_THAT(r.body,
              HasSubstr(link + "stdout?start=-4096\">stdout : Total file length is 18 bytes.</a>"));
  EXPECT_THAT(r.body,
              HasSubstr(link + "stderr?start=-4096\">stderr : Total file length is 5 bytes.</a>"));
  EXPECT_THAT(r.body,
              HasSubstr(link + "syslog?start=-4096\">syslog : Total file length is 10 bytes.</a>"));
  EXPECT_THAT(r.body, HasSubstr("prelaunch.err : Total file length is 0 bytes."));
  EXPECT_LT(r.body.find("prelaunch.err"), r.body.find("stderr"));
  EXPECT_LT(r.body.find("stderr"), r.body.find("stdout"));
  // A trailing slash is the same page.
  EXPECT_EQ(Get(Page("/")).status, 200);
}

TEST_F(NmWebAppTest, AContainerWithoutLogFilesSaysSo) {
  Start();
  const HttpGetResult r = Get(Page());
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.body, HasSubstr("<h1>No logs available for container " + std::string(kContainer)));
}

TEST_F(NmWebAppTest, ShowsTheLast4KiBByDefaultAndTheWholeFileOnRequest) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "line" + std::to_string(i % 10) + "\n";  // 6000 bytes
  WriteFile(log_dir_ + "/stdout", text);
  Start();
  const HttpGetResult tail = Get(Page("/stdout?start=-4096"));
  EXPECT_EQ(tail.status, 200);
  EXPECT_THAT(tail.body,
              HasSubstr("Showing 4096 bytes. Click <a href=\"/node/containerlogs/" +
                        std::string(kContainer) + "/alice/stdout?start=0\">here</a> for full log"));
  EXPECT_THAT(tail.body, HasSubstr("<pre>" + text.substr(text.size() - 4096) + "</pre>"));
  // The default is the same tail.
  EXPECT_EQ(Get(Page("/stdout")).body, tail.body);
  const HttpGetResult all = Get(Page("/stdout?start=0"));
  EXPECT_THAT(all.body, HasSubstr("<pre>" + text + "</pre>"));
  EXPECT_THAT(all.body, Not(HasSubstr("Showing")));
  const HttpGetResult middle = Get(Page("/stdout?start=6&end=12"));
  EXPECT_THAT(middle.body, HasSubstr("Showing 6 bytes."));
  EXPECT_THAT(middle.body, HasSubstr("<pre>line1\n</pre>"));
  // Negative end counts from the end, as in Java.
  EXPECT_THAT(Get(Page("/stdout?start=0&end=-5994")).body, HasSubstr("<pre>line0\n</pre>"));
}

TEST_F(NmWebAppTest, FileContentsAreEscaped) {
  WriteFile(log_dir_ + "/stderr", "<script>alert('x')</script> & more");
  Start();
  const HttpGetResult r = Get(Page("/stderr"));
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.body, HasSubstr("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"));
  EXPECT_THAT(r.body, Not(HasSubstr("<script>")));
}

TEST_F(NmWebAppTest, AFileOnlyInTheSecondLogDirIsFound) {
  const std::string second = root_ + "/logs2/" + kApp + "/" + kContainer;
  fs::create_directories(second);
  WriteFile(second + "/syslog", "from the second disk\n");
  Start();
  EXPECT_THAT(Get(Page("/syslog?start=0")).body, HasSubstr("<pre>from the second disk\n</pre>"));
}

TEST_F(NmWebAppTest, UnknownContainersAre404AndBadIds400) {
  Start();
  const HttpGetResult unknown =
      Get("/node/containerlogs/container_1700000000000_0007_01_000099/alice");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr(kUnknown));
  EXPECT_EQ(Get("/node/containerlogs/container_1700000000000_0007_01_000099/alice/stdout").status,
            404);
  const HttpGetResult bad = Get("/node/containerlogs/not_a_container/alice");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("Invalid container ID: not_a_container"));
  EXPECT_EQ(Get("/node/containerlogs/not_a_container/alice/stdout").status, 400);
}

TEST_F(NmWebAppTest, NothingOutsideTheContainersLogDirIsServed) {
  WriteFile(root_ + "/secret", "TOP-SECRET-BYTES");
  WriteFile(root_ + "/logs/" + kApp + "/app-level", "APP-LEVEL-BYTES");
  WriteFile(log_dir_ + "/stdout", "fine");
  // A container may plant links and FIFOs in its own log dir.
  fs::create_symlink(root_ + "/secret", log_dir_ + "/sneaky");
  ASSERT_EQ(mkfifo((log_dir_ + "/pipe").c_str(), 0600), 0);
  Start();
  for (const std::string& target :
       {Page("/.."), Page("/%2e%2e"), Page("/."), Page("/..%2fapp-level"),
        Page("/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret"), Page("/sneaky"), Page("/pipe"),
        Page("/missing"), Page("/..%2F..%2F..%2F..%2Fsecret")}) {
    const HttpGetResult r = Get(target);
    EXPECT_EQ(r.status, 404) << target << ": " << r.body;
    EXPECT_THAT(r.body, Not(HasSubstr("-BYTES"))) << target;
  }
  const HttpGetResult list = Get(Page());
  EXPECT_THAT(list.body, HasSubstr("stdout"));
  EXPECT_THAT(list.body, Not(HasSubstr("sneaky")));
  EXPECT_THAT(list.body, Not(HasSubstr("pipe")));
  // The id segment is parsed, never used as a path.
  EXPECT_EQ(Get("/node/containerlogs/..%2F..%2Fsecret/alice/stdout").status, 404);
}

TEST_F(NmWebAppTest, BadRangesAre400) {
  WriteFile(log_dir_ + "/stdout", "0123456789");
  Start();
  const HttpGetResult reversed = Get(Page("/stdout?start=8&end=2"));
  EXPECT_EQ(reversed.status, 400);
  EXPECT_THAT(reversed.body, HasSubstr("Invalid start and end values. Start: [8], end[2]"));
  EXPECT_EQ(Get(Page("/stdout?start=abc")).status, 400);
  EXPECT_EQ(Get(Page("/stdout?end=1x")).status, 400);
  EXPECT_EQ(Get(Page("/stdout?start=%2B8")).status, 200) << "Long.parseLong takes a + sign";
  EXPECT_EQ(Get(Page("/stdout?start=%2B-8")).status, 400);
}

TEST_F(NmWebAppTest, NodeInfoHasTheJavaFieldsInJsonAndXml) {
  Start();
  const HttpGetResult json = Get("/ws/v1/node/info", {{"Accept", "application/json"}});
  EXPECT_EQ(json.status, 200);
  EXPECT_THAT(json.content_type, HasSubstr("application/json"));
  EXPECT_THAT(json.body, HasSubstr("{\"nodeInfo\":{\"healthReport\":\"\""));
  EXPECT_THAT(json.body, HasSubstr("\"totalVmemAllocatedContainersMB\":8601"));
  EXPECT_THAT(json.body, HasSubstr("\"totalPmemAllocatedContainersMB\":4096"));
  EXPECT_THAT(json.body, HasSubstr("\"totalVCoresAllocatedContainers\":4"));
  EXPECT_THAT(json.body, HasSubstr("\"vmemCheckEnabled\":false,\"pmemCheckEnabled\":true"));
  EXPECT_THAT(json.body, HasSubstr("\"nodeHealthy\":true"));
  EXPECT_THAT(json.body, HasSubstr("\"nodeManagerVersion\":\"3.3.6\""));
  EXPECT_THAT(json.body, HasSubstr("\"id\":\"nm-host:45454\",\"nodeHostName\":\"nm-host\""));
  EXPECT_THAT(json.body, HasSubstr("\"nmStartupTime\":1700000000123"));
  const HttpGetResult xml = Get("/ws/v1/node", {{"Accept", "application/xml"}});
  EXPECT_EQ(xml.status, 200);
  EXPECT_THAT(xml.body, HasSubstr("<nodeInfo><healthReport></healthReport>"));
}

// NMWebServices' log endpoints, which the 3.3 `yarn logs` CLI reads.
TEST_F(NmWebAppTest, RestListsTheLogFilesAsTheLogsCliReadsThem) {
  WriteFile(log_dir_ + "/stdout", "hello\n");
  WriteFile(log_dir_ + "/stderr", "");
  Start();
  const HttpGetResult r = Get(std::string("/ws/v1/node/containers/") + kContainer + "/logs",
                              {{"Accept", "application/json"}});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_THAT(r.body, HasSubstr("{\"containerLogsInfo\":{\"containerLogInfo\":[{\"fileName\":"
                                "\"stderr\",\"fileSize\":\"0\",\"lastModifiedTime\":\""));
  EXPECT_THAT(r.body, HasSubstr("{\"fileName\":\"stdout\",\"fileSize\":\"6\""));
  EXPECT_THAT(r.body, HasSubstr("\"logAggregationType\":\"LOCAL\",\"containerId\":\"" +
                                std::string(kContainer) + "\",\"nodeId\":\"nm-host:45454\"}}"));
  const HttpGetResult unknown =
      Get("/ws/v1/node/containers/container_1700000000000_0007_01_000099/logs");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr("NotFoundException"));
  EXPECT_EQ(Get("/ws/v1/node/containers/nonsense/logs").status, 400);
}

TEST_F(NmWebAppTest, RestServesAFileWithLogToolUtilsFraming) {
  WriteFile(log_dir_ + "/stdout", "0123456789");
  Start();
  const std::string path = std::string("/ws/v1/node/containerlogs/") + kContainer + "/stdout";
  const HttpGetResult all = Get(path);
  EXPECT_EQ(all.status, 200);
  EXPECT_THAT(all.content_type, HasSubstr("text/plain"));
  const std::string head = std::string("Container: ") + kContainer + " on nm-host:45454";
  EXPECT_EQ(all.body.rfind(head + "\nLogAggregationType: LOCAL\n" + std::string(head.size(), '=') +
                               "\nLogType:stdout\nLogLastModifiedTime:",
                           0),
            0u)
      << all.body;
  EXPECT_THAT(
      all.body,
      HasSubstr("\nLogLength:10\nLogContents:\n0123456789End of LogType:stdout."
                "This log file belongs to a running container (" +
                std::string(kContainer) + ") and so may not be complete.\n" +
                std::string(std::string("End of LogType:stdout").size() + 50, '*') + "\n\n"));
  EXPECT_THAT(Get(path + "?size=-3").body, HasSubstr("LogContents:\n789End of LogType"));
  EXPECT_THAT(Get(path + "?size=4").body, HasSubstr("LogContents:\n0123End of LogType"));
  EXPECT_THAT(Get(path + "?format=octet-stream").content_type,
              HasSubstr("application/octet-stream"));
  EXPECT_EQ(Get(path + "?format=html").status, 400);
  EXPECT_EQ(Get(path + "?size=x").status, 400);
  EXPECT_EQ(Get(std::string("/ws/v1/node/containerlogs/") + kContainer + "/missing").status, 404);
  EXPECT_EQ(Get(std::string("/ws/v1/node/containerlogs/") + kContainer + "/%2e%2e").status, 404);
  EXPECT_EQ(Get("/ws/v1/node/containerlogs/nonsense/stdout").status, 400);
}

TEST(HadoopTimeStringTest, FormatsAsTimesFormat) {
  const char* tz = getenv("TZ");
  const std::string saved = tz != nullptr ? tz : "";
  setenv("TZ", "UTC", 1);
  tzset();
  EXPECT_EQ(HadoopTimeString(1795769281139), "Fri Nov 27 08:48:01 +0000 2026");
  EXPECT_EQ(HadoopTimeString(0), "N/A");
  if (tz != nullptr) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

TEST_F(NmWebAppTest, ABusyPortFailsStart) {
  Start();
  NmWebAppOptions options;
  options.server.bind_host = "127.0.0.1";
  options.server.port = web_->port();
  NmWebApp second(options);
  EXPECT_FALSE(second.Start().ok());
}

}  // namespace
}  // namespace spindle::nm
