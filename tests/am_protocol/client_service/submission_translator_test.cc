#include "am_protocol/client_service/submission_translator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rm/yarn_exceptions.h"

namespace spindle::client_service {
namespace {

namespace y = hadoop::yarn;

rm::QueueTree Tree() {
  rm::Configuration conf;
  EXPECT_TRUE(conf.AddResourceString(
                      "<configuration><property><name>yarn.scheduler.capacity.root.queues</name>"
                      "<value>default</value></property><property><name>yarn.scheduler."
                      "capacity.root.default.capacity</name><value>100</value></property>"
                      "</configuration>",
                      "capacity-scheduler.xml")
                  .ok());
  return std::move(rm::QueueTree::Parse(conf)).value();
}

y::ApplicationSubmissionContextProto Context() {
  y::ApplicationSubmissionContextProto context;
  context.mutable_application_id()->set_id(3);
  context.mutable_application_id()->set_cluster_timestamp(99);
  context.mutable_resource()->set_memory(1024);
  context.mutable_resource()->set_virtual_cores(1);
  return context;
}

TEST(SubmissionTranslatorTest, ExtrasCarryLabelsAndAcls) {
  y::ApplicationSubmissionContextProto context = Context();
  AppExtras extras = ExtrasOf(context);
  EXPECT_FALSE(extras.app_node_label.has_value());
  EXPECT_EQ(extras.am_node_label, "<DEFAULT_PARTITION>");
  EXPECT_FALSE(extras.view_acl.IsUserAllowed("x", {}));

  context.set_node_label_expression("gpu");
  auto* any = context.add_am_container_resource_request();
  any->set_resource_name("*");
  any->set_node_label_expression("big");
  auto* acl = context.mutable_am_container_spec()->add_application_acls();
  acl->set_accesstype(y::APPACCESS_MODIFY_APP);
  acl->set_acl("ops admins");
  extras = ExtrasOf(context);
  EXPECT_EQ(extras.app_node_label, "gpu");
  EXPECT_EQ(extras.am_node_label, "big");
  EXPECT_TRUE(extras.modify_acl.IsUserAllowed("x", {"admins"}));
  EXPECT_FALSE(extras.view_acl.IsUserAllowed("ops", {}));

  context.set_unmanaged_am(true);
  EXPECT_FALSE(ExtrasOf(context).am_node_label.has_value());
}

TEST(SubmissionTranslatorTest, TranslatesAndKeepsTheBytes) {
  const rm::QueueTree tree = Tree();
  y::ApplicationSubmissionContextProto context = Context();
  context.set_queue("root.default");
  auto t = TranslateSubmission(context, "alice", {}, tree, SubmissionPolicy{});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->submission.id.ToString(), "application_99_0003");
  EXPECT_EQ(t->submission.user, "alice");
  EXPECT_EQ(t->submission.queue, "default");
  EXPECT_EQ(t->submission.name, "N/A");
  EXPECT_EQ(t->submission.type, "YARN");
  EXPECT_EQ(t->submission.am_resource, pool::Resource::Of(1024, 1));
  EXPECT_EQ(t->submission.context_bytes, context.SerializeAsString());

  context.clear_application_id();
  EXPECT_EQ(
      TranslateSubmission(context, "alice", {}, tree, SubmissionPolicy{}).status().java_class(),
      rm::yarn::kYarnException);
}

TEST(SubmissionTranslatorTest, ExtendedResourceTypes) {
  auto types = pool::ResourceTypes::Create({"yarn.io/gpu"});
  ASSERT_TRUE(types.ok());
  y::ResourceProto proto;
  proto.set_memory(2048);
  proto.set_virtual_cores(2);
  auto* gpu = proto.add_resource_value_map();
  gpu->set_key("yarn.io/gpu");
  gpu->set_value(1);
  auto* memory = proto.add_resource_value_map();
  memory->set_key("memory-mb");
  memory->set_value(2048);
  auto r = ResourceFromProto(proto, *types);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, pool::Resource::Of(2048, 2).With(2, 1));
  gpu->set_key("yarn.io/fpga");
  EXPECT_EQ(ResourceFromProto(proto, *types).status().java_class(),
            rm::yarn::kInvalidResourceRequest);
}

}  // namespace
}  // namespace spindle::client_service
