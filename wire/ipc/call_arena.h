// CallArena: where one synchronous call's request and response messages live
// (RpcService::AddMethod). A protobuf response of a few hundred containers is
// thousands of small objects; on the heap each is a malloc and a free, and
// freeing them all at once made glibc consolidate its fast bins on the next
// large allocation (a third of the RM's samples under `spindle bench wire`).
// In an arena they are carved from a few blocks and dropped together. The
// first block is the handler thread's own scratch, reused call after call,
// so a small call allocates nothing for its messages.
//
// Thread contract: one CallArena per call, used by the thread that made it.
// Nested arenas on one thread are allowed: only the outermost gets the
// thread's scratch block.
#pragma once

#include <google/protobuf/arena.h>

#include <cstddef>

namespace spindle::ipc {

class CallArena {
 public:
  // The thread's scratch first block.
  static constexpr size_t kScratchBytes = 32 * 1024;
  // Later blocks double up to this size (protobuf's default stops at 8 KiB).
  static constexpr size_t kMaxBlockBytes = 1024 * 1024;

  CallArena();
  ~CallArena();
  CallArena(const CallArena&) = delete;
  CallArena& operator=(const CallArena&) = delete;

  google::protobuf::Arena* get() { return &arena_; }

 private:
  static google::protobuf::ArenaOptions Options(bool* took_scratch);

  bool took_scratch_ = false;
  google::protobuf::Arena arena_;
};

}  // namespace spindle::ipc
