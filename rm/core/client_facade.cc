#include "rm/core/client_facade.h"

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

Status ClientFacade::CheckActive() const {
  if (ha_state() == HaState::kActive) return Status::OK();
  // Hadoop 3.3 AdminService.throwStandbyException's message, as
  // ResourceManager answers its own use-case methods.
  return Status::Remote(yarn::kStandby, "ResourceManager is not Active! Can not serve the call");
}

}  // namespace spindle::rm
