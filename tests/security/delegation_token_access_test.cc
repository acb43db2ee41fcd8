#include "security/delegation_token_access.h"

#include <gtest/gtest.h>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {
namespace {

TEST(DelegationTokenAccessTest, SecurityOffAllowsEveryMethod) {
  for (ipc::AuthMethod method :
       {ipc::AuthMethod::kSimple, ipc::AuthMethod::kToken, ipc::AuthMethod::kKerberos}) {
    EXPECT_TRUE(CheckDelegationTokenOp(false, method, DelegationTokenOp::kGet).ok());
  }
}

TEST(DelegationTokenAccessTest, SecurityOnNeedsKerberos) {
  EXPECT_TRUE(
      CheckDelegationTokenOp(true, ipc::AuthMethod::kKerberos, DelegationTokenOp::kRenew).ok());
  Status get = CheckDelegationTokenOp(true, ipc::AuthMethod::kToken, DelegationTokenOp::kGet);
  EXPECT_EQ(get.java_class(), ipc::java::kIoException);
  EXPECT_EQ(get.message(), "Delegation Token can be issued only with kerberos authentication");
  EXPECT_EQ(
      CheckDelegationTokenOp(true, ipc::AuthMethod::kToken, DelegationTokenOp::kRenew).message(),
      "Delegation Token can be renewed only with kerberos authentication");
  EXPECT_EQ(
      CheckDelegationTokenOp(true, ipc::AuthMethod::kSimple, DelegationTokenOp::kCancel).message(),
      "Delegation Token can be cancelled only with kerberos authentication");
}

}  // namespace
}  // namespace spindle::security
