// AdminService's authorization refreshes over loopback IPC, as `yarn rmadmin
// -refreshServiceAcl` and `-refreshSuperUserGroupsConfiguration` call them:
// refreshServiceAcls answers Hadoop's "not enabled" before anything else,
// checks the admin ACL on 3.3 only (AdminService 2.6 has no checkAcls
// there), and refreshSuperUserGroupsConfiguration is admin-only on both.
#include "am_protocol/admin_service/admin_service.h"

#include <gtest/gtest.h>

#include "rm/yarn_exceptions.h"
#include "tests/am_protocol/admin_service/fake_ha_actions.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"

namespace spindle::am_protocol {
namespace {

namespace y = hadoop::yarn;
using testing::FakeAdmin;

class AdminServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    service_ = std::make_unique<AdminService>(&admin_);
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(service_->MakeRpcService());
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override { server_->Stop(); }

  ipc::ConnectionSpec Spec(const std::string& user) const {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAdminProtocol;
    spec.user = user;
    return spec;
  }
  Status RefreshServiceAcls(const std::string& user) {
    y::RefreshServiceAclsRequestProto request;
    y::RefreshServiceAclsResponseProto response;
    return client_.Call(Spec(user), "refreshServiceAcls", request, &response);
  }
  Status RefreshSuperUsers(const std::string& user) {
    y::RefreshSuperUserGroupsConfigurationRequestProto request;
    y::RefreshSuperUserGroupsConfigurationResponseProto response;
    return client_.Call(Spec(user), "refreshSuperUserGroupsConfiguration", request, &response);
  }

  FakeAdmin admin_;
  std::unique_ptr<AdminService> service_;
  std::unique_ptr<ipc::RpcServer> server_;
  ipc::RpcClient client_;
};

TEST_F(AdminServiceTest, RefreshServiceAclsWithAuthorizationOffIsRefusedFirst) {
  admin_.acl = "root";
  Status s = RefreshServiceAcls("mallory");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(s.message(),
            "java.io.IOException: Service Authorization (hadoop.security.authorization) not "
            "enabled.");
  EXPECT_EQ(admin_.service_acl_refreshes, 0);
}

TEST_F(AdminServiceTest, RefreshServiceAclsChecksTheAdminAclOn33Only) {
  admin_.service_authorization = true;
  admin_.acl = "root";
  // AdminService.checkAcls: the AccessControlException as a YarnException.
  Status refused = RefreshServiceAcls("mallory");
  EXPECT_EQ(refused.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(refused.message(),
            "org.apache.hadoop.security.AccessControlException: User mallory doesn't have "
            "permission to call 'refreshServiceAcls'");
  EXPECT_EQ(admin_.service_acl_refreshes, 0);
  EXPECT_TRUE(RefreshServiceAcls("root").ok());
  EXPECT_EQ(admin_.service_acl_refreshes, 1);
  admin_.line = rm::HadoopLine::k2_6;
  EXPECT_TRUE(RefreshServiceAcls("mallory").ok());
  EXPECT_EQ(admin_.service_acl_refreshes, 2);
}

TEST_F(AdminServiceTest, RefreshSuperUserGroupsIsForAdmins) {
  admin_.acl = "root";
  EXPECT_FALSE(RefreshSuperUsers("mallory").ok());
  EXPECT_EQ(admin_.super_user_refreshes, 0);
  EXPECT_TRUE(RefreshSuperUsers("root").ok());
  EXPECT_EQ(admin_.super_user_refreshes, 1);
}

}  // namespace
}  // namespace spindle::am_protocol
