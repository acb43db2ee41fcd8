#include "rm/recovery/fs/batch_journal.h"

#include <zlib.h>

#include <cstdint>

namespace spindle::rm::fsstore {

using persist::StoreBatch;

namespace {

constexpr std::string_view kMagic = "SPJ1";

void PutFixed(std::string* out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(value >> (8 * i)));
}

void PutBytes(std::string* out, std::string_view bytes) {
  PutFixed(out, bytes.size(), 4);
  out->append(bytes);
}

uint32_t Crc32(std::string_view bytes) {
  return static_cast<uint32_t>(::crc32(::crc32(0L, Z_NULL, 0),
                                       reinterpret_cast<const Bytef*>(bytes.data()),
                                       static_cast<uInt>(bytes.size())));
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  bool Fixed(int bytes, uint64_t* value) {
    if (rest_.size() < static_cast<size_t>(bytes)) return false;
    *value = 0;
    for (int i = 0; i < bytes; ++i) *value = (*value << 8) | static_cast<uint8_t>(rest_[i]);
    rest_.remove_prefix(static_cast<size_t>(bytes));
    return true;
  }
  bool Bytes(std::string* out) {
    uint64_t size = 0;
    if (!Fixed(4, &size) || rest_.size() < size) return false;
    out->assign(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return true;
  }
  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

}  // namespace

std::string EncodeJournal(const StoreBatch& batch, std::string_view epoch_node) {
  std::string out(kMagic);
  PutBytes(&out, epoch_node);
  PutFixed(&out, batch.size(), 4);
  for (const StoreBatch::Op& op : batch.ops()) {
    PutFixed(&out, static_cast<uint64_t>(op.kind), 1);
    PutFixed(&out, static_cast<uint64_t>(op.type), 1);
    PutBytes(&out, op.id);
    PutBytes(&out, op.sub_id);
    PutFixed(&out, static_cast<uint64_t>(op.number), 8);
    PutBytes(&out, op.value);
    PutFixed(&out, static_cast<uint64_t>(op.field), 1);
  }
  PutFixed(&out, Crc32(out), 4);
  return out;
}

Result<JournalEntry> DecodeJournal(std::string_view bytes) {
  auto bad = [](std::string_view what) {
    return Status::Corruption("the batch journal is damaged: " + std::string(what));
  };
  if (bytes.size() < kMagic.size() + 4 || bytes.substr(0, kMagic.size()) != kMagic) {
    return bad("no SPJ1 header");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - 4);
  uint64_t stored_crc = 0;
  Reader trailer(bytes.substr(bytes.size() - 4));
  trailer.Fixed(4, &stored_crc);
  if (stored_crc != Crc32(body)) return bad("checksum mismatch");
  Reader in(body.substr(kMagic.size()));
  JournalEntry entry;
  uint64_t count = 0;
  if (!in.Bytes(&entry.epoch_node) || !in.Fixed(4, &count)) return bad("truncated header");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t kind = 0, type = 0, number = 0, field = 0;
    std::string id, sub_id, value;
    if (!in.Fixed(1, &kind) || !in.Fixed(1, &type) || !in.Bytes(&id) || !in.Bytes(&sub_id) ||
        !in.Fixed(8, &number) || !in.Bytes(&value) || !in.Fixed(1, &field)) {
      return bad("truncated operation");
    }
    const auto n = static_cast<int64_t>(number);
    const bool put = type == static_cast<uint64_t>(StoreBatch::OpType::kPut);
    StoreBatch& b = entry.batch;
    switch (static_cast<StoreBatch::Kind>(kind)) {
      case StoreBatch::Kind::kApplication:
        if (put) {
          b.PutApplication(id, value);
        } else {
          b.RemoveApplication(id);
        }
        break;
      case StoreBatch::Kind::kAttempt:
        if (put) {
          b.PutAttempt(id, sub_id, value);
        } else {
          b.DeleteAttempt(id, sub_id);
        }
        break;
      case StoreBatch::Kind::kMasterKey:
        if (put) {
          b.PutMasterKey(id, n, value);
        } else {
          b.DeleteMasterKey(id, n);
        }
        break;
      case StoreBatch::Kind::kCluster:
        b.SetClusterValue(static_cast<persist::ClusterField>(field), n);
        break;
      case StoreBatch::Kind::kNode:
        if (put) {
          b.PutNode(id, value);
        } else {
          b.DeleteNode(id);
        }
        break;
      default:
        return bad("unknown operation kind " + std::to_string(kind));
    }
  }
  if (!in.done()) return bad("trailing bytes");
  RETURN_NOT_OK(entry.batch.Validate().WithContext("the batch journal: "));
  return entry;
}

}  // namespace spindle::rm::fsstore
