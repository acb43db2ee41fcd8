#include "wire/ipc/call_arena.h"

#include <memory>

namespace spindle::ipc {

namespace {

struct ThreadScratch {
  std::unique_ptr<char[]> block;
  bool in_use = false;
};

// Made on a thread's first call, so that threads that never run a handler
// hold none.
ThreadScratch& Scratch() {
  thread_local ThreadScratch scratch;
  return scratch;
}

}  // namespace

google::protobuf::ArenaOptions CallArena::Options(bool* took_scratch) {
  google::protobuf::ArenaOptions options;
  options.start_block_size = kScratchBytes;
  options.max_block_size = kMaxBlockBytes;
  ThreadScratch& scratch = Scratch();
  if (!scratch.in_use) {
    if (scratch.block == nullptr) scratch.block = std::make_unique<char[]>(kScratchBytes);
    scratch.in_use = true;
    *took_scratch = true;
    options.initial_block = scratch.block.get();
    options.initial_block_size = kScratchBytes;
  }
  return options;
}

CallArena::CallArena() : arena_(Options(&took_scratch_)) {}

CallArena::~CallArena() {
  // The arena must let go of the scratch block before the next call takes it.
  arena_.Reset();
  if (took_scratch_) Scratch().in_use = false;
}

}  // namespace spindle::ipc
