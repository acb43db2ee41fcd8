#include "rm/security/master_key_manager.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "base/crypto.h"

namespace spindle::rm {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

KeyRollingOptions Options(int32_t first_key_id = 100) {
  KeyRollingOptions options;
  options.family = KeyFamily::kContainerTokens;
  options.rolling_interval = hours(24);
  options.activation_delay = minutes(15);
  options.first_key_id = first_key_id;
  return options;
}

std::unique_ptr<MasterKeyManager> Make(const KeyRollingOptions& options, const Clock* clock) {
  auto manager = MasterKeyManager::Create(options, clock);
  CHECK(manager.ok()) << manager.status().ToString();
  return std::move(manager).value();
}

TEST(MasterKeyManagerTest, StartsWithOneCurrentKeyOfEightBytes) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  EXPECT_EQ(keys->Current().key_id, 100);
  EXPECT_EQ(keys->Current().bytes.size(), 8u);
  EXPECT_FALSE(keys->Next().has_value());
  EXPECT_EQ(keys->Newest(), keys->Current());
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(24));
  EXPECT_FALSE(keys->Advance().any());
}

TEST(MasterKeyManagerTest, RollsThenActivatesOnJavasSchedule) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  const MasterKey first = keys->Current();

  clock.Advance(hours(24) - milliseconds(1));
  EXPECT_FALSE(keys->Advance().any());

  clock.Advance(milliseconds(1));  // t = 24 h: roll
  KeyTransitions done = keys->Advance();
  EXPECT_EQ(done.rolled, 1);
  EXPECT_EQ(done.activated, 0);
  ASSERT_TRUE(keys->Next().has_value());
  const MasterKey second = *keys->Next();
  EXPECT_EQ(second.key_id, 101);  // one more than the last key
  EXPECT_NE(second.bytes, first.bytes);
  EXPECT_EQ(keys->Current(), first);  // still signing with the old key
  EXPECT_EQ(keys->Newest(), second);
  EXPECT_EQ(keys->Find(100), first);
  EXPECT_EQ(keys->Find(101), second);
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(24) + minutes(15));

  clock.Advance(minutes(15));  // activation
  done = keys->Advance();
  EXPECT_EQ(done.rolled, 0);
  EXPECT_EQ(done.activated, 1);
  EXPECT_EQ(keys->Current(), second);
  EXPECT_FALSE(keys->Next().has_value());
  EXPECT_FALSE(keys->Find(100).has_value());  // the old key is gone
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(48));

  clock.Advance(hours(24));  // t = 48 h 15 min: the second roll (due at 48 h) and its activation
  done = keys->Advance();
  EXPECT_EQ(done.rolled, 1);
  EXPECT_EQ(done.activated, 1);
  EXPECT_EQ(keys->Current().key_id, 102);
}

TEST(MasterKeyManagerTest, SigningKeysFollowCurrentAndNewestAcrossARoll) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  const std::string identifier = "a token identifier";
  const MasterKey first = keys->Current();
  const SigningKey signing = keys->CurrentSigningKey();
  EXPECT_EQ(signing.key_id, first.key_id);
  EXPECT_EQ(signing.hmac->Sign(identifier), HmacSha1(first.bytes, identifier));
  // Made once per key: every token under it shares the key schedule.
  EXPECT_EQ(keys->CurrentSigningKey().hmac, signing.hmac);
  EXPECT_EQ(keys->NewestSigningKey().hmac, signing.hmac);

  clock.Advance(hours(24));  // roll: current still signs, newest is the next key
  keys->Advance();
  const MasterKey second = *keys->Next();
  EXPECT_EQ(keys->CurrentSigningKey().hmac, signing.hmac);
  const SigningKey newest = keys->NewestSigningKey();
  EXPECT_EQ(newest.key_id, second.key_id);
  EXPECT_EQ(newest.hmac->Sign(identifier), HmacSha1(second.bytes, identifier));

  clock.Advance(minutes(15));  // activation: the next key signs
  keys->Advance();
  const SigningKey current = keys->CurrentSigningKey();
  EXPECT_EQ(current.key_id, second.key_id);
  EXPECT_EQ(current.hmac, newest.hmac);
  EXPECT_EQ(current.hmac->Sign(identifier), HmacSha1(second.bytes, identifier));
}

TEST(MasterKeyManagerTest, LateAdvanceGivesTheSameSchedule) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  clock.Advance(hours(24) + minutes(10));  // roll due at 24 h, activation at 24 h 15
  EXPECT_EQ(keys->Advance().rolled, 1);
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(24) + minutes(15));
  clock.Advance(hours(24));  // past the activation and the next roll (48 h), not its activation
  const KeyTransitions done = keys->Advance();
  EXPECT_EQ(done.activated, 1);
  EXPECT_EQ(done.rolled, 1);
  EXPECT_EQ(keys->Current().key_id, 101);
  ASSERT_TRUE(keys->Next().has_value());
  EXPECT_EQ(keys->Next()->key_id, 102);
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(48) + minutes(15));
}

TEST(MasterKeyManagerTest, ClockJumpMakesOnlyTheLastKey) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  clock.Advance(hours(24 * 365));
  const KeyTransitions done = keys->Advance();
  EXPECT_LE(done.rolled, 2);
  // On schedule: the roll at day 365 is due now; its activation is not.
  ASSERT_TRUE(keys->Next().has_value());
  EXPECT_EQ(keys->NextEventTime(), TimePoint{} + hours(24 * 365) + minutes(15));
  EXPECT_EQ(keys->Next()->key_id, keys->Current().key_id + 1);
}

TEST(MasterKeyManagerTest, HeartbeatRuleSendsTheNextKeyUntilTheNodeHasIt) {
  ManualClock clock;
  auto keys = Make(Options(), &clock);
  // No next key: nothing to send, whatever the NM knows.
  EXPECT_FALSE(keys->KeyForNode(100).has_value());
  EXPECT_FALSE(keys->KeyForNode(std::nullopt).has_value());
  clock.Advance(hours(24));
  (void)keys->Advance();
  ASSERT_TRUE(keys->Next().has_value());
  EXPECT_EQ(keys->KeyForNode(100), keys->Next());           // NM only has the current key
  EXPECT_EQ(keys->KeyForNode(std::nullopt), keys->Next());  // NM reported none
  EXPECT_EQ(keys->KeyForNode(55), keys->Next());            // NM has some stale key
  EXPECT_FALSE(keys->KeyForNode(101).has_value());          // NM has the next key
  clock.Advance(minutes(15));
  (void)keys->Advance();
  EXPECT_FALSE(keys->KeyForNode(100).has_value());  // activated: registration sends current
}

TEST(MasterKeyManagerTest, KeyIdsWrapLikeAJavaInt) {
  ManualClock clock;
  auto keys = Make(Options(std::numeric_limits<int32_t>::max()), &clock);
  EXPECT_EQ(keys->Current().key_id, std::numeric_limits<int32_t>::max());
  clock.Advance(hours(24));
  (void)keys->Advance();
  EXPECT_EQ(keys->Next()->key_id, std::numeric_limits<int32_t>::min());
}

TEST(MasterKeyManagerTest, RandomFirstIdsDiffer) {
  ManualClock clock;
  KeyRollingOptions options = Options();
  options.first_key_id.reset();
  // Two 32-bit draws collide with probability 2^-32 per pair; try a few.
  bool differ = false;
  for (int i = 0; i < 4 && !differ; ++i) {
    differ = Make(options, &clock)->Current().key_id != Make(options, &clock)->Current().key_id;
  }
  EXPECT_TRUE(differ);
}

TEST(MasterKeyManagerTest, RecoversKeysAndActivatesARecoveredNextKeyAfterTheDelay) {
  ManualClock clock(TimePoint{} + hours(1000));
  KeyRollingOptions options = Options();
  options.first_key_id.reset();
  options.recovered = KeyState{MasterKey{-7, "12345678"}, MasterKey{-6, "abcdefgh"}};
  auto keys = Make(options, &clock);
  EXPECT_EQ(keys->State(), *options.recovered);
  EXPECT_EQ(keys->NextEventTime(), clock.Now() + minutes(15));
  clock.Advance(minutes(15));
  EXPECT_EQ(keys->Advance().activated, 1);
  EXPECT_EQ(keys->Current(), (MasterKey{-6, "abcdefgh"}));
  clock.Advance(hours(24) - minutes(15));  // the first roll: one interval after start
  (void)keys->Advance();
  EXPECT_EQ(keys->Next()->key_id, -5);  // ids continue after the newest recovered key
}

TEST(MasterKeyManagerTest, ZeroActivationDelayActivatesAtTheRoll) {
  ManualClock clock;
  KeyRollingOptions options = Options();
  options.activation_delay = Duration::zero();
  auto keys = Make(options, &clock);
  clock.Advance(hours(24));
  const KeyTransitions done = keys->Advance();
  EXPECT_EQ(done.rolled, 1);
  EXPECT_EQ(done.activated, 1);
  EXPECT_EQ(keys->Current().key_id, 101);
}

TEST(MasterKeyManagerTest, RejectsJavasInvalidSchedules) {
  ManualClock clock;
  KeyRollingOptions options = Options();
  options.family = KeyFamily::kAmrmTokens;
  options.rolling_interval = minutes(30);  // == 2 x activation delay: Java refuses it too
  auto keys = MasterKeyManager::Create(options, &clock);
  ASSERT_FALSE(keys.ok());
  EXPECT_EQ(keys.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(keys.status().message().find("am-rm-tokens"), std::string::npos);

  options = Options();
  options.rolling_interval = Duration::zero();
  EXPECT_FALSE(options.Validate().ok());
  options = Options();
  options.activation_delay = -seconds(1);
  EXPECT_FALSE(options.Validate().ok());
  options = Options();
  options.key_length = 0;
  EXPECT_FALSE(options.Validate().ok());
  options = Options();
  options.recovered = KeyState{MasterKey{1, ""}, std::nullopt};
  EXPECT_FALSE(options.Validate().ok());
}

}  // namespace
}  // namespace spindle::rm
