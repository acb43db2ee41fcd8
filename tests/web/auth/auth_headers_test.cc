// Reading the Negotiate header and the hadoop.auth cookie; writing
// Set-Cookie as hadoop-auth 3.3's AuthenticationFilter does.
#include "web/auth/auth_headers.h"

#include <gtest/gtest.h>

namespace spindle::web::auth {
namespace {

HttpRequest WithHeaders(std::vector<std::pair<std::string, std::string>> headers) {
  HttpRequest request;
  request.headers = std::move(headers);
  return request;
}

TEST(NegotiateTokenTest, AbsentOrOtherSchemesStartTheHandshake) {
  for (const auto& request : {WithHeaders({}), WithHeaders({{"Authorization", "Basic YTpi"}}),
                              WithHeaders({{"Authorization", "negotiate YWJj"}})}) {
    Result<std::optional<std::string>> token = NegotiateToken(request);
    ASSERT_TRUE(token.ok());
    EXPECT_FALSE(token->has_value());
  }
}

TEST(NegotiateTokenTest, DecodesTheToken) {
  Result<std::optional<std::string>> token =
      NegotiateToken(WithHeaders({{"authorization", "Negotiate   YWJj  "}}));
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(**token, "abc");
}

TEST(NegotiateTokenTest, GarbleIsAnError) {
  for (const char* value : {"Negotiate", "Negotiate   ", "Negotiate ***", "Negotiate YW=j"}) {
    Result<std::optional<std::string>> token =
        NegotiateToken(WithHeaders({{"Authorization", value}}));
    EXPECT_EQ(token.status().code(), Status::Code::kInvalidArgument) << value;
  }
}

TEST(AuthCookieValueTest, FindsTheFirstHadoopAuthCookie) {
  EXPECT_FALSE(AuthCookieValue(WithHeaders({{"Cookie", "a=b; hadoop.authx=c"}})).has_value());
  EXPECT_EQ(*AuthCookieValue(WithHeaders({{"Cookie", "a=b;hadoop.auth=\"u=x&s=a=\" ; c=d"}})),
            "u=x&s=a=");
  EXPECT_EQ(
      *AuthCookieValue(WithHeaders(
          {{"Cookie", "a=b"}, {"cookie", "hadoop.auth=first"}, {"Cookie", "hadoop.auth=second"}})),
      "first");
  EXPECT_EQ(*AuthCookieValue(WithHeaders({{"Cookie", "hadoop.auth="}})), "");
}

TEST(AuthCookieHeaderTest, WritesHadoopsSetCookie) {
  EXPECT_EQ(AuthCookieHeader("u=a&s=x", 0, {std::nullopt, "/", false}),
            "hadoop.auth=\"u=a&s=x\"; Path=/; HttpOnly");
  EXPECT_EQ(AuthCookieHeader("", 0, {"example.com", "/", false}),
            "hadoop.auth=; Path=/; Domain=example.com; HttpOnly");
  // 2023-11-14T22:13:20Z.
  EXPECT_EQ(AuthCookieHeader("v", 1700000000000, {std::nullopt, std::nullopt, true}),
            "hadoop.auth=\"v\"; Expires=Tue, 14-Nov-2023 22:13:20 GMT; HttpOnly");
}

}  // namespace
}  // namespace spindle::web::auth
