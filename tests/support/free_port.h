// A TCP port free on 127.0.0.1 now, for tests that must configure fixed
// addresses (an RM restarted on its ports, clients told every rm-id's
// address): bound to port 0, read back, released. Another process may take
// it before the test binds it; tests that can pass port 0 should.
#pragma once

#include <cstdint>

namespace spindle::testing {

// 0 if no socket could be bound.
uint16_t PickFreePort();

}  // namespace spindle::testing
