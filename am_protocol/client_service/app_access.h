// ApplicationAccess: who may see or change an application, as Hadoop's
// ClientRMService.checkAccess decides it: with yarn.acl.enable off everyone
// may; otherwise admins (yarn.admin.acl), the owner, users in the app's
// VIEW_APP / MODIFY_APP ACL (from its launch context), and administrators of
// the app's queue (ADMINISTER_QUEUE on it or an ancestor). An app whose queue
// no longer exists stays accessible (Hadoop lets users see apps of removed
// queues).
//
// Thread-safety: immutable after construction; Check() from any thread.
#pragma once

#include <string>
#include <vector>

#include "am_protocol/client_service/submission_translator.h"
#include "rm/apps/rm_app.h"
#include "rm/queues/access_control_list.h"
#include "rm/queues/group_mapping.h"
#include "rm/queues/queue_tree.h"

namespace spindle::client_service {

enum class AppAccessType { kView, kModify };

// The caller of one RPC, with its groups looked up once.
struct Caller {
  std::string user;
  std::vector<std::string> groups;
};

class ApplicationAccess {
 public:
  struct Options {
    // yarn.acl.enable. Default: false.
    bool acl_enabled = false;
    // yarn.admin.acl. Default: "*".
    rm::AccessControlList admin_acl = rm::AccessControlList::AllowAll();
  };

  // `groups` must outlive this object.
  ApplicationAccess(Options options, const rm::GroupMapping* groups)
      : options_(std::move(options)), groups_(groups) {}

  Caller CallerOf(const std::string& user) const { return Caller{user, groups_->GroupsOf(user)}; }
  const rm::GroupMapping& groups() const { return *groups_; }
  bool acl_enabled() const { return options_.acl_enabled; }

  bool Check(const Caller& caller, AppAccessType type, const rm::RmApp& app,
             const AppExtras& extras, const rm::QueueTree& queues) const;

 private:
  const Options options_;
  const rm::GroupMapping* const groups_;
};

}  // namespace spindle::client_service
