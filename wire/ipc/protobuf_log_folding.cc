#include "wire/ipc/protobuf_log_folding.h"

#include <glog/logging.h>

#include <mutex>

namespace spindle::ipc {

namespace {

thread_local ProtobufLogBudget* current_budget = nullptr;

constexpr std::chrono::seconds kDaemonInterval{10};

google::LogSeverity GlogSeverity(google::protobuf::LogLevel level) {
  switch (level) {
    case google::protobuf::LOGLEVEL_INFO:
      return google::GLOG_INFO;
    case google::protobuf::LOGLEVEL_WARNING:
      return google::GLOG_WARNING;
    default:
      // ERROR, and FATAL too: libprotobuf aborts by itself after a FATAL
      // line, and glog's FATAL would abort before it was written whole.
      return google::GLOG_ERROR;
  }
}

void ToGlog(google::protobuf::LogLevel level, const char* file, int line, const std::string& text) {
  google::LogMessage(file, line, GlogSeverity(level)).stream() << "libprotobuf: " << text;
}

ProtobufLogFolder& DaemonFolder() {
  static ProtobufLogFolder* const kFolder =
      new ProtobufLogFolder(SystemClock::Get(), kDaemonInterval, &ToGlog);
  return *kFolder;
}

void DaemonHandler(google::protobuf::LogLevel level, const char* file, int line,
                   const std::string& message) {
  DaemonFolder().Handle(level, file, line, message);
}

}  // namespace

ProtobufLogScope::ProtobufLogScope(ProtobufLogBudget* budget) : previous_(current_budget) {
  current_budget = budget;
}

ProtobufLogScope::~ProtobufLogScope() { current_budget = previous_; }

ProtobufLogBudget* ProtobufLogScope::Current() { return current_budget; }

ProtobufLogFolder::ProtobufLogFolder(const Clock* clock, Duration interval, Sink sink)
    : clock_(clock), interval_(interval), sink_(std::move(sink)) {}

void ProtobufLogFolder::Handle(google::protobuf::LogLevel level, const char* file, int line,
                               const std::string& message) {
  if (level >= google::protobuf::LOGLEVEL_FATAL) {
    sink_(level, file, line, message);
    return;
  }
  ProtobufLogBudget* budget = ProtobufLogScope::Current();
  const bool connection_may_log = budget == nullptr || budget->TrySpend();
  if (!connection_may_log) budget->CountFolded();
  std::string text;
  {
    MutexLock lock(&mu_);
    Site& site = sites_[{file == nullptr ? "" : file, line}];
    const TimePoint now = clock_->Now();
    if (!connection_may_log || (site.logged && now - site.last_logged < interval_)) {
      ++site.folded_since;
      ++folded_;
      return;
    }
    text = message;
    if (site.folded_since > 0) {
      text += " [and " + std::to_string(site.folded_since) +
              " more such lines folded since the last one logged]";
    }
    site.logged = true;
    site.last_logged = now;
    site.folded_since = 0;
  }
  sink_(level, file, line, text);
}

int64_t ProtobufLogFolder::folded() const {
  MutexLock lock(&mu_);
  return folded_;
}

void InstallProtobufLogFolding() {
  static std::once_flag once;
  std::call_once(once, [] {
    DaemonFolder();
    google::protobuf::SetLogHandler(&DaemonHandler);
  });
}

}  // namespace spindle::ipc
