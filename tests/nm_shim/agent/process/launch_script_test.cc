#include "nm_shim/agent/process/launch_script.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace spindle::nm {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ContainerLaunchSpec Spec() {
  ContainerLaunchSpec spec;
  spec.container = rm::ContainerId{{{1700000000000, 7}, 1}, 2};
  spec.user = "alice";
  return spec;
}

NodeEnvironment Node() {
  NodeEnvironment node;
  node.nm_host = "node1";
  node.nm_port = 45454;
  node.nm_http_port = 8042;
  node.local_dirs = {"/l1", "/l2"};
  node.log_dirs = {"/g1"};
  return node;
}

std::map<std::string, EnvEntry> ByName(const std::vector<EnvEntry>& env) {
  std::map<std::string, EnvEntry> out;
  for (const EnvEntry& e : env) out[e.name] = e;
  return out;
}

size_t IndexOf(const std::vector<EnvEntry>& env, const std::string& name) {
  for (size_t i = 0; i < env.size(); ++i) {
    if (env[i].name == name) return i;
  }
  return env.size();
}

TEST(LaunchScriptTest, ExpandsHadoopPlaceholders) {
  EXPECT_EQ(ExpandPlaceholders("a<CPS>b<CPS>{{JAVA_HOME}}/bin 1><LOG_DIR>/stdout", "/logs/c1"),
            "a:b:$JAVA_HOME/bin 1>/logs/c1/stdout");
  EXPECT_EQ(ExpandPlaceholders("{{not a var}} {{X1_Y}}", "/l"), "{{not a var}} $X1_Y");
}

TEST(LaunchScriptTest, ShellQuoteSurvivesQuotes) {
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote(""), "''");
}

TEST(LaunchScriptTest, LinkNamesStayInTheWorkDir) {
  EXPECT_TRUE(ValidateLinkName("job.jar").ok());
  EXPECT_TRUE(ValidateLinkName("conf/site.xml").ok());
  EXPECT_FALSE(ValidateLinkName("").ok());
  EXPECT_FALSE(ValidateLinkName(".").ok());
  EXPECT_FALSE(ValidateLinkName("/etc/passwd").ok());
  EXPECT_FALSE(ValidateLinkName("../escape").ok());
  EXPECT_FALSE(ValidateLinkName("a/../../escape").ok());
}

TEST(LaunchScriptTest, EnvironmentHasTheNodeManagerVariables) {
  ContainerLaunchSpec spec = Spec();
  spec.environment = {{"CONTAINER_ID", "forged"}, {"MY_LOG", "<LOG_DIR>/x"}};
  NodeEnvironment node = Node();
  node.admin_env = {{"MALLOC_ARENA_MAX", "4"}};
  Result<ContainerPaths> paths = ComputeContainerPaths(node, spec);
  ASSERT_TRUE(paths.ok()) << paths.status().ToString();
  auto lookup = [](const std::string& name) -> std::optional<std::string> {
    if (name == "JAVA_HOME") return std::string("/opt/jdk");
    return std::nullopt;
  };
  Result<std::vector<EnvEntry>> env = BuildEnvironment(node, spec, *paths, lookup);
  ASSERT_TRUE(env.ok()) << env.status().ToString();
  auto by_name = ByName(*env);
  const std::string app_dir1 = "/l1/usercache/alice/appcache/application_1700000000000_0007";
  const std::string app_dir2 = "/l2/usercache/alice/appcache/application_1700000000000_0007";
  const std::string cid = "container_1700000000000_0007_01_000002";
  EXPECT_EQ(by_name["CONTAINER_ID"].value, cid);
  EXPECT_EQ(by_name["NM_HOST"].value, "node1");
  EXPECT_EQ(by_name["NM_PORT"].value, "45454");
  EXPECT_EQ(by_name["NM_HTTP_PORT"].value, "8042");
  EXPECT_EQ(by_name["LOCAL_DIRS"].value, app_dir1 + "," + app_dir2);
  EXPECT_EQ(by_name["LOCAL_USER_DIRS"].value, "/l1/usercache/alice/,/l2/usercache/alice/");
  EXPECT_EQ(by_name["LOG_DIRS"].value, "/g1/application_1700000000000_0007/" + cid);
  EXPECT_EQ(by_name["USER"].value, "alice");
  EXPECT_EQ(by_name["LOGNAME"].value, "alice");
  EXPECT_EQ(by_name["HOME"].value, "/home/");
  EXPECT_EQ(by_name["PWD"].value, app_dir1 + "/" + cid);
  EXPECT_EQ(by_name["JVM_PID"].value, "$$");
  EXPECT_EQ(by_name["HADOOP_TOKEN_FILE_LOCATION"].value,
            app_dir1 + "/" + cid + "/container_tokens");
  EXPECT_EQ(by_name["JAVA_HOME"].value, "/opt/jdk");
  EXPECT_EQ(by_name.count("HADOOP_CONF_DIR"), 0u);
  EXPECT_EQ(by_name["MALLOC_ARENA_MAX"].value, "4");
  EXPECT_EQ(by_name["MY_LOG"].value, "/g1/application_1700000000000_0007/" + cid + "/x");
}

TEST(LaunchScriptTest, ContainerSetsWhitelistedVariablesItself) {
  ContainerLaunchSpec spec = Spec();
  spec.environment = {{"JAVA_HOME", "/my/jdk"}};
  const NodeEnvironment node = Node();
  Result<ContainerPaths> paths = ComputeContainerPaths(node, spec);
  ASSERT_TRUE(paths.ok());
  auto lookup = [](const std::string&) -> std::optional<std::string> {
    return std::string("/agent/jdk");
  };
  Result<std::vector<EnvEntry>> env = BuildEnvironment(node, spec, *paths, lookup);
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(ByName(*env)["JAVA_HOME"].value, "/my/jdk");
  EXPECT_EQ(ByName(*env)["HADOOP_CONF_DIR"].value, "/agent/jdk");
}

TEST(LaunchScriptTest, VariablesFollowTheOnesTheyReference) {
  ContainerLaunchSpec spec = Spec();
  // Alphabetical map order would export A_FIRST before Z_LAST.
  spec.environment = {{"A_FIRST", "$Z_LAST/bin:{{PWD}}"}, {"Z_LAST", "/z"}};
  const NodeEnvironment node = Node();
  Result<ContainerPaths> paths = ComputeContainerPaths(node, spec);
  ASSERT_TRUE(paths.ok());
  Result<std::vector<EnvEntry>> env = BuildEnvironment(node, spec, *paths, ProcessEnvLookup());
  ASSERT_TRUE(env.ok());
  EXPECT_LT(IndexOf(*env, "Z_LAST"), IndexOf(*env, "A_FIRST"));
  EXPECT_LT(IndexOf(*env, "PWD"), IndexOf(*env, "A_FIRST"));
}

TEST(LaunchScriptTest, RejectsVariableNamesTheShellCannotExport) {
  ContainerLaunchSpec spec = Spec();
  spec.environment = {{"BAD-NAME", "x"}};
  const NodeEnvironment node = Node();
  Result<ContainerPaths> paths = ComputeContainerPaths(node, spec);
  ASSERT_TRUE(paths.ok());
  Result<std::vector<EnvEntry>> env = BuildEnvironment(node, spec, *paths, ProcessEnvLookup());
  ASSERT_FALSE(env.ok());
  EXPECT_THAT(env.status().message(), HasSubstr("BAD-NAME"));
}

TEST(LaunchScriptTest, ScriptExportsLinksAndExecsLikeHadoop) {
  const std::vector<EnvEntry> env = {{"LIT", "a\"$b", true}, {"CP", "$PWD/x", false}};
  const std::vector<SymlinkEntry> links = {{"/cache/1/job.jar", "job.jar"},
                                           {"/cache/2/site.xml", "conf/site.xml"}};
  const std::string script = LaunchScript(env, links, "java -cp $CP Main", "/bin/bash", "/logs/c");
  EXPECT_THAT(script, HasSubstr("export LIT=\"a\\\"\\$b\"\n"));
  EXPECT_THAT(script, HasSubstr("export CP=\"$PWD/x\"\n"));
  EXPECT_THAT(script, HasSubstr("ln -sf -- '/cache/1/job.jar' 'job.jar'\n"));
  EXPECT_THAT(script,
              HasSubstr("mkdir -p 'conf'\nln -sf -- '/cache/2/site.xml' 'conf/site.xml'\n"));
  EXPECT_THAT(script, HasSubstr("exec /bin/bash -c \"java -cp $CP Main\"\n"));
}

// Hadoop 3.3's ContainerExecutor.writeLaunchEnv: progress lines on the
// script's stdout, and with yarn.nodemanager.log-container-debug-info.enabled
// a copy of the script and a listing of the work dir in the log dir, before
// the command runs.
TEST(LaunchScriptTest, DebugInformationGoesToTheLogDirBeforeTheCommand) {
  const std::string plain = LaunchScript({}, {}, "true", "/bin/bash", "/logs/c");
  EXPECT_THAT(plain, HasSubstr("echo \"Setting up env variables\"\n"));
  EXPECT_THAT(plain, HasSubstr("echo \"Setting up job resources\"\n"));
  EXPECT_THAT(plain, HasSubstr("echo \"Launching container\"\n"));
  EXPECT_THAT(plain, Not(HasSubstr("directory.info")));
  const std::string debug = LaunchScript({}, {}, "true", "/bin/bash", "/logs/c",
                                         LaunchDebugInfo::kScriptAndDirectoryListing);
  EXPECT_THAT(debug, HasSubstr("cp \"launch_container.sh\" '/logs/c/launch_container.sh'\n"
                               "chmod 640 '/logs/c/launch_container.sh'\n"));
  EXPECT_THAT(debug, HasSubstr("echo \"ls -l:\" 1>'/logs/c/directory.info'\nls -l 1>>"));
  EXPECT_THAT(debug, HasSubstr("find -L . -maxdepth 5 -type l -ls 1>>'/logs/c/directory.info'\n"));
  EXPECT_LT(debug.find("directory.info"), debug.find("Launching container"));
  EXPECT_LT(debug.find("Launching container"), debug.find("exec /bin/bash -c"));
}

TEST(LaunchScriptTest, UserNamesMustBePathComponents) {
  EXPECT_TRUE(ValidateUserName("alice").ok());
  EXPECT_TRUE(ValidateUserName("svc-hadoop.prod@x").ok());
  EXPECT_TRUE(ValidateUserName("machine$").ok());
  EXPECT_FALSE(ValidateUserName("").ok());
  EXPECT_FALSE(ValidateUserName("..").ok());
  EXPECT_FALSE(ValidateUserName("a/b").ok());
  EXPECT_FALSE(ValidateUserName("-rf").ok());
  EXPECT_FALSE(ValidateUserName("bob smith").ok());
}

TEST(LaunchScriptTest, EmptyCredentialsAreAValidTokenStorage) {
  EXPECT_EQ(EmptyCredentials(), std::string("HDTS\x00\x00\x00", 7));
}

}  // namespace
}  // namespace spindle::nm
