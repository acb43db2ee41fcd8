#include "nm_shim/agent/process/launch_script.h"

#include <cstdlib>
#include <map>
#include <regex>
#include <set>

namespace spindle::nm {
namespace {

std::string JoinComma(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += ',';
    out += p;
  }
  return out;
}

bool IsShellName(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) {
    return false;
  }
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

// Escapes text for the inside of a double-quoted shell word.
std::string EscapeDoubleQuoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

void ReplaceAll(std::string* text, std::string_view from, std::string_view to) {
  size_t pos = 0;
  while ((pos = text->find(from, pos)) != std::string::npos) {
    text->replace(pos, from.size(), to);
    pos += to.size();
  }
}

// Names of variables `value` references ($NAME or ${NAME}).
std::set<std::string> References(const std::string& value) {
  static const std::regex kRef(R"(\$\{?([A-Za-z_][A-Za-z0-9_]*))");
  std::set<std::string> names;
  for (std::sregex_iterator it(value.begin(), value.end(), kRef), end; it != end; ++it) {
    names.insert((*it)[1].str());
  }
  return names;
}

// Exports each variable after the ones it references (Hadoop 3 orders them
// the same way); a cycle keeps the original order.
std::vector<EnvEntry> OrderByDependencies(const std::vector<EnvEntry>& entries) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < entries.size(); ++i) index[entries[i].name] = i;
  std::vector<int> mark(entries.size(), 0);  // 0 new, 1 visiting, 2 done
  std::vector<EnvEntry> ordered;
  std::function<void(size_t)> visit = [&](size_t i) {
    if (mark[i] != 0) return;
    mark[i] = 1;
    if (!entries[i].literal) {
      for (const std::string& ref : References(entries[i].value)) {
        auto it = index.find(ref);
        if (it != index.end() && it->second != i) visit(it->second);
      }
    }
    mark[i] = 2;
    ordered.push_back(entries[i]);
  };
  for (size_t i = 0; i < entries.size(); ++i) visit(i);
  return ordered;
}

}  // namespace

std::string ExpandPlaceholders(std::string_view text, const std::string& log_dir) {
  static const std::regex kParam(R"(\{\{([A-Za-z_][A-Za-z0-9_]*)\}\})");
  std::string out(text);
  ReplaceAll(&out, "<LOG_DIR>", log_dir);
  ReplaceAll(&out, "<CPS>", ":");
  return std::regex_replace(out, kParam, "$$$1");
}

EnvLookup ProcessEnvLookup() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

Result<std::vector<EnvEntry>> BuildEnvironment(const NodeEnvironment& node,
                                               const ContainerLaunchSpec& spec,
                                               const ContainerPaths& paths,
                                               const EnvLookup& inherited) {
  // name -> entry, plus insertion order so that the output is stable.
  std::vector<EnvEntry> entries;
  std::map<std::string, size_t> where;
  auto put = [&](const std::string& name, const std::string& value, bool literal) {
    auto it = where.find(name);
    if (it != where.end()) {
      entries[it->second] = EnvEntry{name, value, literal};
    } else {
      where[name] = entries.size();
      entries.push_back(EnvEntry{name, value, literal});
    }
  };

  for (const auto& [name, value] : spec.environment) {
    if (!IsShellName(name)) {
      return Status::InvalidArgument("Invalid environment variable name '" + name +
                                     "' in the container launch context");
    }
    put(name, ExpandPlaceholders(value, paths.log_dir), false);
  }

  // The NM's own variables; the CLC cannot override them.
  put("CONTAINER_ID", paths.container_id, true);
  put("NM_PORT", std::to_string(node.nm_port), true);
  put("NM_HOST", node.nm_host, true);
  put("NM_HTTP_PORT", std::to_string(node.nm_http_port), true);
  put("LOCAL_DIRS", JoinComma(paths.app_dirs), true);
  // Hadoop 3 ends each user dir with '/'; scripts that append a name rely on it.
  std::vector<std::string> user_dirs;
  for (const std::string& dir : paths.user_dirs) user_dirs.push_back(dir + "/");
  put("LOCAL_USER_DIRS", JoinComma(user_dirs), true);
  put("LOG_DIRS", JoinComma(paths.container_log_dirs), true);
  put("USER", spec.user, true);
  put("LOGNAME", spec.user, true);
  put("HOME", node.user_home_dir, true);
  put("PWD", paths.work_dir, true);
  put("HADOOP_TOKEN_FILE_LOCATION", paths.tokens_file, true);
  put("JVM_PID", "$$", false);

  for (const std::string& name : node.env_whitelist) {
    if (where.count(name) != 0 || !IsShellName(name)) continue;
    if (std::optional<std::string> value = inherited(name)) put(name, *value, true);
  }
  for (const auto& [name, value] : node.admin_env) {
    if (!IsShellName(name)) {
      return Status::InvalidArgument("Invalid variable name '" + name +
                                     "' in yarn.nodemanager.admin-env");
    }
    put(name, ExpandPlaceholders(value, paths.log_dir), false);
  }
  return OrderByDependencies(entries);
}

Status ValidateLinkName(const std::string& name) {
  if (name.empty() || name == "." || name.front() == '/') {
    return Status::InvalidArgument("Invalid resource name '" + name +
                                   "': a link name must be a relative path");
  }
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(start, end - start);
    if (part == "..") {
      return Status::InvalidArgument("Invalid resource name '" + name +
                                     "': a link name may not leave the work dir");
    }
    start = end + 1;
  }
  if (name.find('\0') != std::string::npos || name.find('\n') != std::string::npos) {
    return Status::InvalidArgument("Invalid resource name: control characters");
  }
  return Status::OK();
}

std::string LaunchCommand(const ContainerLaunchSpec& spec, const std::string& log_dir) {
  std::string joined;
  for (const std::string& part : spec.commands) {
    if (!joined.empty()) joined += ' ';
    joined += part;
  }
  return ExpandPlaceholders(joined, log_dir);
}

std::string LaunchScript(const std::vector<EnvEntry>& env, const std::vector<SymlinkEntry>& links,
                         const std::string& command, const std::string& shell,
                         const std::string& log_dir, LaunchDebugInfo debug_info) {
  std::string s = "#!" + shell + "\n\n";
  s += "echo \"Setting up env variables\"\n";
  // An export that fails (a readonly name such as UID) is reported in
  // prelaunch.err and skipped, as the Java NM's script does.
  for (const EnvEntry& e : env) {
    s += "export " + e.name + "=\"" + (e.literal ? EscapeDoubleQuoted(e.value) : e.value) + "\"\n";
  }
  s += "echo \"Setting up job resources\"\n";
  // A link that cannot be made stops the script before the command runs.
  s += "set -e\n";
  for (const SymlinkEntry& link : links) {
    const size_t slash = link.name.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      s += "mkdir -p " + ShellQuote(link.name.substr(0, slash)) + "\n";
    }
    s += "ln -sf -- " + ShellQuote(link.target) + " " + ShellQuote(link.name) + "\n";
  }
  s += "set +e\n";
  if (debug_info == LaunchDebugInfo::kScriptAndDirectoryListing) {
    // As ContainerLaunch's UnixShellScriptBuilder writes them; the script
    // runs in the work dir, so its copy comes from there.
    const std::string copy = ShellQuote(log_dir + "/launch_container.sh");
    const std::string listing = ShellQuote(log_dir + "/directory.info");
    s += "echo \"Copying debugging information\"\n";
    s += "cp \"launch_container.sh\" " + copy + "\n";
    s += "chmod 640 " + copy + "\n";
    s += "echo \"ls -l:\" 1>" + listing + "\n";
    s += "ls -l 1>>" + listing + "\n";
    s += "echo \"find -L . -maxdepth 5 -ls:\" 1>>" + listing + "\n";
    s += "find -L . -maxdepth 5 -ls 1>>" + listing + "\n";
    s += "echo \"broken symlinks(find -L . -maxdepth 5 -type l -ls):\" 1>>" + listing + "\n";
    s += "find -L . -maxdepth 5 -type l -ls 1>>" + listing + "\n";
  }
  s += "echo \"Launching container\"\n";
  // The command's own output, unless it redirects it (as MapReduce's
  // 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr does), goes to the log dir.
  s +=
      "exec >>" + ShellQuote(log_dir + "/stdout") + " 2>>" + ShellQuote(log_dir + "/stderr") + "\n";
  s += "exec " + shell + " -c \"" + command + "\"\n";
  return s;
}

std::string WrapperScript(const std::string& shell, const ContainerPaths& paths) {
  const std::string pid_tmp = ShellQuote(paths.pid_file + ".tmp");
  const std::string code_tmp = ShellQuote(paths.exit_code_file + ".tmp");
  std::string s = "#!" + shell + "\n\n";
  s += "echo $$ > " + pid_tmp + " && mv -f " + pid_tmp + " " + ShellQuote(paths.pid_file) + "\n";
  s += shell + " " + ShellQuote(paths.launch_script) + "\n";
  s += "rc=$?\n";
  s += "echo $rc > " + code_tmp + " && mv -f " + code_tmp + " " + ShellQuote(paths.exit_code_file) +
       "\n";
  s += "exit $rc\n";
  return s;
}

std::string ShellQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += "'";
  return out;
}

std::string EmptyCredentials() { return std::string("HDTS\0\0\0", 7); }

}  // namespace spindle::nm
