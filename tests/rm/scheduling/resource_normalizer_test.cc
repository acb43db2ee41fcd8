#include "rm/scheduling/resource_normalizer.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

using pool::Resource;

struct Case {
  const char* what;
  ResourceCalculator calculator;
  Resource requested;
  Resource expected;
};

// Minimum 1024 MB / 1 vcore, maximum 8192 MB / 4 vcores (yarn-default), the
// expectations worked out from SchedulerUtils.normalizeRequest and the two
// calculators' normalize() (Hadoop 2.6.0 and 3.3.0 agree).
TEST(ResourceNormalizerTest, FollowsTheConfiguredCalculator) {
  const Case cases[] = {
      {"memory rounds up to the step", ResourceCalculator::kDefault, Resource::Of(1500, 1),
       Resource::Of(2048, 1)},
      {"below the minimum becomes the minimum", ResourceCalculator::kDefault, Resource::Of(0, 0),
       Resource::Of(1024, 1)},
      {"default ignores vcores: 3 become 1", ResourceCalculator::kDefault, Resource::Of(1024, 3),
       Resource::Of(1024, 1)},
      {"capped at the maximum", ResourceCalculator::kDefault, Resource::Of(8000, 1),
       Resource::Of(8192, 1)},
      {"dominant keeps vcores", ResourceCalculator::kDominant, Resource::Of(1024, 3),
       Resource::Of(1024, 3)},
      {"dominant raises vcores to the minimum", ResourceCalculator::kDominant,
       Resource::Of(1500, 0), Resource::Of(2048, 1)},
      {"dominant caps vcores", ResourceCalculator::kDominant, Resource::Of(1024, 4),
       Resource::Of(1024, 4)},
  };
  for (const Case& c : cases) {
    ResourceNormalizer normalizer(c.calculator, Resource::Of(1024, 1), Resource::Of(8192, 4));
    EXPECT_EQ(normalizer.Normalize(c.requested), c.expected) << c.what;
  }
}

TEST(ResourceNormalizerTest, DominantRoundsEveryDimensionToItsStep) {
  // Minimum 512 MB / 2 vcores: the step of each dimension is its minimum.
  ResourceNormalizer normalizer(ResourceCalculator::kDominant, Resource::Of(512, 2),
                                Resource::Of(4096, 8));
  EXPECT_EQ(normalizer.Normalize(Resource::Of(600, 3)), Resource::Of(1024, 4));
  EXPECT_EQ(normalizer.Normalize(Resource::Of(4096, 7)), Resource::Of(4096, 8));
  // A zero minimum for a type leaves that type unrounded.
  ResourceNormalizer zero_min(ResourceCalculator::kDominant, Resource::Of(512, 0),
                              Resource::Of(4096, 8));
  EXPECT_EQ(zero_min.Normalize(Resource::Of(512, 3)), Resource::Of(512, 3));
}

TEST(ResourceNormalizerTest, DefaultCalculatorDropsOtherResourceTypes) {
  const Resource gpu_ask = Resource::Of(1024, 2).With(2, 1);
  ResourceNormalizer by_memory(ResourceCalculator::kDefault, Resource::Of(1024, 1),
                               Resource::Of(8192, 4).With(2, 4));
  EXPECT_EQ(by_memory.Normalize(gpu_ask), Resource::Of(1024, 1));
  ResourceNormalizer dominant(ResourceCalculator::kDominant, Resource::Of(1024, 1),
                              Resource::Of(8192, 4).With(2, 4));
  EXPECT_EQ(dominant.Normalize(gpu_ask), gpu_ask);
}

TEST(ResourceNormalizerTest, ParsesHadoopsClassNames) {
  EXPECT_EQ(
      *ParseResourceCalculator("org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"),
      ResourceCalculator::kDominant);
  EXPECT_EQ(*ParseResourceCalculator(kDefaultResourceCalculatorClass),
            ResourceCalculator::kDefault);
  const auto unknown = ParseResourceCalculator("org.example.MyCalculator");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("org.example.MyCalculator"), std::string::npos);
  EXPECT_EQ(ResourceCalculatorClass(ResourceCalculator::kDominant),
            kDominantResourceCalculatorClass);
}

}  // namespace
}  // namespace spindle::rm
