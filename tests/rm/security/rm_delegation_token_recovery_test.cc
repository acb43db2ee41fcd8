// RmDelegationTokenSecretManager across an RM restart: State(), recovery
// from it (options.recovered) and the listener that lets the RM persist each
// change.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/crypto.h"
#include "rm/security/delegation_token_records.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

constexpr int64_t kWallStart = 1'700'000'000'000;  // 2023-11-14T22:13:20Z
constexpr int64_t kHourMs = 3'600'000;
constexpr int64_t kDayMs = 24 * kHourMs;

RmDelegationTokenIdentifier Decode(const Token& token) {
  auto id = DecodeRmDelegationTokenIdentifier(token.identifier);
  EXPECT_TRUE(id.ok()) << id.status().ToString();
  return id.ok() ? *id : RmDelegationTokenIdentifier{};
}

// Writes each event as a line, times relative to kWallStart.
class Recorder {
 public:
  RmDelegationTokenListener Listener() {
    RmDelegationTokenListener l;
    l.key_stored = [this](const DelegationKeyRecord& key) {
      Add("key+ " + std::to_string(key.key_id) + " expires " +
          std::to_string(key.expiry_date_ms - kWallStart));
      EXPECT_EQ(key.bytes.size(), 8u);
    };
    l.key_removed = [this](int32_t id) { Add("key- " + std::to_string(id)); };
    l.token_stored = [this](const DelegationTokenRecord& token) {
      Add("token+ " + std::to_string(token.identifier.sequence_number) + " renew " +
          std::to_string(token.renew_date_ms - kWallStart));
    };
    l.token_removed = [this](const RmDelegationTokenIdentifier& id) {
      Add("token- " + std::to_string(id.sequence_number));
    };
    l.sequence_changed = [this](int32_t n) { Add("seq " + std::to_string(n)); };
    return l;
  }
  // The events so far; forgets them.
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(events_, {});
  }

 private:
  void Add(std::string event) {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(event));
  }
  std::mutex mu_;
  std::vector<std::string> events_;
};

// What an RM state store does with the events: keeps each record's bytes
// (the encodings of delegation_token_records.h) under its key.
class FakeStore {
 public:
  RmDelegationTokenListener Listener() {
    RmDelegationTokenListener l;
    l.key_stored = [this](const DelegationKeyRecord& key) {
      std::lock_guard<std::mutex> lock(mu_);
      keys_[key.key_id] = EncodeDelegationKeyRecord(key);
    };
    l.key_removed = [this](int32_t id) {
      std::lock_guard<std::mutex> lock(mu_);
      EXPECT_EQ(keys_.erase(id), 1u) << "key " << id;
    };
    l.token_stored = [this](const DelegationTokenRecord& token) {
      std::lock_guard<std::mutex> lock(mu_);
      tokens_[token.identifier] = EncodeDelegationTokenRecord(token);
    };
    l.token_removed = [this](const RmDelegationTokenIdentifier& id) {
      std::lock_guard<std::mutex> lock(mu_);
      EXPECT_EQ(tokens_.erase(id), 1u) << id.ToString();
    };
    l.sequence_changed = [this](int32_t n) {
      std::lock_guard<std::mutex> lock(mu_);
      sequence_ = n;
    };
    return l;
  }
  // What the RM would recover: no current key id (the highest is current).
  RmDelegationTokenState Load() {
    std::lock_guard<std::mutex> lock(mu_);
    RmDelegationTokenState state;
    for (const auto& [id, bytes] : keys_) {
      auto key = DecodeDelegationKeyRecord(bytes);
      EXPECT_TRUE(key.ok()) << key.status().ToString();
      if (key.ok()) state.keys.push_back(*key);
    }
    for (const auto& [id, bytes] : tokens_) {
      auto token = DecodeDelegationTokenRecord(bytes);
      EXPECT_TRUE(token.ok()) << token.status().ToString();
      if (token.ok()) state.tokens.push_back(*token);
    }
    state.sequence_number = sequence_;
    return state;
  }
  bool HasToken(const RmDelegationTokenIdentifier& id) {
    std::lock_guard<std::mutex> lock(mu_);
    return tokens_.count(id) > 0;
  }

 private:
  std::mutex mu_;
  std::map<int32_t, std::string> keys_;
  std::map<RmDelegationTokenIdentifier, std::string> tokens_;
  int32_t sequence_ = 0;
};

RmDelegationTokenState WithoutCurrent(RmDelegationTokenState state) {
  state.current_key_id.reset();
  return state;
}

class RmDelegationTokenRecoveryTest : public ::testing::Test {
 protected:
  std::unique_ptr<RmDelegationTokenSecretManager> Make(RmDelegationTokenOptions options) {
    auto manager = RmDelegationTokenSecretManager::Create(std::move(options), &clock_);
    EXPECT_TRUE(manager.ok()) << manager.status().ToString();
    return manager.ok() ? std::move(manager).value() : nullptr;
  }
  std::unique_ptr<RmDelegationTokenSecretManager> Recover(RmDelegationTokenState state,
                                                          RmDelegationTokenListener listener = {}) {
    RmDelegationTokenOptions options;
    options.recovered = std::move(state);
    options.listener = std::move(listener);
    return Make(std::move(options));
  }
  // Now, relative to kWallStart.
  int64_t Now() const { return clock_.WallMillis() - kWallStart; }

  ManualClock clock_{TimePoint{}, kWallStart};
};

TEST_F(RmDelegationTokenRecoveryTest, TheListenerHearsEveryChangeInOrder) {
  Recorder recorder;
  RmDelegationTokenOptions options;
  options.listener = recorder.Listener();
  auto manager = Make(std::move(options));
  ASSERT_NE(manager, nullptr);
  // Key 1, made at 0, expires after the update interval and max lifetime.
  EXPECT_EQ(recorder.Take(),
            std::vector<std::string>{"key+ 1 expires " + std::to_string(8 * kDayMs)});

  const Token a = manager->CreateToken("alice", "yarn", "");
  EXPECT_EQ(recorder.Take(),
            (std::vector<std::string>{"seq 1", "token+ 1 renew " + std::to_string(kDayMs)}));
  clock_.Advance(hours(2));
  ASSERT_TRUE(manager->Renew(a, "yarn").ok());
  const Token b = manager->CreateToken("bob", "yarn", "");
  ASSERT_TRUE(manager->Cancel(b, "bob").ok());
  const std::string renewed = std::to_string(2 * kHourMs + kDayMs);
  EXPECT_EQ(recorder.Take(), (std::vector<std::string>{"token+ 1 renew " + renewed, "seq 2",
                                                       "token+ 2 renew " + renewed, "token- 2"}));
  // Refused calls change nothing.
  EXPECT_FALSE(manager->Renew(a, "mallory").ok());
  EXPECT_FALSE(manager->Cancel(b, "bob").ok());
  EXPECT_TRUE(recorder.Take().empty());

  // A roll: the retiring key gets its final expiry, then the new key.
  clock_.Advance(hours(22) + milliseconds(1));
  ASSERT_TRUE(manager->Advance());
  const int64_t roll = kDayMs + 1;
  EXPECT_EQ(recorder.Take(),
            (std::vector<std::string>{"key+ 1 expires " + std::to_string(roll + 7 * kDayMs),
                                      "key+ 2 expires " + std::to_string(roll + 8 * kDayMs)}));
  // The removal scan drops `a` (renew date 26 h).
  clock_.Advance(hours(3));
  EXPECT_FALSE(manager->Advance());
  EXPECT_EQ(recorder.Take(), std::vector<std::string>{"token- 1"});
  // An expired retired key goes at a roll.
  for (int day = 0; day < 8; ++day) {
    clock_.Advance(hours(24) + milliseconds(1));
    ASSERT_TRUE(manager->Advance());
  }
  const std::vector<std::string> events = recorder.Take();
  EXPECT_NE(std::find(events.begin(), events.end(), "key- 1"), events.end());
  EXPECT_EQ(std::count(events.begin(), events.end(), "key- 1"), 1);
}

TEST_F(RmDelegationTokenRecoveryTest, ARecoveredManagerKeepsTheOldTokensWorking) {
  auto manager = Make({});
  const Token a = manager->CreateToken("alice", "yarn", "");
  const Token b = manager->CreateToken("bob", "yarn", "");
  const Token c = manager->CreateToken("carol", "yarn", "oozie");
  clock_.Advance(hours(2));
  ASSERT_TRUE(manager->Renew(a, "yarn").ok());
  ASSERT_TRUE(manager->Cancel(b, "bob").ok());

  const RmDelegationTokenState state = manager->State();
  ASSERT_EQ(state.keys.size(), 1u);
  EXPECT_EQ(state.keys[0].key_id, 1);
  EXPECT_EQ(state.keys[0].expiry_date_ms, kWallStart + 8 * kDayMs);
  EXPECT_EQ(state.keys[0].bytes.size(), 8u);
  ASSERT_EQ(state.tokens.size(), 2u);  // identifier order: alice, carol
  EXPECT_EQ(state.tokens[0], (DelegationTokenRecord{Decode(a), kWallStart + 2 * kHourMs + kDayMs}));
  EXPECT_EQ(state.tokens[1], (DelegationTokenRecord{Decode(c), kWallStart + kDayMs}));
  EXPECT_EQ(state.sequence_number, 3);
  EXPECT_EQ(state.current_key_id, 1);
  manager.reset();  // the RM goes down

  clock_.Advance(hours(1));
  auto recovered = Recover(state);
  ASSERT_NE(recovered, nullptr);
  EXPECT_EQ(recovered->State(), state);
  // The old tokens verify with their passwords...
  for (const Token* token : {&a, &c}) {
    auto secret = recovered->RetrieveSecret(token->identifier);
    ASSERT_TRUE(secret.ok()) << secret.status().ToString();
    EXPECT_EQ(secret->password, token->password);
    EXPECT_EQ(secret->user, Decode(*token).owner);
  }
  EXPECT_FALSE(recovered->RetrieveSecret(b.identifier).ok());  // cancelled before
  // ...renew and cancel.
  auto renewed = recovered->Renew(c, "yarn");
  ASSERT_TRUE(renewed.ok()) << renewed.status().ToString();
  EXPECT_EQ(*renewed, kWallStart + 3 * kHourMs + kDayMs);
  ASSERT_TRUE(recovered->Cancel(a, "alice").ok());
  EXPECT_FALSE(recovered->RetrieveSecret(a.identifier).ok());
  // New tokens continue the sequence, signed with the recovered key.
  const Token d = recovered->CreateToken("dave", "yarn", "");
  EXPECT_EQ(Decode(d).sequence_number, 4);
  EXPECT_EQ(Decode(d).master_key_id, 1);
  EXPECT_EQ(d.password, HmacSha1(state.keys[0].bytes, d.identifier));
  EXPECT_TRUE(recovered->Renew(d, "yarn").ok());
}

TEST_F(RmDelegationTokenRecoveryTest, TheRecoveredCurrentKeyRollsOnItsOwnSchedule) {
  auto manager = Make({});
  const Token old_token = manager->CreateToken("alice", "yarn", "");
  clock_.Advance(hours(20));
  const RmDelegationTokenState state = manager->State();
  manager.reset();

  auto recovered = Recover(state);
  // Key 1 was made at 0: it rolls after 24 h, not 24 h after the restart.
  clock_.Advance(hours(4));
  EXPECT_FALSE(recovered->Advance());
  clock_.Advance(milliseconds(1));
  EXPECT_TRUE(recovered->Advance());
  EXPECT_EQ(recovered->CurrentKeyId(), 2);
  EXPECT_EQ(Decode(recovered->CreateToken("bob", "yarn", "")).master_key_id, 2);
  EXPECT_TRUE(recovered->Renew(old_token, "yarn").ok());  // key 1 still verifies
}

TEST_F(RmDelegationTokenRecoveryTest, AnOverdueRollHappensAtTheFirstAdvance) {
  auto manager = Make({});
  const Token old_token = manager->CreateToken("alice", "yarn", "");
  clock_.Advance(hours(20));
  ASSERT_TRUE(manager->Renew(old_token, "yarn").ok());
  const RmDelegationTokenState state = manager->State();
  manager.reset();

  clock_.Advance(hours(10));  // down over the roll at 24 h
  auto recovered = Recover(state);
  EXPECT_EQ(recovered->CurrentKeyId(), 1);
  EXPECT_TRUE(recovered->Advance());
  EXPECT_EQ(recovered->CurrentKeyId(), 2);
  EXPECT_EQ(recovered->State().keys[0].expiry_date_ms, clock_.WallMillis() + 7 * kDayMs);
  EXPECT_TRUE(recovered->Renew(old_token, "yarn").ok());
}

TEST_F(RmDelegationTokenRecoveryTest, TheRollIsNeverLaterThanOneIntervalAfterStart) {
  RmDelegationTokenOptions long_lived;
  long_lived.max_lifetime = hours(24 * 30);
  auto manager = Make(long_lived);
  const RmDelegationTokenState state = manager->State();
  manager.reset();
  clock_.Advance(hours(1));
  // Restarted with a shorter max lifetime: key 1's expiry reads as made in
  // the future; it rolls one interval after start.
  auto recovered = Recover(state);
  clock_.Advance(hours(24));
  EXPECT_FALSE(recovered->Advance());
  clock_.Advance(milliseconds(1));
  EXPECT_TRUE(recovered->Advance());
}

TEST_F(RmDelegationTokenRecoveryTest, RecoveryAfterRollsKeepsOldKeysAndContinuesTheirIds) {
  auto manager = Make({});
  const Token under_1 = manager->CreateToken("alice", "yarn", "");
  for (int i = 0; i < 2; ++i) {
    clock_.Advance(hours(12));
    ASSERT_TRUE(manager->Renew(under_1, "yarn").ok());
    clock_.Advance(hours(12) + milliseconds(1));
    ASSERT_TRUE(manager->Renew(under_1, "yarn").ok());
    ASSERT_TRUE(manager->Advance());
  }
  const Token under_3 = manager->CreateToken("bob", "yarn", "");
  EXPECT_EQ(Decode(under_3).master_key_id, 3);
  const RmDelegationTokenState state = manager->State();
  ASSERT_EQ(state.keys.size(), 3u);
  manager.reset();

  // current_key_id left out: the highest id is current.
  auto recovered = Recover(WithoutCurrent(state));
  EXPECT_EQ(recovered->CurrentKeyId(), 3);
  EXPECT_EQ(recovered->State(), state);
  EXPECT_TRUE(recovered->Renew(under_1, "yarn").ok());
  EXPECT_TRUE(recovered->Renew(under_3, "yarn").ok());
  clock_.Advance(hours(24) + milliseconds(1));
  ASSERT_TRUE(recovered->Advance());
  EXPECT_EQ(recovered->CurrentKeyId(), 4);
}

TEST_F(RmDelegationTokenRecoveryTest, RecoveryDropsWhatHasExpiredAndTellsTheListener) {
  clock_.Advance(hours(24 * 10));
  const int64_t now = clock_.WallMillis();
  auto token = [now](int32_t seq, int32_t key, int64_t renew) {
    DelegationTokenRecord t;
    t.identifier.owner = "u" + std::to_string(seq);
    t.identifier.renewer = "yarn";
    t.identifier.issue_date_ms = now - kDayMs;
    t.identifier.max_date_ms = now + 5 * kDayMs;
    t.identifier.sequence_number = seq;
    t.identifier.master_key_id = key;
    t.renew_date_ms = renew;
    return t;
  };
  RmDelegationTokenState state;
  state.keys = {{1, now - 1, "k1k1k1k1"}, {2, now + 20 * kDayMs, "k2k2k2k2"}};
  state.tokens = {token(1, 1, now + kHourMs),   // its key expired
                  token(7, 2, now - 1),         // renew date passed
                  token(5, 2, now + kHourMs),   // live
                  token(4, 9, now + kHourMs)};  // unknown key
  state.sequence_number = 2;                    // behind the tokens

  Recorder recorder;
  auto recovered = Recover(state, recorder.Listener());
  ASSERT_NE(recovered, nullptr);
  EXPECT_EQ(recorder.Take(),
            (std::vector<std::string>{"key- 1", "token- 1", "token- 7", "token- 4", "seq 7"}));
  EXPECT_EQ(recovered->KeyCount(), 1u);
  EXPECT_EQ(recovered->CurrentKeyId(), 2);
  EXPECT_EQ(recovered->TokenCount(), 1u);
  const std::string live = EncodeRmDelegationTokenIdentifier(state.tokens[2].identifier);
  auto secret = recovered->RetrieveSecret(live);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, HmacSha1("k2k2k2k2", live));
  EXPECT_EQ(secret->user, "u5");
  const Token next = recovered->CreateToken("alice", "yarn", "");
  EXPECT_EQ(Decode(next).sequence_number, 8);
  EXPECT_EQ(Decode(next).master_key_id, 2);
}

TEST_F(RmDelegationTokenRecoveryTest, WithoutRecoveredKeysAFreshKeyIsMade) {
  RmDelegationTokenState state;
  DelegationTokenRecord orphan;
  orphan.identifier.owner = "alice";
  orphan.identifier.sequence_number = 3;
  orphan.identifier.master_key_id = 1;
  orphan.renew_date_ms = kWallStart + kHourMs;
  state.tokens = {orphan};
  state.sequence_number = 3;
  Recorder recorder;
  auto recovered = Recover(state, recorder.Listener());
  // The orphan is dropped, not taken for a token of the new key 1.
  EXPECT_EQ(recorder.Take(),
            (std::vector<std::string>{"token- 3", "key+ 1 expires " + std::to_string(8 * kDayMs)}));
  EXPECT_EQ(recovered->TokenCount(), 0u);
  EXPECT_EQ(recovered->KeyCount(), 1u);
  EXPECT_EQ(Decode(recovered->CreateToken("bob", "yarn", "")).sequence_number, 4);
}

TEST_F(RmDelegationTokenRecoveryTest, InconsistentRecoveredStatesAreRefused) {
  auto refused = [this](RmDelegationTokenState state, std::string_view what) {
    RmDelegationTokenOptions options;
    options.recovered = std::move(state);
    auto manager = RmDelegationTokenSecretManager::Create(std::move(options), &clock_);
    ASSERT_FALSE(manager.ok());
    EXPECT_EQ(manager.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(manager.status().message().find(what), std::string::npos)
        << manager.status().ToString();
  };
  RmDelegationTokenState twice;
  twice.keys = {{1, kWallStart, "aaaaaaaa"}, {1, kWallStart, "bbbbbbbb"}};
  refused(twice, "two keys with id 1");
  RmDelegationTokenState empty;
  empty.keys = {{1, kWallStart, ""}};
  refused(empty, "key 1 has no bytes");
  RmDelegationTokenState unknown_current;
  unknown_current.keys = {{1, kWallStart, "aaaaaaaa"}};
  unknown_current.current_key_id = 2;
  refused(unknown_current, "current key 2 is not among the recovered keys");
}

TEST_F(RmDelegationTokenRecoveryTest, AStoreFollowingTheListenerRecoversTheSameState) {
  FakeStore store;
  RmDelegationTokenOptions options;
  options.listener = store.Listener();
  auto manager = Make(std::move(options));
  std::vector<Token> tokens;
  for (int hour = 0; hour < 24 * 9; hour += 5) {
    const Token token = manager->CreateToken("u" + std::to_string(hour), "yarn", "");
    EXPECT_TRUE(store.HasToken(Decode(token)));  // persisted before it is handed out
    tokens.push_back(token);
    if (hour % 3 == 0) (void)manager->Cancel(tokens[tokens.size() / 2], "yarn");
    for (const Token& t : tokens) (void)manager->Renew(t, "yarn");
    clock_.Advance(hours(5));
    manager->Advance();
    EXPECT_EQ(store.Load(), WithoutCurrent(manager->State())) << "hour " << hour;
  }
  const RmDelegationTokenState before = manager->State();
  EXPECT_GT(before.keys.size(), 1u);
  EXPECT_GT(before.tokens.size(), 1u);
  manager.reset();

  // Recovery drops retired keys that expired since the last roll.
  RmDelegationTokenState expected = before;
  const size_t dropped = std::erase_if(expected.keys, [&](const DelegationKeyRecord& key) {
    return key.expiry_date_ms < clock_.WallMillis() && key.key_id != before.current_key_id;
  });
  EXPECT_EQ(dropped, 1u);  // retired at 50 h, expired at 218 h; the next roll is at 225 h
  // The recovered manager goes on with the same store.
  auto recovered = Recover(store.Load(), store.Listener());
  EXPECT_EQ(recovered->State(), expected);
  EXPECT_EQ(store.Load(), WithoutCurrent(expected));
  for (const Token& t : tokens) {
    EXPECT_EQ(recovered->RetrieveSecret(t.identifier).ok(), store.HasToken(Decode(t)));
  }
}

TEST_F(RmDelegationTokenRecoveryTest, ConcurrentChangesReachTheStoreInOrder) {
  FakeStore store;
  RmDelegationTokenOptions options;
  options.key_update_interval = hours(1);
  options.renew_interval = hours(3);
  options.removal_scan_interval = milliseconds(1);
  options.listener = store.Listener();
  auto manager = Make(std::move(options));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Token> mine;
      for (int i = 0; i < 60; ++i) {
        mine.push_back(manager->CreateToken("u" + std::to_string(t), "yarn", ""));
        (void)manager->Renew(mine[mine.size() / 2], "yarn");
        if (i % 4 == 3) (void)manager->Cancel(mine[i - 2], "yarn");
        if (t == 0) {
          clock_.Advance(std::chrono::minutes(10));
          (void)manager->Advance();
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(store.Load(), WithoutCurrent(manager->State()));
  EXPECT_EQ(manager->State().sequence_number, 240);
}

}  // namespace
}  // namespace spindle::rm
