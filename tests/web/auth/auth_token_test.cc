// The hadoop.auth token text, as hadoop-auth 3.3's AuthToken writes and
// parses it.
#include "web/auth/auth_token.h"

#include <gtest/gtest.h>

namespace spindle::web::auth {
namespace {

TEST(AuthTokenTest, WritesAttributesInHadoopsOrder) {
  AuthToken token{"alice", "alice@SPINDLE.TEST", "kerberos-dt"};
  token.expires = 1700000000123;
  EXPECT_EQ(token.ToString(), "u=alice&p=alice@SPINDLE.TEST&t=kerberos-dt&e=1700000000123");
  token.max_inactives = 1700000000000;
  EXPECT_EQ(token.ToString(),
            "u=alice&p=alice@SPINDLE.TEST&t=kerberos-dt&i=1700000000000&e=1700000000123");
}

TEST(AuthTokenTest, ParsesWhatItWritesAndIgnoresTheSignature) {
  Result<AuthToken> token = AuthToken::Parse("\"u=bob&p=bob&t=simple&i=5&e=10&s=c2lnbmF0dXJl\"");
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(token->user, "bob");
  EXPECT_EQ(token->principal, "bob");
  EXPECT_EQ(token->type, "simple");
  EXPECT_EQ(token->max_inactives, 5);
  EXPECT_EQ(token->expires, 10);
  // Empty parts are skipped (StringTokenizer), a later attribute wins.
  token = AuthToken::Parse("&&u=x&p=y&t=simple&e=1&u=z&");
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(token->user, "z");
  EXPECT_EQ(token->max_inactives, -1);
}

TEST(AuthTokenTest, RefusesMalformedTokens) {
  EXPECT_EQ(AuthToken::Parse("u=a&p=a&t=simple").status().message(),
            "Invalid token string, missing attributes");
  EXPECT_EQ(AuthToken::Parse("u=a&p=a&t=simple&e=1&junk").status().message(),
            "Invalid authentication token");
  EXPECT_FALSE(AuthToken::Parse("u=a&p=a&t=simple&e=soon").ok());
  EXPECT_FALSE(AuthToken::Parse("u=&p=a&t=simple&e=1").ok());
  EXPECT_FALSE(AuthToken::Parse("").ok());
}

TEST(AuthTokenTest, ExpiresAfterEitherDeadline) {
  AuthToken token{"a", "a", "simple"};
  EXPECT_FALSE(token.IsExpired(1));  // -1: never
  token.expires = 100;
  EXPECT_FALSE(token.IsExpired(100));
  EXPECT_TRUE(token.IsExpired(101));
  token.expires = -1;
  token.max_inactives = 50;
  EXPECT_TRUE(token.IsExpired(51));
}

}  // namespace
}  // namespace spindle::web::auth
